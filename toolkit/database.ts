// The D1 database of the command-line tools, through Wrangler's platform proxy: the local one that
// `npm run dev` uses (migrated on demand), or the deployed one of wrangler.toml with `--remote`.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { R2Bucket } from '@cloudflare/workers-types';
import { getPlatformProxy, unstable_readConfig, unstable_splitSqlQuery } from 'wrangler';
import { NotFound } from '../src/lib/faults.ts';
import { type Db, database, placeDatabases } from '../src/store/db.ts';
import { placeNamed } from '../src/store/places.ts';

type D1 = Parameters<typeof database>[0];
export type Target = { remote: boolean; persistTo?: string | undefined };
/** `db` is the default place's; `places` every place's database by name (C41), the default's first. */
export type Database = {
  db: Db;
  places: ReadonlyMap<string, Db>;
  /** C41: a place's bucket (local only: `--remote` opens the databases alone). */
  files?: (place: string) => R2Bucket | undefined;
  close(): Promise<void>;
};

const CONFIG = 'wrangler.toml';
const MIGRATIONS_DIR = 'schema/migrations';

/**
 * The environment wrangler runs in: no metrics, and never the operator token (wrangler needs none,
 * and would let an `ADMIN_TOKEN` variable override a secrets file's value of that name, C42).
 */
export function wranglerEnv(): NodeJS.ProcessEnv {
  const { ADMIN_TOKEN: _, ...rest } = process.env;
  return { ...rest, WRANGLER_SEND_METRICS: 'false' };
}

/**
 * Runs wrangler to its end. Its chatter (a migration's table is drawn again at every step) is kept
 * and shown only if it fails, on stderr, so that stdout stays ours (`--json`).
 */
export function wrangler(args: string[]): void {
  const result = spawnSync('wrangler', args, { stdio: ['ignore', 'pipe', 'pipe'], env: wranglerEnv() });
  if (result.status !== 0) {
    process.stderr.write(result.stdout);
    process.stderr.write(result.stderr);
    throw new Error(`wrangler ${args.join(' ')} failed`);
  }
}

async function open(configPath: string, target: Target) {
  return getPlatformProxy<{ DB: D1 } & Record<string, unknown>>({
    configPath,
    // Wrangler keeps local state in `<persist-to>/v3`.
    persist: target.persistTo ? { path: join(target.persistTo, 'v3') } : true,
    remoteBindings: target.remote,
    // The tool needs the database, never the worker's secrets: naming an env file that does not
    // exist keeps wrangler from reading .dev.vars, and from saying so on our standard output.
    envFiles: ['.forms-tool-reads-no-secrets'],
  });
}

/**
 * The migrations a local database lacks, applied through the proxy already open: each file's
 * statements (split as wrangler splits them) and its row in wrangler's own table, in one batch, as
 * `wrangler d1 migrations apply --local` applies them, so that each sees what the other applied.
 * In process, because wrangler's command starts a runtime of its own per database (some 14 s each
 * on two cores), which a first `npm run dev` paid twice.
 */
async function migrateLocal(d1: D1): Promise<void> {
  // Only reads unless something is pending: the tool and the tests open the database `npm run dev`
  // is serving, and a write from a second runtime meets that one's lock.
  const table = await d1
    .prepare("select name from sqlite_master where type = 'table' and name = 'd1_migrations'")
    .first<{ name: string }>();
  const applied = new Set<string>();
  if (table !== null) {
    const { results } = await d1.prepare('select name from d1_migrations').all<{ name: string }>();
    for (const row of results) applied.add(row.name);
  }
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql') && !applied.has(f))
    .sort();
  if (files.length === 0) return;
  await d1
    .prepare(
      `CREATE TABLE IF NOT EXISTS d1_migrations(
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        name       TEXT UNIQUE,
        applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
      )`,
    )
    .run();
  for (const file of files) {
    const statements = unstable_splitSqlQuery(readFileSync(join(MIGRATIONS_DIR, file), 'utf8'));
    await d1.batch([
      ...statements.map((sql) => d1.prepare(sql)),
      d1.prepare('insert into d1_migrations (name) values (?)').bind(file),
    ]);
  }
}

type D1Config = { binding: string; database_name?: string; database_id?: string };

/**
 * C42: each database of wrangler.toml with its id, looked up by name among the account's
 * (`listed`, as `wrangler d1 list --json` prints them): wrangler.toml names databases, never holds
 * their ids.
 */
