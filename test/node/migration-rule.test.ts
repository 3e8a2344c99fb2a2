// C42: the two-release rule. Every migration of the tree keeps what the release before it reads,
// or says it is a contract step after a release; a bare rename or drop, however written, is
// refused, and a contract step must name a release that does not already contain it.
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { afterEach, describe, expect, it } from 'vitest';
import {
  migrationFiles,
  newer,
  type Release,
  releases,
  ruleProblems,
  stepOf,
} from '../../scripts/migration-rule.ts';

const open: Miniflare[] = [];
afterEach(async () => {
  for (const mf of open.splice(0)) await mf.dispose();
});

async function emptyDatabase() {
  const mf = new Miniflare(
    convertV4MiniflareOptions({ modules: true, script: 'export default {}', d1Databases: ['DB'] }),
  );
  open.push(mf);
  return mf.getD1Database('DB');
}

const tree = migrationFiles();
const RELEASED: Release[] = [{ version: 'v0.1.0', commit: 'abcdef0', migrations: tree.map((m) => m.name) }];
const next = (name: string, sql: string) => [...tree, { name, sql }];

describe('the two-release rule (C42)', () => {
  it('every migration of the tree keeps what the release before it reads, or says when it may not', async () => {
    expect(await ruleProblems(await emptyDatabase(), tree)).toEqual([]);
  });

  it('every migration says what it is on its first line', () => {
    for (const m of tree) expect(stepOf(m.sql), m.name).toBeDefined();
  });

  it('refuses a bare rename of a table', async () => {
    const problems = await ruleProblems(
      await emptyDatabase(),
      next('0099_x.sql', '-- expand\nALTER TABLE `targets` RENAME TO `destinations`;'),
      RELEASED,
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('0099_x.sql: removes or renames targets');
  });

  it('refuses a rename or a drop of a column, and a drop of a view', async () => {
    const problems = await ruleProblems(
      await emptyDatabase(),
      next(
        '0099_x.sql',
        '-- expand\nALTER TABLE `projects` RENAME COLUMN `name` TO `title`;--> statement-breakpoint\nALTER TABLE `projects` DROP COLUMN `honeypot`;--> statement-breakpoint\nDROP VIEW `webhooks`;',
      ),
      RELEASED,
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/projects\.name/);
    expect(problems[0]).toMatch(/projects\.honeypot/);
    expect(problems[0]).toMatch(/removes or renames webhooks\b|, webhooks\b/);
  });

  it('refuses a rebuild that leaves a column out, and takes one that keeps them all', async () => {
    const rebuild = (columns: string) =>
      `-- expand\nCREATE TABLE \`__new_origins\` (${columns});--> statement-breakpoint\nINSERT INTO \`__new_origins\` SELECT project_id, origin FROM allowed_origins;--> statement-breakpoint\nDROP TABLE \`allowed_origins\`;--> statement-breakpoint\nALTER TABLE \`__new_origins\` RENAME TO \`allowed_origins\`;`;
    const db = await emptyDatabase();
    const columns = await (async () => {
      await ruleProblems(db, tree, RELEASED);
      const { results } = await db
        .prepare("select name from pragma_table_info('allowed_origins')")
        .all<{ name: string }>();
      return results.map((r) => r.name);
    })();
    expect(columns).toEqual(['project_id', 'origin']);
    expect(
      await ruleProblems(
        await emptyDatabase(),
        next('0099_x.sql', rebuild('project_id text, origin text')),
        RELEASED,
      ),
    ).toEqual([]);
    const dropped = await ruleProblems(
      await emptyDatabase(),
      next('0099_x.sql', rebuild('project_id text, place text')),
      RELEASED,
    );
    expect(dropped).toEqual([expect.stringContaining('allowed_origins.origin')]);
  });

  it('takes a drop in a contract step after a release that does not contain it', async () => {
    const sql = '-- contract: after v0.1.0\nDROP VIEW `webhooks`;';
    expect(await ruleProblems(await emptyDatabase(), next('0099_x.sql', sql), RELEASED)).toEqual([]);
  });

  it('refuses a contract step after no release, or after the release that contains it', async () => {
    const unreleased = await ruleProblems(
      await emptyDatabase(),
      next('0099_x.sql', '-- contract: after v9.9.9\nDROP VIEW `webhooks`;'),
      RELEASED,
    );
    expect(unreleased).toEqual([expect.stringContaining('v9.9.9, which CHANGELOG.md lists as no release')]);
    const contained = await ruleProblems(
      await emptyDatabase(),
      next('0099_x.sql', '-- contract: after v0.1.0\nDROP VIEW `webhooks`;'),
      [{ ...(RELEASED[0] as Release), migrations: [...tree.map((m) => m.name), '0099_x.sql'] }],
    );
    expect(contained).toEqual([expect.stringContaining('that release already contains it')]);
  });

  it('refuses a migration without its first line, and "history" after the first release', async () => {
    const problems = await ruleProblems(
      await emptyDatabase(),
      [
        ...tree,
        { name: '0098_a.sql', sql: 'CREATE TABLE a (x text);' },
        { name: '0099_b.sql', sql: '-- contract: history\nDROP TABLE a;' },
      ],
      RELEASED,
    );
    expect(problems).toEqual([
      expect.stringContaining('0098_a.sql: its first line says neither'),
      expect.stringContaining('0099_b.sql: only the steps written before the first release'),
    ]);
  });

  it("reads CHANGELOG.md's releases, and compares versions as numbers", () => {
    const listed = releases(
      '# Changes\n\n## Unreleased\n\n- `0026_a.sql`\n\n## v0.10.0 (1234567, 2026-12-01)\n\n- `0025_b.sql`: safe\n\n## v0.9.0 (abcdef0, 2026-11-28)\n\nnone\n',
    );
    expect(listed).toEqual([
      { version: 'v0.10.0', commit: '1234567', migrations: ['0025_b.sql'] },
      { version: 'v0.9.0', commit: 'abcdef0', migrations: [] },
    ]);
    expect(newer('v0.10.0', 'v0.9.0')).toBeGreaterThan(0);
    expect(newer('v0.9.0', 'v0.9.0')).toBe(0);
    expect(newer('v1.0.0', 'v1.0.1')).toBeLessThan(0);
    expect(releases().length).toBeGreaterThan(0);
  });
});
