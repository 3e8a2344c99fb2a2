// `npm run release [-- patch|minor|major|<x.y.z>]` (C42): a release, made on this machine with no
// network: the next version in package.json (and its lockfile), CHANGELOG.md's "Unreleased" section
// become that release's, naming the commit it was cut from, every migration since the last release
// (each added to the section when its notes do not name it yet, with whether going back over it is
// safe), then a commit and an annotated tag `v<x.y.z>`. Only from a clean working tree, and only to
// a version newer than every release. `npm run deploy` then tags the upload with the version, so
// that `npm run deploy -- --rollback` finds it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  migrationFiles,
  migrationsAfter,
  NOTHING_YET,
  newer,
  releases,
  UNRELEASED,
  unreleasedNotes,
} from './migration-rule.ts';

const LEVELS = ['major', 'minor', 'patch'] as const;
type Level = (typeof LEVELS)[number];

/** The version after `current`: one level up, or the one given. */
export function nextVersion(current: string, asked: string = 'minor'): string {
  if (/^\d+\.\d+\.\d+$/.test(asked)) return asked;
  if (!LEVELS.includes(asked as Level))
    throw new Refused(`"${asked}" is not patch, minor, major or a version x.y.z`);
  const [major = 0, minor = 0, patch = 0] = current.split('.').map(Number);
  if (asked === 'major') return `${major + 1}.0.0`;
  if (asked === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/** What stops a release, in words for the person who asked. */
export class Refused extends Error {
  override name = 'Refused';
}

/**
 * CHANGELOG.md with its "Unreleased" notes made the release `version` (cut from `commit` on
 * `date`), every migration in `since` named in them, and an empty "Unreleased" above.
 */
export function releasedChangelog(
  text: string,
  version: string,
  commit: string,
  date: string,
  since: readonly { name: string; safe: boolean; step: string }[],
): string {
  const found = UNRELEASED.exec(text);
  const kept = unreleasedNotes(text);
  const missing = since
    .filter((m) => !kept.includes(m.name))
    .map((m) => `- \`${m.name}\` (${m.step}). Going back over it: ${m.safe ? 'safe' : 'not safe'}.`);
  const body = [kept, ...missing].filter((l) => l !== '').join('\n') || 'No migration; going back: safe.';
  const section = `## Unreleased\n\n${NOTHING_YET}\n\n## v${version} (${commit}, ${date})\n\n${body}\n\n`;
  if (found !== null) return text.replace(UNRELEASED, section);
  const at = text.search(/^## /m);
  return at === -1 ? `${text.trimEnd()}\n\n${section}` : `${text.slice(0, at)}${section}${text.slice(at)}`;
}

function git(cwd: string, args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Refused(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** Sets the version of package.json (and package-lock.json's own entries), keeping the rest as it is. */
function setVersion(cwd: string, version: string): string[] {
  const changed: string[] = [];
  const pkg = join(cwd, 'package.json');
  writeFileSync(pkg, readFileSync(pkg, 'utf8').replace(/("version":\s*")[^"]*(")/, `$1${version}$2`));
  changed.push('package.json');
  const lock = join(cwd, 'package-lock.json');
  if (existsSync(lock)) {
    const json = JSON.parse(readFileSync(lock, 'utf8')) as {
      version?: string;
      packages?: Record<string, { version?: string }>;
    };
    json.version = version;
    const root = json.packages?.[''];
    if (root !== undefined) root.version = version;
    writeFileSync(lock, `${JSON.stringify(json, null, 2)}\n`);
    changed.push('package-lock.json');
  }
  return changed;
}

export function release(cwd: string, asked: string | undefined, today = new Date()): string {
  if (git(cwd, ['status', '--porcelain']) !== '')
    throw new Refused('the working tree has changes: commit or stash them first, then release');
  const current = (JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { version: string })
    .version;
  const changelogPath = join(cwd, 'CHANGELOG.md');
  const text = readFileSync(changelogPath, 'utf8');
  const listed = releases(text);
  const version = nextVersion(current, asked);
  const newest = listed[0];
  if (newest !== undefined && newer(`v${version}`, newest.version) <= 0)
    throw new Refused(`v${version} is not newer than the last release, ${newest.version}`);
  const tagged = spawnSync('git', ['rev-parse', '--verify', '--quiet', `refs/tags/v${version}`], { cwd });
  if (tagged.status === 0) throw new Refused(`the tag v${version} exists already`);
  const since = migrationsAfter(listed, migrationFiles(join(cwd, 'schema', 'migrations'))).map((m) => ({
    ...m,
    safe: m.step === 'expand',
  }));
  const unmarked = since.filter((m) => m.step === 'unmarked');
  if (unmarked.length > 0)
    throw new Refused(
      `${unmarked.map((m) => m.name).join(', ')}: a migration's first line says "-- expand" or "-- contract: after <version>" (C42)`,
    );
  const commit = git(cwd, ['rev-parse', '--short=7', 'HEAD']);
  writeFileSync(
    changelogPath,
    releasedChangelog(text, version, commit, today.toISOString().slice(0, 10), since),
  );
  const files = ['CHANGELOG.md', ...setVersion(cwd, version)];
  git(cwd, ['add', '--', ...files]);
  git(cwd, ['commit', '-q', '-m', `Release v${version}`]);
  git(cwd, ['tag', '-a', `v${version}`, '-m', `v${version}`]);
  return version;
}

if (import.meta.main) {
  try {
    const version = release(process.cwd(), process.argv[2]);
    console.log(
      `Released v${version}: CHANGELOG.md and package.json committed, tagged v${version} (locally).`,
    );
    console.log(
      'Deploy it with `npm run deploy`; going back: `npm run deploy -- --rollback` (docs/deploy.md).',
    );
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    console.error(`No release: ${error.message}.`);
    process.exitCode = 1;
  }
}
