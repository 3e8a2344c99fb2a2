// C32: the audit log: every change made through the management API or the tool, newest first.
import { and, desc, eq, lt } from 'drizzle-orm';
import { auditLog } from '../../schema/tables.ts';
import { uuidv7 } from '../lib/ids.ts';
import { type Db, storage } from './db.ts';

export type AuditEntry = {
  id: string;
  projectId: string | null;
  at: string;
  actor: string;
  action: string;
  /** What changed, as a JSON object (never a secret, a key or a submitted value). */
  detail: Record<string, unknown> | null;
};

export type NewAuditEntry = {
  projectId: string | null;
  actor: string;
  action: string;
  detail?: Record<string, unknown>;
};

/** The statement that records an entry, for a batch of which it is part. */
export function auditInsert(db: Db, entry: NewAuditEntry) {
  const now = Date.now();
  return db.insert(auditLog).values({
    id: uuidv7(now),
    projectId: entry.projectId,
    at: new Date(now).toISOString(),
    actor: entry.actor,
    action: entry.action,
    detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
  });
}

export async function recordAudit(db: Db, entry: NewAuditEntry): Promise<void> {
  await storage(() => auditInsert(db, entry));
}

/** A project's entries, newest first, `limit` at a time after the id `before` (the cursor). */
export async function listAudit(
  db: Db,
  projectId: string,
  options: { before?: string | undefined; limit: number },
): Promise<AuditEntry[]> {
  const rows = await storage(() =>
    db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.projectId, projectId),
          options.before === undefined ? undefined : lt(auditLog.id, options.before),
        ),
      )
      .orderBy(desc(auditLog.id))
      .limit(options.limit),
  );
  return rows.map((r) => ({
    ...r,
    detail: r.detail === null ? null : (JSON.parse(r.detail) as Record<string, unknown>),
  }));
}
