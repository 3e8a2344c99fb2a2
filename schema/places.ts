// C41: places: where projects live, and the fence a request's writes pass through.
import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';

// C41: where projects live, when not in the default place. In the default database, `p:<project>`
// names the place of each project made elsewhere (and, while a move runs, where it is going). In
// a place a project has left, `k:<key hash>` and `f:<form id>` name the place its keys and form
// address now lead to: they were made with this place's tag, and keep working after the move.
export const directory = sqliteTable(
  'directory',
  {
    lookup: text('lookup').primaryKey(),
    projectId: text('project_id').notNull(),
    place: text('place').notNull(),
    movingTo: text('moving_to'),
  },
  (t) => [index('directory_project').on(t.projectId)],
);

// C41: the fence a request's writes pass through, in the same batch as the writes: a row offered
// here is never kept (its trigger, in the migration that made it, drops it), and the batch fails
// unless the project lives in this database and is not being moved. No row is ever stored.
export const projectFence = sqliteTable('project_fence', {
  projectId: text('project_id').notNull(),
});
