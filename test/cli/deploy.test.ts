// C42: `npm run deploy` against a stand-in wrangler (and npm) on its PATH, which records every call
// and answers as wrangler does: the order (databases made and migrated before the upload, migrated
// again after), the operator token only on a first deploy and only through a file only the user
// can read, gone afterwards, never in an argument or a log; CI refusing to make one; a failing step
// stopping the rest; the dry run asking no account anything. The real wrangler's dry run is typed by
// the documentation test (the README shows it).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createArgs, withDatabaseIds } from '../../toolkit/database.ts';
import { saveDeployment, savedToken } from '../../toolkit/deployment.ts';
import { deploy, WORKER } from './deploy-run.ts';
import { tempDir } from './helpers.ts';

const TOKEN = /^ {2}([A-Za-z0-9_-]{43})$/m;

describe('npm run deploy (C42)', () => {
  it('a first deploy: builds, makes and migrates the database, uploads with the token by file, migrates again, says what next', async () => {
    const { dir, result, state, calls } = await deploy({});
    expect(result.code, result.stderr).toBe(0);
    expect(calls).toEqual([
      'npm run -s build:assets',
      'npm run -s build:worker',
      'wrangler d1 list --json',
      'wrangler d1 create edge-forms',
      // C41: the place eu's database, in the EU jurisdiction.
      'wrangler d1 create edge-forms-eu --jurisdiction eu',
      'wrangler d1 migrations apply DB --remote',
      'wrangler d1 migrations apply DB_EU --remote',
      'wrangler secret list --format json',
      expect.stringMatching(/^wrangler deploy dist\/worker\/index\.mjs --no-bundle --secrets-file \S+$/),
      'wrangler d1 migrations apply DB --remote',
      'wrangler d1 migrations apply DB_EU --remote',
    ]);
    const token = TOKEN.exec(result.stdout)?.[1] ?? '';
    expect(token).toHaveLength(43);
    expect(state.secrets).toEqual({ ADMIN_TOKEN: token });
    // The token: printed once, never in an argument, never on standard error.
    expect(result.stdout.split(token)).toHaveLength(2);
    expect(result.stderr).not.toContain(token);
    expect(JSON.stringify(state.calls.map((c) => c.args))).not.toContain(token);
    const upload = state.calls.find((c) => c.secretsFile !== undefined);
    expect(upload?.secretsFile?.mode).toBe(0o600);
    expect(existsSync(upload?.secretsFile?.path ?? '')).toBe(false);
    // Kept where the tool finds it, for this user only.
    const saved = join(dir, '.forms/deployment.json');
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toEqual({
      token,
      url: `https://${WORKER}.example-account.workers.dev`,
    });
    expect(statSync(saved).mode & 0o777).toBe(0o600);
    expect(result.stdout).toContain(`The dashboard: https://${WORKER}.example-account.workers.dev/admin/`);
    expect(result.stdout).toContain(
      `npm run forms -- --url https://${WORKER}.example-account.workers.dev project create "Contact"`,
    );
  });

  it('an update: migrates, uploads without a secret, migrates; no token made or shown', async () => {
    const { dir, result, state, calls } = await deploy({
      databases: ['edge-forms', 'edge-forms-eu'],
      worker: true,
      secrets: { ADMIN_TOKEN: 'x'.repeat(43) },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(calls).toEqual([
      'npm run -s build:assets',
      'npm run -s build:worker',
      'wrangler d1 list --json',
      'wrangler d1 migrations apply DB --remote',
      'wrangler d1 migrations apply DB_EU --remote',
      'wrangler secret list --format json',
      'wrangler deploy dist/worker/index.mjs --no-bundle',
      'wrangler d1 migrations apply DB --remote',
      'wrangler d1 migrations apply DB_EU --remote',
    ]);
    expect(state.secrets).toEqual({ ADMIN_TOKEN: 'x'.repeat(43) });
    expect(result.stdout).not.toMatch(TOKEN);
    expect(existsSync(join(dir, '.forms/deployment.json'))).toBe(false);
  });

  it('in CI, a first deploy stops before the upload instead of making a token', async () => {
    const { dir, result, calls } = await deploy({ databases: ['edge-forms', 'edge-forms-eu'] }, { ci: true });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the operator token failed: this is CI');
    expect(calls.some((c) => c.startsWith('wrangler deploy'))).toBe(false);
    expect(existsSync(join(dir, '.forms'))).toBe(false);
    expect(result.stdout).not.toMatch(TOKEN);
  });

  it.each([
    ['npm run -s build:worker', 'build'],
    ['wrangler d1 create', 'create the database edge-forms'],
    ['wrangler d1 migrations apply DB', 'apply the migrations to DB (edge-forms)'],
  ])(
    'a failing step (%s) stops the deploy there: nothing after it runs, nothing is uploaded',
    async (failOn, step) => {
      const { result, calls } = await deploy({ failOn });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`✗ ${step} failed:`);
      // The failing call is the last one made.
      expect(calls.at(-1)).toMatch(new RegExp(`^${failOn}`));
      expect(calls.some((c) => c.startsWith('wrangler deploy') || c.startsWith('wrangler secret'))).toBe(
        false,
      );
    },
  );

  it('a failed upload stops before the second migration; the token file is gone, the token kept for the next try', async () => {
    const { dir, result, state, calls } = await deploy({ failOn: 'wrangler deploy' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('✗ upload the worker failed:');
    expect(calls.at(-1)).toMatch(/^wrangler deploy /);
    const file = state.calls.at(-1)?.args.at(-1) ?? '';
    expect(existsSync(file)).toBe(false);
    const kept = JSON.parse(readFileSync(join(dir, '.forms/deployment.json'), 'utf8')) as { token: string };
    expect(kept.token).toHaveLength(43);
    expect(result.stdout).not.toContain(kept.token);
  });

  it("in CI, a first deploy takes the token from CI's secret variable, by file, and neither saves nor prints it", async () => {
    const given = 'c'.repeat(44);
    const { dir, result, state, calls } = await deploy(
      { databases: ['edge-forms', 'edge-forms-eu'] },
      { ci: true, env: { ADMIN_TOKEN: given } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(calls.find((c) => c.startsWith('wrangler deploy'))).toMatch(/--secrets-file \S+$/);
    expect(state.secrets).toEqual({ ADMIN_TOKEN: given });
    expect(`${result.stdout}${result.stderr}`).not.toContain(given);
    expect(JSON.stringify(state.calls.map((c) => c.args))).not.toContain(given);
    expect(existsSync(join(dir, '.forms'))).toBe(false);
    // Wrangler would let a variable override the file's value: none reaches it.
    expect(state.calls.every((c) => !c.tokenInEnv)).toBe(true);
  });

  it('an ADMIN_TOKEN in the environment of a first deploy from a machine is not what wrangler uploads: the token printed is', async () => {
    const { result, state } = await deploy({}, { env: { ADMIN_TOKEN: 'e'.repeat(44) } });
    expect(result.code, result.stderr).toBe(0);
    const token = TOKEN.exec(result.stdout)?.[1] ?? '';
    expect(state.secrets).toEqual({ ADMIN_TOKEN: token });
    expect(state.calls.every((c) => !c.tokenInEnv)).toBe(true);
  });

  it("refuses local development's settings (ALLOW_LOCAL_WEBHOOKS, INTEGRATIONS_API_BASE) before anything, unless asked to carry them", async () => {
    const local = (text: string) =>
      text
        .replace('ALLOW_LOCAL_WEBHOOKS = "false"', 'ALLOW_LOCAL_WEBHOOKS = "true"')
        .replace('INTEGRATIONS_API_BASE = ""', 'INTEGRATIONS_API_BASE = "http://127.0.0.1:8788"');
    const refused = await deploy({}, { toml: local });
    expect(refused.result.code).toBe(1);
    expect(refused.result.stderr).toContain('ALLOW_LOCAL_WEBHOOKS = "true"');
    expect(refused.result.stderr).toContain('INTEGRATIONS_API_BASE = "http://127.0.0.1:8788"');
    expect(refused.result.stderr).toContain('✗ check the settings failed: nothing was built or uploaded.');
    expect(refused.calls).toEqual([]);
    const dry = await deploy({ loggedOut: true }, { toml: local, args: ['--dry-run'] });
    expect(dry.result.code).toBe(1);
    expect(dry.calls).toEqual([]);
    const asked = await deploy({}, { toml: local, args: ['--allow-local-settings'] });
    expect(asked.result.code, asked.result.stderr).toBe(0);
    expect(asked.result.stderr).toContain("!!! This deploy carries local development's settings");
    expect(asked.calls).toContain('wrangler d1 migrations apply DB --remote');
  });

  it('not logged in: says how to log in', async () => {
    const { result, calls } = await deploy({ loggedOut: true });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('✗ find the databases failed: log in with `npx wrangler login`');
    expect(calls).toHaveLength(3);
  });
});

/** A tree at v0.2.0 whose release added `0001_b.sql`, a step of the kind given. */
const TREE = (second: string) => ({
  'package.json': '{ "name": "edge-forms", "version": "0.2.0" }\n',
  'CHANGELOG.md':
    '# Changes\n\n## Unreleased\n\nNothing yet.\n\n## v0.2.0 (bbbbbbb, 2026-12-01)\n\n- `0001_b.sql`\n\n## v0.1.0 (aaaaaaa, 2026-11-28)\n\n- `0000_a.sql`\n',
  'schema/migrations/0000_a.sql': '-- expand\nCREATE TABLE a (x text);\n',
  'schema/migrations/0001_b.sql': second,
});
const TAGGED = [
  { id: 'version-of-0.1.0', annotations: { 'workers/tag': 'v0.1.0' } },
  { id: 'version-of-0.2.0', annotations: { 'workers/tag': 'v0.2.0' } },
];
const UPDATE = {
  databases: ['edge-forms', 'edge-forms-eu'],
  worker: true,
  secrets: { ADMIN_TOKEN: 'x'.repeat(43) },
};

describe('npm run deploy -- --rollback (C42)', () => {
  it("an upload is tagged with the tree's version", async () => {
    const { result, calls } = await deploy(UPDATE, { files: TREE('-- expand\nCREATE TABLE b (y text);\n') });
    expect(result.code, result.stderr).toBe(0);
    expect(calls).toContain('wrangler deploy dist/worker/index.mjs --no-bundle --tag v0.2.0');
    // A tree with changes since its release is never taken for it.
    const tree = TREE('-- expand\nCREATE TABLE b (y text);\n');
    const next = await deploy(UPDATE, {
      files: { ...tree, 'CHANGELOG.md': tree['CHANGELOG.md'].replace('Nothing yet.', '- `0002_c.sql`: c.') },
    });
    expect(next.calls).toContain('wrangler deploy dist/worker/index.mjs --no-bundle --tag v0.2.0-next');
  });

  it('goes back to the upload tagged with the release before, when every migration since it only added', async () => {
    const { result, calls, state } = await deploy(
      { ...UPDATE, versions: TAGGED },
      { args: ['--rollback'], files: TREE('-- expand\nCREATE TABLE b (y text);\n') },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(calls).toEqual([
      'wrangler versions list --json',
      'wrangler rollback version-of-0.1.0 --message Back to v0.1.0 (npm run deploy -- --rollback) --yes',
    ]);
    expect(state.rolledBackTo).toBe('version-of-0.1.0');
    expect(result.stdout).toContain('0001_b.sql (expand)');
    expect(result.stdout).toContain('Back on v0.1.0');
  });

  it('refuses plainly when a migration since removed or renamed what the release before reads, touching nothing', async () => {
    const { result, calls } = await deploy(
      { ...UPDATE, versions: TAGGED },
      { args: ['--rollback'], files: TREE('-- contract: after v0.1.0\nDROP TABLE a;\n') },
    );
    expect(result.code).toBe(1);
    expect(calls).toEqual([]);
    expect(result.stderr).toContain(
      'going back to v0.1.0 is not safe: 0001_b.sql removed or renamed what it reads',
    );
    expect(result.stderr).toContain('Fix forward instead');
  });

  it('says so when no upload is tagged with the release before, and rolls nothing back', async () => {
    const { result, calls, state } = await deploy(
      { ...UPDATE, versions: [{ id: 'untagged' }] },
      { args: ['--rollback'], files: TREE('-- expand\nCREATE TABLE b (y text);\n') },
    );
    expect(result.code).toBe(1);
    expect(calls).toEqual(['wrangler versions list --json']);
    expect(state.rolledBackTo).toBeUndefined();
    expect(result.stderr).toContain("none of the worker's last versions is tagged v0.1.0");
  });

  it('with nothing to go back to, says so', async () => {
    const tree = TREE('-- expand\nCREATE TABLE b (y text);\n');
    const { result, calls } = await deploy(UPDATE, {
      args: ['--rollback'],
      files: { ...tree, 'package.json': '{ "name": "edge-forms", "version": "0.1.0" }\n' },
    });
    expect(result.code).toBe(1);
    expect(calls).toEqual([]);
    expect(result.stderr).toContain('CHANGELOG.md names no release before this one (v0.1.0)');
  });

  it('--dry-run says whether it is safe and asks no account anything', async () => {
    const { result, calls } = await deploy(UPDATE, {
      args: ['--rollback', '--dry-run'],
      files: TREE('-- expand\nCREATE TABLE b (y text);\n'),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(calls).toEqual([]);
    expect(result.stdout).toContain('Safe: v0.1.0 reads this schema');
  });
});

describe('npm run deploy -- --dry-run (C42)', () => {
  it('prints the plan in order, builds, and checks the upload with wrangler deploy --dry-run, touching nothing else', async () => {
    const { result, calls } = await deploy({ loggedOut: true }, { args: ['--dry-run'] });
    expect(result.code, result.stderr).toBe(0);
    const steps = [...result.stdout.matchAll(/^ {2}(\d)\. (.*)$/gm)].map((m) => m[2] ?? '');
    expect(steps).toHaveLength(8);
    const at = (start: string) => steps.findIndex((s) => s.startsWith(start));
    expect(at('build')).toBe(0);
    expect(at('create each one')).toBeLessThan(at('apply the migrations to every database'));
    expect(at('apply the migrations to every database')).toBeLessThan(at('upload the worker'));
    expect(at('apply the migrations again')).toBeGreaterThan(at('upload the worker'));
    // Offline: no account is asked anything (the stand-in is logged out and would refuse).
    expect(calls).toEqual([
      'npm run -s build:assets',
      'npm run -s build:worker',
      'wrangler deploy dist/worker/index.mjs --no-bundle --dry-run',
    ]);
    // wrangler's table of modules only with --verbose: its total instead.
    expect(result.stdout).toContain('The upload checks out (Total Upload: 681.95 KiB / gzip: 224.13 KiB).');
    expect(result.stdout).not.toContain('chunk-7.mjs');
    const verbose = await deploy({ loggedOut: true }, { args: ['--dry-run', '--verbose'] });
    expect(verbose.result.stdout).toContain('chunk-7.mjs');
  });

  it('says first what is still as shipped: an empty PUBLIC_URL, the example sender', async () => {
    const { result } = await deploy({ loggedOut: true }, { args: ['--dry-run'], asShipped: true });
    expect(result.stderr).toMatch(
      /^Still as shipped in wrangler\.toml:\n {2}! PUBLIC_URL is empty: [^\n]+\n {2}! EMAIL_FROM is still forms@example\.com: /,
    );
    const set = await deploy(
      { loggedOut: true },
      {
        args: ['--dry-run'],
        toml: (t) =>
          t
            .replace('PUBLIC_URL = ""', 'PUBLIC_URL = "https://forms.example.net"')
            .replace('forms@example.com', 'forms@mysite.test'),
      },
    );
    expect(set.result.stderr).not.toContain('Still as shipped');
  });
});

describe('where a deploy keeps the operator token (C42)', () => {
  it('only this user can read it, and it is given only to the worker it was made for', () => {
    const dir = tempDir('deployment');
    expect(savedToken('https://edge-forms.example.workers.dev', dir)).toBeUndefined();
    saveDeployment({ token: 't'.repeat(43) }, dir);
    // Saved before the upload, the address is not known yet: no worker gets it.
    expect(savedToken('https://edge-forms.example.workers.dev', dir)).toBeUndefined();
    saveDeployment({ token: 't'.repeat(43), url: 'https://edge-forms.example.workers.dev' }, dir);
    expect(statSync(join(dir, '.forms')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, '.forms/deployment.json')).mode & 0o777).toBe(0o600);
    expect(savedToken('https://edge-forms.example.workers.dev', dir)).toBe('t'.repeat(43));
    for (const other of [
      'https://edge-forms.example.workers.dev.evil.example',
      'http://edge-forms.example.workers.dev',
      'https://other.example.workers.dev',
    ]) {
      expect(savedToken(other, dir), other).toBeUndefined();
    }
  });
});

describe('forms --remote finds the database by its name in wrangler.toml (C42)', () => {
  const listed = [
    { uuid: 'uuid-other', name: 'other' },
    { uuid: 'uuid-forms', name: 'edge-forms' },
  ];

  it('takes the id of the database of that name; an id written in the config wins', () => {
    expect(withDatabaseIds([{ binding: 'DB', database_name: 'edge-forms' }], listed)).toEqual([
      { binding: 'DB', database_name: 'edge-forms', database_id: 'uuid-forms' },
    ]);
    expect(
      withDatabaseIds([{ binding: 'DB', database_name: 'edge-forms', database_id: 'pinned' }], listed),
    ).toEqual([{ binding: 'DB', database_name: 'edge-forms', database_id: 'pinned' }]);
  });

  it('a database the account lacks is named, with how to make it', () => {
    expect(() => withDatabaseIds([{ binding: 'DB', database_name: 'edge-forms-eu' }], listed)).toThrow(
      "The account has no D1 database named 'edge-forms-eu' (binding DB)",
    );
  });
});

describe('where a deploy creates each place’s database (C41)', () => {
  it('DB_EU in the EU jurisdiction, a location hint’s place near there, the others where Cloudflare puts them', () => {
    expect(createArgs({ binding: 'DB_EU', name: 'f-eu' })).toEqual([
      'd1',
      'create',
      'f-eu',
      '--jurisdiction',
      'eu',
    ]);
    expect(createArgs({ binding: 'DB_APAC', name: 'f-apac' })).toEqual([
      'd1',
      'create',
      'f-apac',
      '--location',
      'apac',
    ]);
    expect(createArgs({ binding: 'DB', name: 'f' })).toEqual(['d1', 'create', 'f']);
    expect(createArgs({ binding: 'DB_SHARD2', name: 'f-2' })).toEqual(['d1', 'create', 'f-2']);
  });
});
