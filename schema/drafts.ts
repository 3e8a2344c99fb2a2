// C46: drafts of a hosted page in steps (partial submissions): what a visitor typed, saved after
// each step under a token that lives only in the page's address (its SHA-256 here), in the
// project's place; never judged, delivered or counted as a submission. Deleted when its form is
// sent (a trigger of the submission's insert), after its project's days (the hourly cron), and
// by erasure by value and by retention.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const drafts = sqliteTable(
  'drafts',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    // The values typed, by field name (JSON); files are never kept.
    data: text('data').notNull(),
    // The step the visitor reached (1–20).
    step: integer('step').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('drafts_token').on(t.tokenHash),
    index('drafts_project').on(t.projectId, t.updatedAt),
    index('drafts_expiry').on(t.expiresAt),
  ],
);