export function withDatabaseIds<D extends D1Config>(
  databases: D[],
  listed: { uuid: string; name: string }[],
): (D & { database_id: string })[] {
  return databases.map((d) => {
    if (d.database_id !== undefined && d.database_id !== '') return { ...d, database_id: d.database_id };
    const found = listed.find((row) => row.name === d.database_name);
    if (found === undefined) {
      throw new NotFound(
        `The account has no D1 database named '${d.database_name ?? d.binding}' (binding ${d.binding})`,
        'npm run deploy creates it',
      );
    }
    return { ...d, database_id: found.uuid };
  });
}

/** What wrangler printed as JSON (`--json`, `--format json`), after any banner before it. */
export function wranglerJson<T>(output: string): T {
  return JSON.parse(output.slice(output.indexOf('['))) as T;
}

/** The account's D1 databases, as wrangler lists them; its words on standard error when it cannot. */
export function accountDatabases(): { uuid: string; name: string }[] {
  const result = spawnSync('wrangler', ['d1', 'list', '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: wranglerEnv(),
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout);
    process.stderr.write(result.stderr);
    throw new Error('wrangler d1 list failed: log in with `npx wrangler login`, or set CLOUDFLARE_API_TOKEN');
  }
  try {
    return wranglerJson<{ uuid: string; name: string }[]>(result.stdout);
  } catch {
    process.stderr.write(result.stdout);
    throw new Error('wrangler d1 list printed no list of databases');
  }
}

/** A wrangler config that marks the D1 binding remote, for `--remote`, with its id found by name. */
function remoteConfig(): { path: string; cleanup(): void } {
  const config = unstable_readConfig({ config: CONFIG });
  const databases = config.d1_databases as D1Config[];
  const needsIds = databases.some((d) => d.database_id === undefined || d.database_id === '');
  const resolved = withDatabaseIds(databases, needsIds ? accountDatabases() : []);
  const dir = mkdtempSync(join(tmpdir(), 'forms-remote-'));
  const path = join(dir, 'wrangler.json');
  writeFileSync(
    path,
    JSON.stringify({
      name: config.name,
      compatibility_date: config.compatibility_date,
      d1_databases: resolved.map((d) => ({ ...d, remote: true })),
    }),
  );
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** C41: every place's database of the proxy's bindings, by the place's name. */
function opened(proxy: Awaited<ReturnType<typeof open>>, local: boolean): Database {
  return {
    db: database(proxy.env.DB),
    places: placeDatabases(proxy.env),
    ...(local ? { files: (name: string) => placeNamed(proxy.env, name)?.files } : {}),
    close: () => proxy.dispose(),
  };
}

/** The D1 bindings of wrangler.toml: every place's database (C41). */
export function databaseBindings(configPath = CONFIG): string[] {
  return (unstable_readConfig({ config: configPath }).d1_databases as D1Config[]).map((d) => d.binding);
}

export async function openDatabase(target: Target): Promise<Database> {
  if (target.remote) {
    const config = remoteConfig();
    const proxy = await open(config.path, target).finally(config.cleanup);
    return opened(proxy, false);
  }
  const proxy = await open(CONFIG, target);
  try {
    for (const binding of databaseBindings()) await migrateLocal(proxy.env[binding] as D1);
  } catch (error) {
    await proxy.dispose();
    throw error;
  }
  return opened(proxy, true);
}

/** D1's location hints (`wrangler d1 create --location`): a place named after one is created there. */
const LOCATION_HINTS = new Set(['wnam', 'enam', 'weur', 'eeur', 'apac', 'oc']);

/**
 * C41: how a place's database is created: `DB_EU` in the EU jurisdiction (its data stored and
 * processed in the EU); `DB_WEUR` and the other location hints near there; `DB` and any other
 * name wherever Cloudflare places it.
 */
export function createArgs(d: { binding: string; name: string }): string[] {
  const place = /^DB_([A-Z0-9]+)$/.exec(d.binding)?.[1]?.toLowerCase();
  if (place === 'eu') return ['d1', 'create', d.name, '--jurisdiction', 'eu'];
  if (place !== undefined && LOCATION_HINTS.has(place)) return ['d1', 'create', d.name, '--location', place];
  return ['d1', 'create', d.name];
}
