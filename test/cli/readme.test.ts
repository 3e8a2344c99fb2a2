// C19: every `npm run forms` command line that README.md shows, run exactly as written (through
// bash, npm and all), gives the promised output on standard output, and npm's log of each run
// holds no key and no secret.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runProcess, tempDir } from './helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SECRET = '0x4AAAAAAAreadme-turnstile-secret';

/** The README's `npm run forms` lines, continuation lines joined, comments after `  #` dropped. */
function readmeFormsLines(): string[] {
  const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const lines: string[] = [];
  for (const block of blocks) {
    const joined = block.replace(/\\\n\s*/g, '');
    for (const raw of joined.split('\n')) {
      const line = raw.replace(/\s{2,}#.*$/, '').trim();
      if (/(^|\| )npm run forms -- /.test(line) && !line.includes('--remote')) lines.push(line);
    }
  }
  return lines;
}

// A copy of the project, so that the README's lines run as typed, on their own local state.
const work = tempDir('readme');
const logs = join(work, 'npm-logs');

function run(line: string, env: Record<string, string>, stdin = '') {
  return runProcess('bash', ['-o', 'pipefail', '-c', line], {
    cwd: join(work, 'project'),
    env: { ...env, npm_config_logs_dir: logs, npm_config_logs_max: '1000' },
    stdin,
  });
}

beforeAll(() => {
  const project = join(work, 'project');
  mkdirSync(project, { recursive: true });
  for (const entry of [
    'package.json',
    'package-lock.json',
    '.npmrc',
    'wrangler.toml',
    'scripts',
    'src',
    'schema',
  ]) {
    cpSync(join(ROOT, entry), join(project, entry), { recursive: true });
  }
  mkdirSync(join(project, 'assets'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
  mkdirSync(logs, { recursive: true });
  // The example project that `npm run dev` makes, through the same code, in the copy's local state.
  writeFileSync(
    join(project, 'seed-example.ts'),
    `import { openDatabase } from './scripts/database.ts';
import { createProjectFromSpecs } from './src/manage/projects.ts';
const d = await openDatabase({ remote: false });
await createProjectFromSpecs(d.db, { id: 'example', name: 'Example', fields: ['name:string', 'email:string'] });
await d.close();
`,
  );
  execFileSync(process.execPath, ['seed-example.ts'], {
    cwd: project,
    stdio: 'ignore',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  });
});

describe('README: the command lines of `forms`', () => {
  const lines = readmeFormsLines();

  it('shows the lines this test runs', () => {
    expect(lines.length).toBeGreaterThanOrEqual(10);
    expect(lines).toContain("npm run forms -- project list --json | jq -r '.projects[].id'");
    expect(lines.some((l) => l.includes('--format csv > '))).toBe(true);
    expect(lines.some((l) => l.startsWith('npm run forms -- key revoke'))).toBe(true);
    // No documented usage passes a secret or a whole key as an argument.
    for (const line of lines) expect(line).not.toMatch(/--turnstile-secret|key revoke \S+ "?\$K"?$/);
  });

  it('each runs as written: its output alone on standard output, and npm keeps no key or secret', {
    timeout: 300_000,
  }, async () => {
    // The walk-through's first line makes the project the others use ($P, $K): it runs first.
    const create = lines.find((l) => l.startsWith('npm run forms -- project create "Contact"'));
    const rest = lines.filter((l) => l !== create);
    expect(create).toBeDefined();
    const created = await run(create ?? '', {});
    expect(created.code, created.stderr).toBe(0);
    // Nothing but the command's own text: npm's banner went to standard error.
    expect(created.stdout).toMatch(/^Created project (p_\w+) "Contact"/);
    const P = /^Created project (p_\w+)/.exec(created.stdout)?.[1] ?? '';
    const K = /(edgeform_pk_\w{32})/.exec(created.stdout)?.[1] ?? '';
    expect(K).not.toBe('');
    const keysShown = [K];
    const env = { P, K, TURNSTILE_SECRET: SECRET };
    for (const line of rest) {
      // The prompt of `--turnstile` is answered on standard input, as a person would type it.
      const result = await run(line, line.startsWith('printf') ? env : { P, K }, `${SECRET}\n`);
      expect(result.code, `${line}\n${result.stderr}`).toBe(0);
      expect(result.stdout, line).not.toMatch(/^\s*> edge-forms/m);
      if (line.includes('project list --json')) {
        expect(result.stdout.trim().split('\n')).toEqual(expect.arrayContaining(['example', P]));
        const plain = await run(line.replace(/ \| jq.*$/, ''), env);
        const listed = JSON.parse(plain.stdout) as { projects: { id: string; name: string }[] };
        expect(listed.projects.find((p) => p.id === P)).toMatchObject({ name: 'Contact' });
      }
      if (line.includes('--format csv > ')) {
        const file = join(work, 'project', line.replace(/^.*> /, ''));
        expect(readFileSync(file, 'utf8').split('\n')[0]).toBe('id,received_at,name,email,phone');
      }
      if (line.includes('key create example --secret --json')) {
        expect(JSON.parse(result.stdout)).toMatchObject({ projectId: 'example', kind: 'secret' });
      }
      if (line.startsWith('npm run forms -- key create')) {
        const key = /(edgeform_[ps]k_\w{32})/.exec(result.stdout)?.[1];
        expect(key).toBeDefined();
        keysShown.push(key ?? '');
      }
      if (line.startsWith('npm run forms -- key revoke')) expect(result.stdout).toMatch(/^Revoked key /);
    }
    // npm's log of every run: the lines are there (the check is not vacuous), the secrets are not.
    const files = readdirSync(logs).map((f) => readFileSync(join(logs, f), 'utf8'));
    expect(files.length).toBeGreaterThanOrEqual(lines.length);
    const all = files.join('\n');
    expect(all).toContain('key revoke');
    expect(all).toContain('--turnstile');
    for (const secret of [...keysShown, SECRET]) expect(all).not.toContain(secret);
    expect(existsSync(join(work, 'project', '.wrangler'))).toBe(true);
  });
});
