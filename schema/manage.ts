// C32: the management API's own: the audit log and the dashboard's sessions.
import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';

// C32: every change made through the management API or the tool: when, who, what. Kept after its
// project is deleted (no foreign key): the deletion itself is an entry.
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id'),
    at: text('at').notNull(),
    // `operator`, `access:<email>`, `key:<prefix>` or `tool`.
    actor: text('actor').notNull(),
    // `project.create`, `field.define`, `webhook.add`, `submission.update`, …
    action: text('action').notNull(),
    // What changed, as JSON: never a secret or a key.
    detail: text('detail'),
  },
  (t) => [index('audit_log_project').on(t.projectId, t.id)],
);

// C32: sessions of the dashboard: only the SHA-256 of the cookie's opaque id is kept, with what
// the credential it was made from may do; a session made from a secret key ends with that key.
export const sessions = sqliteTable('sessions', {
  idHash: text('id_hash').primaryKey(),
  // `operator`, `access:<email>`, or `key:<prefix>` (a project's secret key).
  actor: text('actor').notNull(),
  projectId: text('project_id'),
  keyHash: text('key_hash'),
  createdAt: text('created_at').notNull(),
  expiresAt: text('expires_at').notNull(),
  // C37: an Access session is checked against Access again at this time (at least hourly): a
  // request then must carry a valid Access token of the same identity, or the session ends.
  recheckAt: text('recheck_at'),
});
