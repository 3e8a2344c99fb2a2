// C19: every command the README and the guides show runs as written, through bash and npm, in a
// copy of the project with `npm run dev` running in it (the only change: the port): each block of
// a document in order, in one shell, so that what one block sets the next can use; a block
// followed by a JSON block prints exactly that JSON. npm's log of every run holds no key and no
// secret. The commands no test types are those that need Cloudflare's network (deploying), those
// this very run performs (npm install, npm run dev, npm test) and the benchmarks (minutes each).
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newServiceAccount } from '../standin.ts';
import { freePort, runProcess, tempDir } from './helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const DOCUMENTS = [
  'README.md',
  'docs/forms.md',
  'docs/clients.md',
  'docs/reading.md',
  'docs/delivery.md',
  'docs/cli.md',
  'docs/manage.md',
  'docs/dashboard.md',
  'docs/settings.md',
  'docs/spam.md',
  'docs/analytics.md',
  'docs/places.md',
  'docs/pages.md',
  'docs/deploy.md',
  'docs/performance.md',
  'docs/testing.md',
];
const NOT_RUN = [
  /^npm install\b/,
  /^npm run dev\b/,
  /^npm test\b/,
  /^npm run test:e2e\b/,
  /(^|\| )npx wrangler\b/,
  /^npm run db:migrate:remote\b/,
  // Deploying needs Cloudflare; its dry run does not, and runs here.
  /^npm run deploy$/,
  /--remote\b/,
  /^(BENCH_\w+=\S+ )*npm run bench/,
  // Mutation testing: half an hour (its own list is typed: `mutate:hand -- --list`).
  /^npm run -?s? ?mutate$/,
  // A change's own mutation score: minutes, and the documentation's copy has no git history
  // (test/cli/mutate.test.ts types it on a file no mutant covers).
  /^npm run -?s? ?mutate -- /,
  // C42: CI runs the upgrade test itself; a release commits and tags (typed by release.test.ts in a
  // repository of its own); going back needs a release before this one and an account (typed by
  // deploy.test.ts against a stand-in wrangler).
  /^npm run test:upgrade\b/,
  /^npm run release\b/,
  /^npm run deploy -- --rollback\b/,
];

type Block = { lines: string[]; json?: unknown };

/** C38: the tokens docs/delivery.md's reader saved in files. */
const DOC_TOKENS = {
  'notion-token.txt': 'ntn_docs0000000000000000000000000000000000000000',
  'airtable-token.txt': 'patDocs0000000000.0000000000000000000000000000000000000000000000000000',
  'telegram-token.txt': '123456789:AAdocsDocsDocsDocsDocsDocsDocsDocs0',
};

