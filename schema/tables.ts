import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const FIELD_TYPES = ['string', 'integer', 'number', 'boolean'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

// C13: what happens to a submitted field the project does not define.
export const UNKNOWN_FIELD_POLICIES = ['reject', 'discard'] as const;
export type UnknownFieldPolicy = (typeof UNKNOWN_FIELD_POLICIES)[number];

// Times are ISO-8601 UTC text (`2026-11-22T08:44:13.000Z`): readable in exports, sortable as text.
export const projects = sqliteTable(
  'projects',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    unknownFields: text('unknown_fields', { enum: UNKNOWN_FIELD_POLICIES }).notNull().default('reject'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [check('projects_unknown_fields', sql`${t.unknownFields} in ('reject', 'discard')`)],
);

export const fields = sqliteTable(
  'fields',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: FIELD_TYPES }).notNull(),
    required: integer('required', { mode: 'boolean' }).notNull().default(false),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.name] }),
    check('fields_type', sql`${t.type} in ('string', 'integer', 'number', 'boolean')`),
  ],
);

// C15: an empty list allows every origin.
export const allowedOrigins = sqliteTable(
  'allowed_origins',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.origin] })],
);

// C7: only the SHA-256 of a key is stored; the key itself is shown once and never kept.
export const apiKeys = sqliteTable(
  'api_keys',
  {
    keyHash: text('key_hash').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    displayPrefix: text('display_prefix').notNull(),
    createdAt: text('created_at').notNull(),
    revokedAt: text('revoked_at'),
  },
  (t) => [index('api_keys_project').on(t.projectId)],
);

// C17: id is a UUIDv7, so ordering by id is ordering by arrival.
export const submissions = sqliteTable(
  'submissions',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    data: text('data').notNull(),
    receivedAt: text('received_at').notNull(),
  },
  (t) => [index('submissions_project_id').on(t.projectId, t.id)],
);

export type Project = typeof projects.$inferSelect;
export type Field = typeof fields.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type Submission = typeof submissions.$inferSelect;
