// The submissions table: the hot path's insert, Idempotency-Keys (C20), and paged reads.
import type { D1PreparedStatement } from '@cloudflare/workers-types';
import { and, eq, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import { submissions } from '../../schema/tables.ts';
import { Lru } from '../lib/lru.ts';
import { type Db, storage } from './db.ts';

/**
 * Why D1 refused a write (C18, C31). `undefined`: an outage, D1 unreachable or failing for its own
 * reasons (retrying later may succeed; the whole batch fails). Otherwise the refusal may be owed to
 * what a row holds, so a batch is split until the row at fault is alone: `project-gone` (its
 * project was deleted since its key was cached: the foreign key), `too-large` (over D1's row or
 * string size), or `refused` (any other statement error).
 */
export type RowFault = 'project-gone' | 'too-large' | 'refused';

// The messages of D1's transient failures, as Cloudflare's D1 documentation lists them.
const OUTAGE =
  /network connection lost|connection (?:was )?(?:lost|reset|refused)|object to be reset|was reset|overloaded|transient|internal error|timed? ?out|unavailable|exceeded its (?:memory|cpu)|fetch failed/i;

export function rowFault(error: unknown): RowFault | undefined {
  let inner = error;
  while (inner instanceof Error && inner.cause !== undefined) inner = inner.cause;
  const message = inner instanceof Error ? inner.message : String(inner);
  if (OUTAGE.test(message)) return undefined;
  if (/FOREIGN KEY constraint/i.test(message)) return 'project-gone';
  if (/TOOBIG|too big|too large/i.test(message)) return 'too-large';
  return 'refused';
}

/** D1's largest string or row is 2,000,000 bytes: a submission's JSON stays below it, with room for the other columns. */
export const MAX_STORED_BYTES = 1_900_000;

export type NewSubmission = {
  id: string;
  projectId: string;
  data: string;
  receivedAt: string;
  spam?: boolean;
  idempotencyKey?: string | null;
  bodyHash?: string | null;
  /**
   * C26: 1 when the submission has deliveries to make (its project has targets, and it is not
   * spam): the outbox marker, stored in the row itself. Absent or null: none.
   */
  outbox?: 1 | null;
  /** C30: the names of its file fields, as a JSON array; their files are in R2 already. */
  files?: string | null;
  /** C35: the challenge it passed in its own request ('turnstile'), or none. */
  challenge?: string | null;
  /** C32: the hash of the key it came with (not a column): its last use is recorded. */
  keyHash?: string;
};

// C32: the keys whose use this isolate has recorded within the last minute: their next use is not
// written again until then, so a busy key costs the accepted path nothing more most of the time.
const recordedUse = new Lru<string, true>(10_000, 60_000);
const KEY_HASH = /^[0-9a-f]{64}$/;

/** The keys of these rows whose use is due to be recorded. */
function keysDue(rows: readonly NewSubmission[]): string[] {
  const due = new Set<string>();
  for (const { keyHash } of rows) {
    if (keyHash !== undefined && KEY_HASH.test(keyHash) && recordedUse.get(keyHash) === undefined)
      due.add(keyHash);
  }
  return [...due];
}

// D1 binds at most 100 parameters per statement: a statement holds as many rows as fit.
const MAX_PARAMS = 100;

type Column = Exclude<keyof Required<NewSubmission>, 'keyHash'>;
type Encoder = { mapToDriverValue(value: unknown): unknown; default?: unknown };
type InsertParam = { row: number; column: Column; encoder: Encoder };
type InsertSql = { sql: string; params: InsertParam[] };
const insertSqls = new Map<number, InsertSql>();

/** The optional columns a statement's rows need, as bits (the cache's key) and as columns. */
type Shape = { flags: number; keyed: boolean; columns: Column[] };

function shapeOf(rows: readonly NewSubmission[]): Shape {
  const keyed = rows.some((r) => r.idempotencyKey != null);
  const withFiles = rows.some((r) => r.files != null);
  // C26: the outbox marker is a column of the row, in the same statement: no submission without
  // its deliveries, and no extra round trip, nor extra row.
  const withOutbox = rows.some((r) => r.outbox === 1);
  const withChallenge = rows.some((r) => r.challenge != null);
  const columns: Column[] = ['id', 'projectId', 'data', 'receivedAt', 'spam'];
  if (keyed) columns.push('idempotencyKey', 'bodyHash');
  if (withFiles) columns.push('files');
  if (withOutbox) columns.push('outbox');
  if (withChallenge) columns.push('challenge');
  const flags = (keyed ? 8 : 0) + (withFiles ? 4 : 0) + (withOutbox ? 2 : 0) + (withChallenge ? 1 : 0);
  return { flags, keyed, columns };
}

/**
 * The insert of `n` rows, as SQL with its parameters in order, built by Drizzle from the table once
 * per row count and kept (building it on every batch was a tenth of the accepted path: bench/RESULTS.md).
 * Rows with Idempotency-Keys may conflict (C20): their insert skips those and returns the ids it
 * stored. Rows without cannot, so theirs is a plain insert, and returns nothing.
 */
function insertSql(db: Db, n: number, shape: Shape): InsertSql {
  // A number, not text: this runs for every batch.
  const cacheKey = n * 16 + shape.flags;
  let built = insertSqls.get(cacheKey);
  if (built === undefined) {
    const { columns, keyed } = shape;
    // C34: a new row is unread, not starred, and waiting to be indexed: constants in the SQL, no
    // parameters (D1 allows 100 a statement).
    const rows = Array.from({ length: n }, (_, i) => ({
      ...Object.fromEntries(columns.map((column) => [column, sql.placeholder(`${i} ${column}`)])),
      starred: sql`0`,
      searchPending: sql`1`,
    })) as unknown as (typeof submissions.$inferInsert)[];
    const insert = db.insert(submissions).values(rows);
    const query = keyed
      ? insert
          .onConflictDoNothing({ target: [submissions.projectId, submissions.idempotencyKey] })
          .returning({ id: submissions.id })
          .toSQL()
      : insert.toSQL();
    built = {
      sql: query.sql,
      // Each parameter is a Param: the placeholder, and the column that encodes its value.
      params: query.params.map((p) => {
        const param = p as { value: { name: string }; encoder: Encoder };
        const [row, column] = param.value.name.split(' ');
        return { row: Number(row), column: column as Column, encoder: param.encoder };
      }),
    };
    insertSqls.set(cacheKey, built);
  }
  return built;
}

/**
 * The value D1 stores for a column, by the column's own mapping (booleans as 0/1); absent is the
 * column's default, or NULL.
 */
function driverValue(rows: readonly NewSubmission[], { row, column, encoder }: InsertParam): unknown {
  const value = rows[row]?.[column] ?? encoder.default;
  return value === undefined || value === null ? null : encoder.mapToDriverValue(value);
}

/**
 * Stores the rows all or none: one statement, or one D1 batch (a transaction) of several. A row
 * whose Idempotency-Key the project has already used is skipped, not an error (C20): the result
 * says, row by row, whether it was stored.
 */
export async function insertSubmissions(db: Db, rows: readonly NewSubmission[]): Promise<boolean[]> {
  const d1 = db.$client;
  const statements: D1PreparedStatement[] = [];
  const shape = shapeOf(rows);
  const keyed = shape.keyed;
  const perInsert = Math.floor(MAX_PARAMS / shape.columns.length);
  for (let i = 0; i < rows.length; i += perInsert) {
    const chunk = rows.slice(i, i + perInsert);
    const { sql: text, params } = insertSql(db, chunk.length, shape);
    statements.push(d1.prepare(text).bind(...params.map((param) => driverValue(chunk, param))));
  }
  // C32: the keys' last use, in the same write, at most once a minute each.
  const due = keysDue(rows);
  if (due.length > 0) {
    statements.push(
      d1
        .prepare('update api_keys set last_used_at = ? where key_hash in (select value from json_each(?))')
        .bind(rows[0]?.receivedAt ?? new Date().toISOString(), JSON.stringify(due)),
    );
  }
  const [first, ...rest] = statements;
  if (first === undefined) return [];
  const results = await storage(async () => {
    if (rest.length > 0) return d1.batch<{ id: string }>(statements);
    return [keyed ? await first.all<{ id: string }>() : await first.run()];
  });
  for (const keyHash of due) recordedUse.set(keyHash, true);
  // All or none: a row without a key is stored; one with a key, if its id came back.
  const stored = new Set(keyed ? results.flatMap((r) => r.results.map((row) => row.id)) : []);
  return rows.map((r) => r.idempotencyKey == null || stored.has(r.id));
}

export async function insertSubmission(db: Db, submission: NewSubmission): Promise<boolean> {
  const [stored] = await insertSubmissions(db, [submission]);
  return stored === true;
}

/** C20: the body hash stored with a project's Idempotency-Key, if that key has been used. */
export async function findIdempotencyKey(
  db: Db,
  projectId: string,
  idempotencyKey: string,
): Promise<{ id: string; bodyHash: string | null } | undefined> {
  const [row] = await storage(() =>
    db
      .select({ id: submissions.id, bodyHash: submissions.bodyHash })
      .from(submissions)
      .where(and(eq(submissions.projectId, projectId), eq(submissions.idempotencyKey, idempotencyKey))),
  );
  return row;
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

// ---- Deleting and erasing (C24, C25) ----

/** Deletes one submission of the project; whether there was one. */
export async function deleteSubmission(db: Db, projectId: string, id: string): Promise<boolean> {
  const deleted = await storage(() =>
    db
      .delete(submissions)
      .where(and(eq(submissions.projectId, projectId), eq(submissions.id, id)))
      .returning({ id: submissions.id }),
  );
  return deleted.length > 0;
}

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

/**
 * Deletes the submissions `matching` (a condition on `s`, the submissions table) in chunks of
 * DELETE_CHUNK, at most `maxChunks` of them. Returns how many were deleted.
 */
async function deleteInChunks(db: Db, matching: SQL, maxChunks = Number.POSITIVE_INFINITY): Promise<number> {
  let deleted = 0;
  for (let chunk = 0; chunk < maxChunks; chunk++) {
    // Counted by the rows returned: D1's `changes` would count the rows their deletion cascades to.
    const rows = await storage(() =>
      db.all<{ id: string }>(sql`
        delete from ${submissions} where ${submissions.id} in (
          select s.id from ${submissions} as s where ${matching} limit ${DELETE_CHUNK})
        returning ${submissions.id}`),
    );
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
export function eraseSubmissions(
  db: Db,
  projectId: string,
  field: string,
  value: FieldValue,
): Promise<number> {
  return deleteInChunks(
    db,
    sql`s.project_id = ${projectId}
      and exists (select 1 from json_each(s.data) where key = ${field} and ${jsonEachMatch(value)})`,
  );
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
