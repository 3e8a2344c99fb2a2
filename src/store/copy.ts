// C41: a project's rows, table by table, as a move copies them from one place's database to
// another's, counts them and hashes their content on both sides, and at last deletes them where
// they were. Plain SQL over every column: a row arrives exactly as it was (ids, times, states).
import type { D1Database } from '@cloudflare/workers-types';
import { sha256Text } from '../lib/hex.ts';
import { storage } from './d1.ts';

const OWN = '"project_id" = ?1';
const own = (...tables: string[]) => tables.map((table) => ({ table, where: OWN }));

/**
 * Each table of a project's, parents before children (foreign keys), with the rows that are the
 * project's; `shown`, the name a move's reply counts its rows by, when that is not the table's: the
 * targets are counted as `webhooks`, their table's name before 0019, so that a reply read by a
 * script stays what it was.
 */
export const PROJECT_TABLES: readonly { table: string; where: string; shown?: string }[] = [
  { table: 'projects', where: '"id" = ?1' },
  ...own('fields', 'allowed_origins', 'api_keys'),
  { table: 'targets', where: OWN, shown: 'webhooks' },
  ...own('submissions', 'deliveries'),
  {
    table: 'delivery_attempts',
    where: '"delivery_id" in (select "id" from "deliveries" where "project_id" = ?1)',
  },
  // C46: after the submissions, whose insert deletes the draft each was sent from.
  ...own('drafts', 'spam_tokens', 'search_terms', 'audit_log'),
  // The project's id exactly (never a pattern: `_` would match any character): `<kind>:<id>` or `<kind>:<id>:…`.
  {
    table: 'mail_counts',
    where: `(substr("scope", -length(?1) - 1) = ':' || ?1 or instr("scope", ':' || ?1 || ':') > 0)`,
  },
  ...own('analytics_visitors', 'analytics_days', 'analytics_drop_off'),
  // C30: the uploads not yet cleaned up, and the files of deleted submissions not yet deleted.
  { table: 'file_deletions', where: `substr("prefix", 1, length(?1) + 1) = ?1 || '/'` },
];

/** Rows read (and written) at a time: well inside D1's 2 MB for the JSON of one statement's rows. */
const PAGE = 200;

type Row = Record<string, unknown>;

/** The project's rows of a table, a page at a time, in the table's own (rowid) order. */
async function* rowsOf(d1: D1Database, t: (typeof PROJECT_TABLES)[number], projectId: string) {
  for (let offset = 0; ; offset += PAGE) {
    const { results } = await storage(() =>
      d1
        .prepare(`select * from "${t.table}" where ${t.where} order by rowid limit ${PAGE} offset ${offset}`)
        .bind(projectId)
        .all<Row>(),
    );
    if (results.length > 0) yield results;
    if (results.length < PAGE) return;
  }
}

/** What a row is, for a comparison: a move's own mark on the project (`moving_since`) aside. */
const content = (table: string, row: Row) =>
  JSON.stringify(table === 'projects' ? { ...row, moving_since: null } : row);

/** Copies the project's rows of every table from one database to the other; the rows copied, by table. */
export async function copyProject(from: D1Database, to: D1Database, projectId: string) {
  const copied: Record<string, number> = {};
  for (const t of PROJECT_TABLES) {
    const shown = t.shown ?? t.table;
    copied[shown] = 0;
    for await (const page of rowsOf(from, t, projectId)) {
      const columns = Object.keys(page[0] ?? {});
      const rows = page.map((row) => (t.table === 'projects' ? { ...row, moving_since: null } : row));
      const values = columns.map((c) => `json_extract(value, '$."${c}"')`).join(', ');
      await storage(() =>
        to
          .prepare(
            `insert into "${t.table}" (${columns.map((c) => `"${c}"`).join(', ')}) select ${values} from json_each(?1)`,
          )
          .bind(JSON.stringify(rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c]])))))
          .run(),
      );
      copied[shown] = (copied[shown] ?? 0) + page.length;
    }
  }
  return copied;
}

/** Each table's count of the project's rows and the SHA-256 of their content, for a comparison. */
export async function fingerprint(d1: D1Database, projectId: string) {
  const tables: Record<string, { rows: number; sha256: string }> = {};
  for (const t of PROJECT_TABLES) {
    const lines: string[] = [];
    for await (const page of rowsOf(d1, t, projectId))
      lines.push(...page.map((row) => content(t.table, row)));
    lines.sort();
    tables[t.table] = { rows: lines.length, sha256: await sha256Text(lines.join('\n')) };
  }
  return tables;
}

/**
 * Deletes the project's rows of every table, children first. The submissions' deletion leaves
 * their files' prefixes in `file_deletions` (a trigger): the place's sweep deletes them from its
 * bucket. Those rows are this place's own work, so they stay.
 */
export async function deleteProjectRows(d1: D1Database, projectId: string): Promise<void> {
  const statements = [...PROJECT_TABLES]
    .reverse()
    .filter((t) => t.table !== 'file_deletions')
    .map((t) => d1.prepare(`delete from "${t.table}" where ${t.where}`).bind(projectId));
  await storage(() => d1.batch(statements));
}

/** Whether this database holds the project marked as moving: the source copy of a move. */
export async function isMovingCopy(d1: D1Database, projectId: string): Promise<boolean> {
  const row = await storage(() =>
    d1
      .prepare('select "moving_since" as "since" from "projects" where "id" = ?')
      .bind(projectId)
      .first<{ since: string | null }>(),
  );
  return row !== null && row.since !== null;
}
