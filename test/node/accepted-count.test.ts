// C45: a form's limit is judged in its insert's trigger, and its hosted page asks the same count:
// both read a project's accepted submissions from one partial index (`submissions_accepted`,
// 0030_accepted_index.sql) and nothing else, so a count reads no more entries than the form has
// places, whatever spam or other projects hold. Planned by SQLite over the tree's migrations.
import { DatabaseSync } from 'node:sqlite';
import { drizzle } from 'drizzle-orm/sqlite-proxy';
import { describe, expect, it } from 'vitest';
import { migrationFiles } from '../../scripts/migration-rule.ts';
import type { Db } from '../../src/store/db.ts';
import { acceptedCount } from '../../src/store/hosted-pages.ts';

const db = new DatabaseSync(':memory:');
for (const { sql } of migrationFiles()) {
  for (const statement of sql.split('--> statement-breakpoint')) if (statement.trim()) db.exec(statement);
}
const plan = (query: string, ...params: (string | number)[]) =>
  db
    .prepare(`EXPLAIN QUERY PLAN ${query}`)
    .all(...params)
    .map((row) => row.detail);

describe('C45: a project’s accepted submissions are counted from the index alone', () => {
  it('the limit trigger’s count', () => {
    const trigger = db
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'submissions_form_full'")
      .get()?.sql as string;
    const counted = /\(SELECT count\(\*\) FROM `submissions` WHERE [^)]*\)/.exec(trigger)?.[0];
    expect(counted).toBeDefined();
    const query = (counted ?? '').slice(1, -1).replaceAll('new.`project_id`', '?');
    expect(plan(query, 'p_1')).toEqual([
      'SEARCH submissions USING COVERING INDEX submissions_accepted (project_id=?)',
    ]);
  });

  it('the hosted page’s count (src/store/hosted-pages.ts), as the ORM writes it', async () => {
    const asked: { sql: string; params: unknown[] }[] = [];
    const orm = drizzle(async (sql, params) => {
      asked.push({ sql, params });
      return { rows: [[3]] };
    });
    expect(await acceptedCount(orm as unknown as Db, 'p_1')).toBe(3);
    expect(asked).toHaveLength(1);
    const [{ sql, params } = { sql: '', params: [] }] = asked;
    expect(plan(sql, ...(params as (string | number)[]))).toEqual([
      'SEARCH submissions USING COVERING INDEX submissions_accepted (project_id=?)',
    ]);
  });
});
