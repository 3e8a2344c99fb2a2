import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const FIELD_TYPES = ['string', 'integer', 'number', 'boolean'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

// C23: publishable keys sit in web pages and can only submit; secret keys also read and erase.
export const KEY_KINDS = ['publishable', 'secret'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

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
    // C22: a field that people leave empty and bots fill; a filled one is stored marked as spam.
    honeypot: text('honeypot'),
    // C22: when set, every submission needs a Turnstile token that Cloudflare's siteverify accepts.
    // Kept here, per project, as given: each site has its own Turnstile widget and secret, and a
    // project is made at run time by the command-line tool, without a redeploy.
    turnstileSecret: text('turnstile_secret'),
    // C25: submissions older than this many days are deleted by the hourly job; NULL keeps them.
    // (No CHECK here: drizzle-kit would rebuild the table to add one, and dropping `projects` under
    // D1's foreign keys would cascade. The command-line tool allows only whole days ≥ 1.)
    retentionDays: integer('retention_days'),
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
    // C28: the field's rules beyond its type, as JSON ({"format": "email", "maxLength": 100, …});
    // NULL when it has none.
    rules: text('rules'),
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
    // C23: keys made before there were two kinds are publishable. (No CHECK: see retention_days.)
    kind: text('kind', { enum: KEY_KINDS }).notNull().default('publishable'),
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
    // C22: filled the project's honeypot; left out of exports unless asked for.
    spam: integer('spam', { mode: 'boolean' }).notNull().default(false),
    // C20: the client's Idempotency-Key and the SHA-256 of the request body, stored with the
    // submission in the same write; cleared by the hourly purge once older than 24 hours.
    idempotencyKey: text('idempotency_key'),
    bodyHash: text('body_hash'),
  },
  (t) => [
    index('submissions_project_id').on(t.projectId, t.id),
    // NULLs are distinct in SQLite: only submissions that carried a key take part.
    uniqueIndex('submissions_idempotency_key').on(t.projectId, t.idempotencyKey),
    index('submissions_idempotency_age').on(t.receivedAt).where(sql`${t.idempotencyKey} is not null`),
  ],
);

export type Project = typeof projects.$inferSelect;
export type Field = typeof fields.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type Submission = typeof submissions.$inferSelect;
