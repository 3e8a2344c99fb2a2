// The D1 database of the command-line tools, through Wrangler's platform proxy: the local one that
// `npm run dev` uses (migrated on demand), or the deployed one of wrangler.toml with `--remote`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPlatformProxy, unstable_readConfig } from 'wrangler';
import { type Db, database } from '../src/store/db.ts';

type D1 = Parameters<typeof database>[0];
export type Target = { remote: boolean; persistTo?: string | undefined };
export type Database = { db: Db; close(): Promise<void> };

const CONFIG = 'wrangler.toml';
const MIGRATIONS_DIR = 'schema/migrations';

const wranglerEnv = { ...process.env, WRANGLER_SEND_METRICS: 'false' };

/**
 * Runs wrangler to its end. Its chatter (a migration's table is drawn again at every step) is kept
 * and shown only if it fails, on stderr, so that stdout stays ours (`--json`).
 */
export function wrangler(args: string[]): void {
  const result = spawnSync('wrangler', args, { stdio: ['ignore', 'pipe', 'pipe'], env: wranglerEnv });
  if (result.status !== 0) {
    process.stderr.write(result.stdout);
    process.stderr.write(result.stderr);
    throw new Error(`wrangler ${args.join(' ')} failed`);
  }
}

export function persistArgs(persistTo: string | undefined): string[] {
  return persistTo ? ['--persist-to', persistTo] : [];
}

async function open(configPath: string, target: Target) {
  return getPlatformProxy<{ DB: D1 }>({
    configPath,
    // Wrangler keeps local state in `<persist-to>/v3`.
    persist: target.persistTo ? { path: join(target.persistTo, 'v3') } : true,
    remoteBindings: target.remote,
    // The tool needs the database, never the worker's secrets: naming an env file that does not
    // exist keeps wrangler from reading .dev.vars, and from saying so on our standard output.
    envFiles: ['.forms-tool-reads-no-secrets'],
  });
}

async function pendingMigrations(d1: D1): Promise<boolean> {
  const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'));
  try {
    const { results } = await d1.prepare('select name from d1_migrations').all<{ name: string }>();
    const applied = new Set(results.map((r) => r.name));
    return files.some((f) => !applied.has(f));
  } catch {
    return true; // no migrations table yet
  }
}

/** A wrangler config that marks the D1 binding remote, for `--remote`. */
function remoteConfig(): { path: string; cleanup(): void } {
  const config = unstable_readConfig({ config: CONFIG });
  const dir = mkdtempSync(join(tmpdir(), 'forms-remote-'));
  const path = join(dir, 'wrangler.json');
  writeFileSync(
    path,
    JSON.stringify({
      name: config.name,
      compatibility_date: config.compatibility_date,
      d1_databases: config.d1_databases.map((d: object) => ({ ...d, remote: true })),
    }),
  );
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function openDatabase(target: Target): Promise<Database> {
  if (target.remote) {
    const config = remoteConfig();
    const proxy = await open(config.path, target).finally(config.cleanup);
    return { db: database(proxy.env.DB), close: () => proxy.dispose() };
  }
  let proxy = await open(CONFIG, target);
  if (await pendingMigrations(proxy.env.DB)) {
    await proxy.dispose();
    wrangler(['d1', 'migrations', 'apply', 'DB', '--local', ...persistArgs(target.persistTo)]);
    proxy = await open(CONFIG, target);
  }
  const opened = proxy;
  return { db: database(opened.env.DB), close: () => opened.dispose() };
}
