// C40: form analytics: the day's salt, each visitor's day, and the days and drop-off rolled up.
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { projects } from './projects.ts';

// C40: form analytics. Each day's salt, made on the day's first event and deleted once the day is
// over: a visitor's hash (of address, user agent, project and the salt) cannot be made again after.
export const analyticsSalts = sqliteTable('analytics_salts', {
  day: text('day').primaryKey(),
  salt: text('salt').notNull(),
});

// C40: one row per visitor, project and day (the visitor a daily hash, never an address or a user
// agent), written in batches by each isolate; rolled up into analytics_days and
// analytics_drop_off and deleted once the day is over.
export const analyticsVisitors = sqliteTable(
  'analytics_visitors',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    visitor: text('visitor').notNull(),
    viewed: integer('viewed').notNull().default(0),
    started: integer('started').notNull().default(0),
    submitted: integer('submitted').notNull().default(0),
    /** From the first input to the submission, in milliseconds, as the widget timed it. */
    submitMs: integer('submit_ms'),
    /** The last field touched before leaving without submitting (a field of the project, or null). */
    leftField: text('left_field'),
    /** From the first input to leaving, in milliseconds. */
    leftMs: integer('left_ms'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.visitor] })],
);

// C40: a project's counts of a day that is over.
export const analyticsDays = sqliteTable(
  'analytics_days',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    views: integer('views').notNull().default(0),
    starts: integer('starts').notNull().default(0),
    /** Submissions the widget timed (from the first input), and the median of those times. */
    timed: integer('timed').notNull().default(0),
    medianSubmitMs: integer('median_submit_ms'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] })],
);

// C40: of a day that is over, how many visitors left a started form at each field, and their time.
export const analyticsDropOff = sqliteTable(
  'analytics_drop_off',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    field: text('field').notNull(),
    visitors: integer('visitors').notNull().default(0),
    totalMs: integer('total_ms').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.field] })],
);