/** A document's shell blocks: continuation lines joined, comments after `  #` dropped; the JSON shown after each. */
function blocksOf(markdown: string): { run: Block[]; skipped: string[] } {
  const run: Block[] = [];
  const skipped: string[] = [];
  for (const m of markdown.matchAll(/```sh\n([\s\S]*?)```(?:\s*```json\n([\s\S]*?)```)?/g)) {
    const lines: string[] = [];
    for (const raw of (m[1] ?? '').replace(/\\\n\s*/g, '').split('\n')) {
      const line = raw.replace(/\s{2,}#.*$/, '').trim();
      if (line === '') continue;
      if (NOT_RUN.some((r) => r.test(line))) skipped.push(line);
      else lines.push(line);
    }
    if (lines.length > 0) run.push({ lines, ...(m[2] === undefined ? {} : { json: JSON.parse(m[2]) }) });
  }
  return { run, skipped };
}

const work = tempDir('docs');
const project = join(work, 'project');
const logs = join(work, 'npm-logs');
let port = 0;
let dev: ChildProcess | undefined;

beforeAll(async () => {
  mkdirSync(project, { recursive: true });
  for (const entry of [
    'package.json',
    'package-lock.json',
    '.npmrc',
    'wrangler.toml',
    'cli',
    'scripts',
    'toolkit',
    'src',
    'schema',
    'widget',
    'dashboard',
    // docs/clients.md builds the client package and installs it in a site of its own.
    'client',
    // C39: the spam filter's prior and lists, which the asset build ships.
    'data',
    // docs/testing.md runs a test file.
    'test',
    // The README posts examples/cv.pdf to the example's form address.
    'examples',
    'vitest.config.ts',
    'tsconfig.json',
  ]) {
    cpSync(join(ROOT, entry), join(project, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
  // C38: what docs/delivery.md asks its reader to save: a service account's JSON key as Google
  // downloads it, and each service's token in its file.
  const { account } = await newServiceAccount('forms@my-project.iam.gserviceaccount.com');
  writeFileSync(join(project, 'service-account.json'), JSON.stringify(account, null, 2));
  for (const [file, token] of Object.entries(DOC_TOKENS)) writeFileSync(join(project, file), `${token}\n`);
  mkdirSync(logs, { recursive: true });
  port = await freePort();
  // `npm run dev` in the copy, as a user starts it: its example project and key, in .wrangler/.
  // Its devtools port too: another test file's server may be starting at the same moment (9229).
  const inspector = String(await freePort());
  dev = spawn(
    'npm',
    ['run', 'dev', '--', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', inspector],
    {
      cwd: project,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
      detached: true,
    },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run dev did not start:\n${log}`)), 120_000);
    const watch = (chunk: Buffer) => {
      log += String(chunk);
      if (log.includes('Ready on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    dev?.stdout?.on('data', watch);
    dev?.stderr?.on('data', watch);
  });
});

afterAll(() => {
  if (dev?.pid) process.kill(-dev.pid, 'SIGTERM');
});

const MARK = '@@end-of-block@@';

describe('the documentation: every command as written', () => {
  it('the documents show commands, and leave out only those that need Cloudflare or are this run', () => {
    const all = DOCUMENTS.map((d) => blocksOf(readFileSync(join(ROOT, d), 'utf8')));
    expect(all.flatMap((d) => d.run).flatMap((b) => b.lines).length).toBeGreaterThanOrEqual(40);
    const skipped = all.flatMap((d) => d.skipped);
    expect(skipped).toContain('npm install && npm run dev');
    expect(skipped).toEqual(
      expect.arrayContaining(['npm run release -- minor', 'npm run deploy -- --rollback']),
    );
    for (const line of skipped)
      expect(line).toMatch(
        /^(npm install|npm test|npm run test:e2e|npx wrangler|npm run db:migrate:remote|npm run deploy$|npm run deploy -- --rollback|npm run test:upgrade|npm run release|npm run -s mutate -- |npm run forms -- --remote|BENCH_|npm run bench|(openssl rand|printf) .*\| npx wrangler secret put)/,
      );
  });

  it.each(DOCUMENTS)(
    '%s: each block runs, and prints what the document shows',
    { timeout: 300_000 },
    async (document) => {
      const { run } = blocksOf(readFileSync(join(ROOT, document), 'utf8'));
      if (run.length === 0) return;
      const script = ['set -eo pipefail', ...run.flatMap((b) => [...b.lines, `printf '\\n%s\\n' '${MARK}'`])]
        .join('\n')
        .replaceAll('localhost:8787', `127.0.0.1:${port}`);
      const result = await runProcess('bash', ['-c', script], {
        cwd: project,
        env: { npm_config_logs_dir: logs, npm_config_logs_max: '1000' },
      });
      expect(result.code, `${document}\n${result.stderr}`).toBe(0);
      const outputs = result.stdout.split(`\n${MARK}\n`);
      expect(outputs).toHaveLength(run.length + 1);
      for (const [i, block] of run.entries()) {
        const output = outputs[i] ?? '';
        // With -s, npm's banner stays off standard output: a pipe gets the command's output alone.
        const npmRuns = block.lines.filter((l) => l.includes('npm run '));
        if (npmRuns.length > 0 && npmRuns.every((l) => l.includes('npm run -s '))) {
          expect(output).not.toMatch(/^> edge-forms/m);
        }
        if (block.json !== undefined)
          expect(JSON.parse(output.trim().split('\n').at(-1) ?? ''), block.lines.join('\n')).toEqual(
            block.json,
          );
      }
      if (document === 'docs/manage.md') {
        expect(readFileSync(join(project, 'newsletter.csv'), 'utf8').split('\n')[0]).toBe(
          'id,received_at,email,note',
        );
      }
      if (document === 'docs/cli.md') {
        expect(readFileSync(join(project, 'submissions.csv'), 'utf8').split('\n')[0]).toBe(
          'id,received_at,name,email,phone',
        );
      }
    },
  );

  it('npm kept every run in its log, and no key or secret in it', () => {
    const files = readdirSync(logs).map((f) => readFileSync(join(logs, f), 'utf8'));
    const all = files.join('\n');
    expect(all).toContain('key revoke');
    expect(all).toContain('--turnstile');
    expect(all).not.toMatch(/edgeform_[ps]k_[0-9A-Za-z]{32}/);
    expect(all).not.toContain('0x4AAAAAAA-your-turnstile-secret');
    expect(all).not.toMatch(/whsec_[A-Za-z0-9+/=]{20,}/);
    // C38: the integrations' key and tokens, read from their files, never on a command line.
    expect(all).toContain('integration add');
    expect(all).not.toContain('PRIVATE KEY');
    for (const token of Object.values(DOC_TOKENS)) expect(all).not.toContain(token);
    // C32: the operator token `npm run dev` made, which the guides use through FORMS_ADMIN_TOKEN.
    const token = readFileSync(join(project, '.dev.vars'), 'utf8').match(/^ADMIN_TOKEN=(.+)$/m)?.[1];
    expect(token?.length).toBeGreaterThanOrEqual(43);
    expect(all).toContain('--url');
    expect(all).not.toContain(token);
  });
});
