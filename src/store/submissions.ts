// The submissions table, but for the submission path's own statements (intake.ts): forgetting
// Idempotency-Keys (C20), erasing (C25), retention.
import { and, asc, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import { drafts, submissions } from '../../schema/tables.ts';
import { type Db, storage } from './db.ts';

/**
 * The sweep's way to the submissions still waiting for a job of the queue consumer (deliveries
 * written, words indexed, a verdict, a mark learnt): those received before `before` that `waiting`
 * holds for, oldest first. `waiting` is the condition of the job's partial index.
 */
export async function waitingBefore(db: Db, waiting: SQL, before: string, limit: number): Promise<string[]> {
  const rows = await storage(() =>
    db
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(waiting, lt(submissions.receivedAt, before)))
      .orderBy(asc(submissions.receivedAt))
      .limit(limit),
  );
  return rows.map((r) => r.id);
}

/** C20: forgets Idempotency-Keys received before `before` (the submissions stay). */
export async function purgeIdempotencyKeys(db: Db, before: string): Promise<number> {
  const result = await storage(() =>
    db
      .update(submissions)
      .set({ idempotencyKey: null, bodyHash: null })
      .where(and(isNotNull(submissions.idempotencyKey), lt(submissions.receivedAt, before)))
      .run(),
  );
  return result.meta.changes;
}

// ---- Erasing and retention (C25); one submission is deleted by the inbox's store (inbox.ts) ----

/** Rows deleted per statement: no statement holds D1 for long (C25). */
export const DELETE_CHUNK = 500;

/** A JSON value a field can hold, as erasure matches it (C25). */
export type FieldValue = string | number | boolean | null;

/** How SQLite's json_each describes a top-level value: its `type`, and its `atom` when it has one. */
function jsonEachMatch(value: FieldValue) {
  if (value === null) return sql`type = 'null'`;
  if (value === true) return sql`type = 'true'`;
  if (value === false) return sql`type = 'false'`;
  if (typeof value === 'string') return sql`type = 'text' and atom = ${value}`;
  // Any number equal to it, whichever way SQLite holds it: a JSON integer too large for 64 bits
  // (`1e21`) is `real` to json_each although Number.isInteger says it is whole (C25).
  return sql`type in ('integer', 'real') and atom = ${value}`;
}

/** One chunk of the submissions `matching` deleted, their ids returned. */
const chunkDelete = (db: Db, matching: SQL) =>
  db
    .delete(submissions)
    .where(
      sql`${submissions.id} in (select s.id from ${submissions} as s where ${matching} limit ${DELETE_CHUNK})`,
    )
    .returning({ id: submissions.id });

/**
 * Deletes the submissions `matching` (a condition on `s`, the submissions table) in chunks of
 * DELETE_CHUNK, at most `maxChunks` of them. Returns how many were deleted.
 */
async function deleteInChunks(db: Db, matching: SQL, maxChunks = Number.POSITIVE_INFINITY): Promise<number> {
  let deleted = 0;
  for (let chunk = 0; chunk < maxChunks; chunk++) {
    // Counted by the rows returned: D1's `changes` would count the rows their deletion cascades to.
    const rows = await storage(() => chunkDelete(db, matching));
    deleted += rows.length;
    if (rows.length < DELETE_CHUNK) break;
  }
  return deleted;
}

/**
 * C25: deletes every submission of the project whose field `field` holds exactly `value` (same JSON
 * type, same value; any field name, matched as a key, not as a JSON path), in chunks. Returns how
 * many were deleted.
 */
export async function eraseSubmissions(
  db: Db,
  projectId: string,
  field: string,
  value: FieldValue,
): Promise<{ submissions: number; drafts: number }> {
  const holds = (data: SQL) =>
    sql`exists (select 1 from json_each(${data}) where key = ${field} and ${jsonEachMatch(value)})`;
  const matching = sql`s.project_id = ${projectId} and ${holds(sql`s.data`)}`;
  // C46: and the drafts of its hosted page that hold it, in the first chunk's batch: the erasure
  // costs no round trip more for them.
  const [first, drafted] = await storage(() =>
    db.batch([
      chunkDelete(db, matching),
      db
        .delete(drafts)
        .where(sql`${drafts.projectId} = ${projectId} and ${holds(sql`${drafts.data}`)}`)
        .returning({ id: drafts.id }),
    ]),
  );
  const more = first.length < DELETE_CHUNK ? 0 : await deleteInChunks(db, matching);
  return { submissions: first.length + more, drafts: drafted.length };
}

/**
 * C25: deletes the project's submissions received before `before`, at most `maxChunks` chunks in
 * one call, so that no run holds D1 for long (the next run goes on). Returns how many it deleted.
 */
export function deleteReceivedBefore(
  db: Db,
  projectId: string,
  before: string,
  maxChunks: number,
): Promise<number> {
  return deleteInChunks(db, sql`s.project_id = ${projectId} and s.received_at < ${before}`, maxChunks);
}
