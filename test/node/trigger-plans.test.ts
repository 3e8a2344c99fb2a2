// C45: what the insert's triggers read stays bounded as a project grows, planned by SQLite over the
// tree's migrations. A form's limit (and its hosted page, asking the same count) reads a project's
// accepted submissions from one partial index (`submissions_accepted`, 0030_accepted_index.sql)
// and nothing else, so no more entries than the form has places, whatever spam it holds. A unique
// field's check looks each value sent up by its whole key (0031_unique_check_plan.sql), never
// reading the values the project has claimed before.
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
    .map((row) => String(row.detail));

const triggerText = (name: string) =>
  String(db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?").get(name)?.sql);

describe('C45: the insert’s triggers read no more than they must', () => {
  it('the limit trigger’s count', () => {
    const trigger = triggerText('submissions_form_full');
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

  it('the unique check: each value sent looked up by project, field and value', () => {
    const trigger = triggerText('submissions_unique_check');
    const check = /RAISE\(ABORT, 'unique value taken'\)\s*WHERE (EXISTS[\s\S]*);\s*END/.exec(trigger)?.[1];
    expect(check).toBeDefined();
    const query = `SELECT ${check ?? ''}`
      .replaceAll('new.`unique_keys`', '?1')
      .replaceAll('new.`project_id`', '?2')
      .replaceAll('new.`idempotency_key`', '?3');
    const steps = plan(query, '[["email","ada@example.com"]]', 'p_1', 'k');
    expect(steps).toContain(
      'SEARCH u EXISTS USING INDEX sqlite_autoindex_unique_values_1 (project_id=? AND field=? AND value=?)',
    );
    // Never the project's values read in turn: no search of them by the project alone.
    expect(steps.filter((s) => / u /.test(s) && !/value=\?/.test(s))).toEqual([]);
  });
});
