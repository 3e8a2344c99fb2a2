// The submissions table: the hot path's insert, Idempotency-Keys (C20), and paged reads.
import type { D1PreparedStatement } from '@cloudflare/workers-types';
import { and, eq, gt, gte, isNotNull, lt, sql } from 'drizzle-orm';
import { submissions } from '../../schema/tables.ts';
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
};

// D1 binds at most 100 parameters per statement: 14 rows of 7 columns.
const ROWS_PER_INSERT = 14;

type Column = keyof Required<NewSubmission>;
type Encoder = { mapToDriverValue(value: unknown): unknown; default?: unknown };
type InsertParam = { row: number; column: Column; encoder: Encoder };
type InsertSql = { sql: string; params: InsertParam[] };
const insertSqls = new Map<number, InsertSql>();

/**
 * The insert of `n` rows, as SQL with its parameters in order, built by Drizzle from the table once
 * per row count and kept (building it on every batch was a tenth of the accepted path: bench/RESULTS.md).
 * Rows with Idempotency-Keys may conflict (C20): their insert skips those and returns the ids it
 * stored. Rows without cannot, so theirs is a plain insert, and returns nothing.
 */
function insertSql(db: Db, n: number, keyed: boolean): InsertSql {
  const cacheKey = keyed ? -n : n;
  let built = insertSqls.get(cacheKey);
  if (built === undefined) {
    const columns: Column[] = ['id', 'projectId', 'data', 'receivedAt', 'spam'];
    if (keyed) columns.push('idempotencyKey', 'bodyHash');
    const rows = Array.from({ length: n }, (_, i) =>
      Object.fromEntries(columns.map((column) => [column, sql.placeholder(`${i} ${column}`)])),
    ) as unknown as (typeof submissions.$inferInsert)[];
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
  let keyed = false;
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT);
    const chunkKeyed = chunk.some((r) => r.idempotencyKey != null);
    keyed ||= chunkKeyed;
    const { sql: text, params } = insertSql(db, chunk.length, chunkKeyed);
    statements.push(d1.prepare(text).bind(...params.map((param) => driverValue(chunk, param))));
  }
  const [first, ...rest] = statements;
  if (first === undefined) return [];
  const results = await storage(async () => {
    if (rest.length > 0) return d1.batch<{ id: string }>(statements);
    return [keyed ? await first.all<{ id: string }>() : await first.run()];
  });
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
): Promise<{ bodyHash: string | null } | undefined> {
  const [row] = await storage(() =>
    db
      .select({ bodyHash: submissions.bodyHash })
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

/**
 * Submissions oldest first, one page at a time (keyset pagination on the time-ordered id), so an
 * export of any size holds one page in memory.
 */
export async function* submissionPages(
  db: Db,
  projectId: string,
  options: { since?: string; pageSize?: number; includeSpam?: boolean } = {},
) {
  const pageSize = options.pageSize ?? 1000;
  let after = '';
  for (;;) {
    const page = await storage(() =>
      db
        .select({
          id: submissions.id,
          receivedAt: submissions.receivedAt,
          data: submissions.data,
          spam: submissions.spam,
        })
        .from(submissions)
        .where(
          and(
            eq(submissions.projectId, projectId),
            gt(submissions.id, after),
            options.since === undefined ? undefined : gte(submissions.receivedAt, options.since),
            // C22: spam stays out unless asked for.
            options.includeSpam ? undefined : eq(submissions.spam, false),
          ),
        )
        .orderBy(submissions.id)
        .limit(pageSize),
    );
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page.at(-1)?.id ?? after;
  }
}
