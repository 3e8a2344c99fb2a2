// C42: the two-release rule, checked. Each migration's first line says what it is: `-- expand`
// (adds: tables, columns with defaults, indexes, views, triggers) or `-- contract: after <version>`
// (removes or renames what the releases since <version> no longer read). The migrations are applied
// in order to an empty database, the schema read after each: an expand step that loses a table, a
// view or a column (a drop, a rename, a rebuild that leaves one out) is refused, whatever SQL did
// it; so is a contract step after a version that was never released (CHANGELOG.md), or one that
// the release it names already contains.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { D1Database } from '@cloudflare/workers-types';
import { unstable_splitSqlQuery } from 'wrangler';

export const MIGRATIONS_DIR = join(import.meta.dirname, '..', 'schema', 'migrations');
const CHANGELOG = join(import.meta.dirname, '..', 'CHANGELOG.md');

export type Migration = { name: string; sql: string };
export type Step = { kind: 'expand' } | { kind: 'contract'; after: string } | { kind: 'history' };
/**
 * A release as CHANGELOG.md lists it: its version, its commit, and the migrations it names. It
 * contains every migration up to the last it names (they apply in order).
 */
export type Release = { version: string; commit: string; migrations: string[] };

/** Whether a release contains a migration: it is at or before the last the release names. */
export const contains = (release: Release, name: string) => release.migrations.some((last) => name <= last);

/**
 * Contract steps written before the rule and before any release: they stay as they were (a
 * database that applied them must keep the same history), marked `-- contract: history`.
 */
export const HISTORY: ReadonlySet<string> = new Set(['0013_outbound_consent.sql', '0019_targets.sql']);

export const migrationFiles = (dir = MIGRATIONS_DIR): Migration[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name), 'utf8') }));

/** What a migration's first line says it is, or undefined when it says neither. */
export function stepOf(sql: string): Step | undefined {
  const first = sql.split('\n', 1)[0]?.trim() ?? '';
  if (/^-- expand\b/.test(first)) return { kind: 'expand' };
  const contract = /^-- contract: (?:after (v\d+\.\d+\.\d+)\b|(history)\b)/.exec(first);
  if (contract?.[1] !== undefined) return { kind: 'contract', after: contract[1] };
  if (contract?.[2] !== undefined) return { kind: 'history' };
  return undefined;
}

/** CHANGELOG.md's releases, newest first: `## v1.2.3 (abc1234, 2026-11-28)` and its `- migration` lines. */
export function releases(text = readFileSync(CHANGELOG, 'utf8')): Release[] {
  const out: Release[] = [];
  for (const section of text.split(/^## /m).slice(1)) {
    const head = /^(v\d+\.\d+\.\d+) \(([0-9a-f]{7,40})\b/.exec(section);
    if (head === null) continue;
    const migrations = [...section.matchAll(/`(\d{4}_[\w-]+\.sql)`/g)].map((m) => m[1] as string);
    out.push({ version: head[1] as string, commit: head[2] as string, migrations });
  }
  return out;
}

/** A migration no release of a list contains, with what its first line says it is. */
export type Unreleased = { name: string; step: Step['kind'] | 'unmarked' };

/** The migrations none of these releases contains (they apply in order), with their steps. */
export function migrationsAfter(
  released: readonly Release[],
  migrations: readonly Migration[],
): Unreleased[] {
  return migrations
    .filter((m) => !released.some((r) => contains(r, m.name)))
    .map((m) => ({ name: m.name, step: stepOf(m.sql)?.kind ?? ('unmarked' as const) }));
}

/**
 * C42: whether a deployment may go back to `to` from this tree's schema: every migration since
 * `to` (those no release up to it contains) must be an expand step, which the older code ignores.
 */
export function goingBack(
  to: Release,
  released: readonly Release[],
  migrations: readonly Migration[],
): { safe: boolean; since: Unreleased[] } {
  const since = migrationsAfter(
    released.filter((r) => newer(r.version, to.version) <= 0),
    migrations,
  );
  return { safe: since.every((m) => m.step === 'expand'), since };
}

/** CHANGELOG.md's "Unreleased" section (up to the next section or the end), and what it says when empty. */
export const UNRELEASED = /^## Unreleased\s*\n([\s\S]*?)(?=^## |(?![\s\S]))/m;
export const NOTHING_YET = 'Nothing yet.';

/** The notes of CHANGELOG.md's "Unreleased" section: '' when it has none or says NOTHING_YET. */
export function unreleasedNotes(changelog: string): string {
  const notes = UNRELEASED.exec(changelog)?.[1]?.trim() ?? '';
  return notes === NOTHING_YET ? '' : notes;
}

/** Positive when `a` is a later version than `b`, zero when the same. */
export function newer(a: string, b: string): number {
  const parts = (v: string) => v.slice(1).split('.').map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

type Schema = Map<string, Set<string>>;

/** Every table and view, with its columns (D1's own tables aside). */
async function schemaOf(d1: D1Database): Promise<Schema> {
  const { results } = await d1
    .prepare(
      "select m.name as t, c.name as c from sqlite_master m join pragma_table_info(m.name) c where m.type in ('table', 'view') and m.name not like 'sqlite_%' and m.name not like '_cf_%' and m.name != 'd1_migrations'",
    )
    .all<{ t: string; c: string }>();
  const schema: Schema = new Map();
  for (const { t, c } of results) schema.set(t, (schema.get(t) ?? new Set()).add(c));
  return schema;
}

/** What was in `before` and is not in `after`: `table` or `table.column`. */
function lost(before: Schema, after: Schema): string[] {
  const out: string[] = [];
  for (const [name, columns] of before) {
    const now = after.get(name);
    if (now === undefined) out.push(name);
    else for (const c of columns) if (!now.has(c)) out.push(`${name}.${c}`);
  }
  return out;
}

/**
 * Applies the migrations in order to `d1` (empty) and returns what breaks the rule, one sentence
 * each; none when every step keeps what the release before it reads.
 */
export async function ruleProblems(
  d1: D1Database,
  migrations: readonly Migration[],
  released: readonly Release[] = releases(),
): Promise<string[]> {
  const problems: string[] = [];
  let schema = await schemaOf(d1);
  for (const { name, sql } of migrations) {
    const step = stepOf(sql);
    if (step === undefined)
      problems.push(`${name}: its first line says neither "-- expand" nor "-- contract: after <version>"`);
    const statements = unstable_splitSqlQuery(sql);
    await d1.batch(statements.map((s) => d1.prepare(s)));
    const now = await schemaOf(d1);
    const gone = lost(schema, now);
    schema = now;
    if (step?.kind === 'history' && !HISTORY.has(name))
      problems.push(`${name}: only the steps written before the first release may say "history"`);
    if (step?.kind === 'contract') {
      const release = released.find((r) => r.version === step.after);
      if (release === undefined)
        problems.push(`${name}: a contract step after ${step.after}, which CHANGELOG.md lists as no release`);
      else if (released.some((r) => contains(r, name) && newer(step.after, r.version) >= 0))
        problems.push(`${name}: a contract step after ${step.after}, yet that release already contains it`);
    }
    if (gone.length > 0 && step?.kind !== 'contract' && step?.kind !== 'history')
      problems.push(
        `${name}: removes or renames ${gone.join(', ')}: the release before still reads them. Add the new beside the old now (C42), and remove the old in a "-- contract: after <version>" step of a later release`,
      );
  }
  return problems;
}
