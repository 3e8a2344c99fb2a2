// C34: full-text search over a submission's values, as an index of ordinary tables in the same
// database (search_terms): kept in step with deletion, erasure and retention by a foreign key (a
// submission's terms go in the same write that deletes it), exportable with the rest.
import type { D1PreparedStatement } from '@cloudflare/workers-types';
import { and, asc, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import { searchTerms, submissions } from '../../schema/tables.ts';
import { wordsOf } from '../lib/words.ts';
import { type Db, storage } from './db.ts';
import { waitingBefore } from './submissions.ts';

/** The most distinct words of one submission that are indexed. */
export const MAX_TERMS = 1000;
/** Terms written per statement, as one JSON parameter: well within D1's size of a bound value. */
const TERMS_PER_STATEMENT = 5000;

/** The words of a submission's values: its texts, its numbers, its files' names. */
export function termsOf(data: string): string[] {
  const parts: string[] = [];
  for (const value of Object.values(JSON.parse(data) as Record<string, unknown>)) {
    if (typeof value === 'string') parts.push(value);
    else if (typeof value === 'number') parts.push(String(value));
    else if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { name?: unknown }).name === 'string'
    ) {
      parts.push((value as { name: string }).name);
    }
  }
  return wordsOf(parts.join('\n'), MAX_TERMS);
}

/**
 * Indexes the submissions among `ids` that the index lacks (those marked `search_pending`), and
 * clears their marks, in one D1 transaction. Writing them twice writes nothing new. Returns how
 * many were indexed.
 */
export async function indexSubmissions(db: Db, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await storage(() =>
    db
      .select({ id: submissions.id, projectId: submissions.projectId, data: submissions.data })
      .from(submissions)
      // One parameter for any number of ids: D1 binds at most 100 a statement.
      .where(
        and(
          sql`${submissions.id} in (select value from json_each(${JSON.stringify(ids)}))`,
          isNotNull(submissions.searchPending),
        ),
      ),
  );
  if (rows.length === 0) return 0;
  const triples = rows.flatMap((r) => termsOf(r.data).map((term) => [r.projectId, term, r.id]));
  const d1 = db.$client;
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < triples.length; i += TERMS_PER_STATEMENT) {
    statements.push(
      d1
        .prepare(
          `insert or ignore into search_terms (project_id, term, submission_id)
           select value ->> 0, value ->> 1, value ->> 2 from json_each(?)
           where exists (select 1 from submissions where id = value ->> 2)`,
        )
        .bind(JSON.stringify(triples.slice(i, i + TERMS_PER_STATEMENT))),
    );
  }
  statements.push(
    d1
      .prepare('update submissions set search_pending = null where id in (select value from json_each(?))')
      .bind(JSON.stringify(rows.map((r) => r.id))),
  );
  await storage(() => d1.batch(statements));
  return rows.length;
}

/** The sweep's share: submissions still to be indexed, received before `before`, oldest first. */
export function pendingSearch(db: Db, before: string, limit: number): Promise<string[]> {
  return waitingBefore(db, isNotNull(submissions.searchPending), before, limit);
}

/**
 * Forgets the project's terms and marks each of its submissions to be indexed again, in one D1
 * transaction: search finds them again as they are indexed. Returns how many were marked.
 */
export async function markForIndexing(db: Db, projectId: string): Promise<number> {
  const [, marked] = await storage(() =>
    db.batch([
      db.delete(searchTerms).where(eq(searchTerms.projectId, projectId)),
      db.update(submissions).set({ searchPending: 1 }).where(eq(submissions.projectId, projectId)),
    ]),
  );
  return marked.meta.changes;
}

/** The project's submissions still to be indexed, oldest first. */
export async function pendingOf(db: Db, projectId: string, limit: number): Promise<string[]> {
  const rows = await storage(() =>
    db
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(eq(submissions.projectId, projectId), isNotNull(submissions.searchPending)))
      .orderBy(asc(submissions.id))
      .limit(limit),
  );
  return rows.map((r) => r.id);
}

/**
 * The condition that a submission (`s`) holds every word of the query, each as a prefix of one of
 * its words (a search box finds as one types); undefined when the query has no words.
 */
export function matchesQuery(projectId: string, query: string): SQL | undefined {
  const words = wordsOf(query, 8);
  if (words.length === 0) return undefined;
  return and(
    ...words.map(
      (word) =>
        sql`${submissions.id} in (select ${searchTerms.submissionId} from ${searchTerms} where ${searchTerms.projectId} = ${projectId} and ${searchTerms.term} >= ${word} and ${searchTerms.term} < ${`${word}\u{10FFFF}`})`,
    ),
  );
}
