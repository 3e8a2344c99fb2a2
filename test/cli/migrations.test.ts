// The tool migrates a local database in process (toolkit/database.ts), as wrangler's own command
// would: the same table of applied files, so that each sees what the other applied, and nothing
// written when nothing is pending (the database `npm run dev` is serving is opened beside it).

import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, wranglerEnv } from '../../toolkit/database.ts';
import { tempDir } from './helpers.ts';

const dir = tempDir('migrations');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files = readdirSync('schema/migrations')
  .filter((f) => f.endsWith('.sql'))
  .sort();

type Applied = { id: number; name: string; applied_at: string };

async function appliedRows(): Promise<Record<string, Applied[]>> {
  const { places, close } = await openDatabase({ remote: false, persistTo: dir });
  try {
    const out: Record<string, Applied[]> = {};
    for (const [name, db] of places) {
      out[name] = (
        await db.$client.prepare('select id, name, applied_at from d1_migrations order by id').all<Applied>()
      ).results;
    }
    return out;
  } finally {
    await close();
  }
}

describe('local migrations, applied by the tool', () => {
  it('a fresh database gets every file once, in order, in every place; a second open applies nothing', async () => {
    const first = await appliedRows();
    expect(Object.keys(first).length).toBeGreaterThan(1);
    for (const rows of Object.values(first)) expect(rows.map((r) => r.name)).toEqual(files);
    const second = await appliedRows();
    expect(second).toEqual(first);
  });

  it("wrangler's own command finds nothing left to apply", () => {
    const result = spawnSync(
      'wrangler',
      ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', dir],
      {
        env: wranglerEnv(),
        encoding: 'utf8',
      },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('No migrations to apply');
  }, 60_000);
});
