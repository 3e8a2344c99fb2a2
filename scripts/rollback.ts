// C42: the tree's version on each upload, and `npm run deploy -- --rollback`: back to the upload
// tagged with the release before, when the schema allows it (scripts/migration-rule.ts says so).
import { existsSync, readFileSync } from 'node:fs';
import { wranglerJson } from '../toolkit/database.ts';
import { AUTH, run, StepFailed, step } from './deploy-steps.ts';
import { goingBack, migrationFiles, newer, releases, unreleasedNotes } from './migration-rule.ts';

/** This tree's version (package.json), when it has one: what the upload is tagged with. */
export function treeVersion(): string | undefined {
  if (!existsSync('package.json')) return undefined;
  return (JSON.parse(readFileSync('package.json', 'utf8')) as { version?: string }).version;
}

/**
 * C42: each upload is tagged with the tree's version, so that `--rollback` finds a release's; a tree
 * with changes not yet released (CHANGELOG.md's "Unreleased" says more than "Nothing yet.") is
 * tagged `v<version>-next`, never taken for the release it came after.
 */
export function versionTag(): string[] {
  const version = treeVersion();
  if (version === undefined) return [];
  const changelog = existsSync('CHANGELOG.md') ? readFileSync('CHANGELOG.md', 'utf8') : '';
  const next = unreleasedNotes(changelog) !== '';
  return ['--tag', `v${version}${next ? '-next' : ''}`];
}

type Version = { id: string; annotations?: Record<string, string> };

/**
 * C42: `npm run deploy -- --rollback`: back to the release before this tree's, by wrangler's
 * versions (the upload tagged with it) and `wrangler rollback`, when every migration since it is an
 * expand step; otherwise it says which migration forbids it and uploads nothing. The databases are
 * left as they are: the older code reads the schema it knew, which the expand steps kept.
 */
export async function rollback(dryRun: boolean): Promise<void> {
  const version = treeVersion();
  const listed = existsSync('CHANGELOG.md') ? releases(readFileSync('CHANGELOG.md', 'utf8')) : [];
  const previous =
    version === undefined ? undefined : listed.find((r) => newer(r.version, `v${version}`) < 0);
  if (version === undefined || previous === undefined)
    throw new StepFailed(
      'go back',
      `CHANGELOG.md names no release before this one (v${version ?? '?'}), so there is nothing to go back to`,
    );
  const { safe, since } = goingBack(previous, listed, migrationFiles('schema/migrations'));
  console.log(`Going back from v${version} to ${previous.version} (${previous.commit}).`);
  console.log(
    since.length === 0
      ? 'No migration since it.'
      : `The migrations since it:\n${since.map((m) => `  ${m.name} (${m.step})`).join('\n')}`,
  );
  if (!safe) {
    const blocking = since.filter((m) => m.step !== 'expand').map((m) => m.name);
    throw new StepFailed(
      'go back',
      `going back to ${previous.version} is not safe: ${blocking.join(', ')} removed or renamed what it reads, and the databases keep that. Nothing was changed. Fix forward instead: a new release with the fix, \`npm run deploy\``,
    );
  }
  console.log(`Safe: ${previous.version} reads this schema (each migration since it only added).`);
  if (dryRun) {
    console.log(
      `\nDry run: would find the upload tagged ${previous.version} (wrangler versions list) and make it the deployed version (wrangler rollback).`,
    );
    return;
  }
  let id: string | undefined;
  await step(`find the upload tagged ${previous.version}`, AUTH, async () => {
    const listedVersions = await run('wrangler', ['versions', 'list', '--json'], { quiet: true });
    if (listedVersions.code !== 0) {
      process.stderr.write(listedVersions.output);
      return false;
    }
    const versions = wranglerJson<Version[]>(listedVersions.output);
    id = versions.findLast((v) => v.annotations?.['workers/tag'] === previous.version)?.id;
    if (id === undefined)
      throw new StepFailed(
        `find the upload tagged ${previous.version}`,
        `none of the worker's last versions is tagged ${previous.version} (an upload made before \`npm run deploy\` tagged them, or more than ten uploads ago). Nothing was changed. Pick one with \`npx wrangler versions list\` and go back with \`npx wrangler rollback <version-id>\`, or check out ${previous.version} and run \`npm run deploy\``,
      );
    return true;
  });
  await step(
    `make ${previous.version} the deployed version`,
    'nothing was changed: the worker still runs its current version. Read wrangler’s message above, then try again',
    async () =>
      (
        await run('wrangler', [
          'rollback',
          id ?? '',
          '--message',
          `Back to ${previous.version} (npm run deploy -- --rollback)`,
          '--yes',
        ])
      ).code === 0,
  );
  console.log(
    `\nBack on ${previous.version}. To come forward again: check out v${version} and \`npm run deploy\`.`,
  );
}
