// `npm run test:upgrade [<commit or tag>]` (C42): a release keeps working on its successor's
// schema, and the successor serves what the release wrote. `npm run deploy` migrates before it
// uploads, so between the two (for good, should the upload fail) the previous release serves on
// the new schema. This takes the previous release (the newest in CHANGELOG.md, by its tag or its
// commit; or the commit given) into a temporary folder, installs it, applies this tree's migrations
// to fresh local databases (every place's), and runs the previous release's `npm run dev` on them:
// a JSON submission, an HTML form post, the read API with a secret key, the management API, and a
// webhook delivered by its queue consumer to a receiver on this machine (signed: Standard Webhooks).
// Then this tree's `npm run dev` on the same databases: it reads and serves what the old one wrote,
// takes a submission of its own, and leaves no delivery pending. Offline but for `npm install`.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { openDatabase } from '../toolkit/database.ts';
import { devVar } from '../toolkit/dev-vars.ts';
import { releases } from './migration-rule.ts';

const ROOT = join(import.meta.dirname, '..');
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const step = (what: string) => console.log(`[${seconds()}] ${what}`);

function fail(message: string): never {
  throw new Error(message);
}

function check(ok: boolean, what: string): void {
  if (!ok) fail(what);
  console.log(`  ✓ ${what}`);
}

function git(args: string[]): string {
  const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) fail(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** The commit to start from: the one given, or the newest release's tag (else its commit in CHANGELOG.md). */
function previous(given: string | undefined): { name: string; commit: string } {
  if (given !== undefined)
    return { name: given, commit: git(['rev-parse', '--verify', `${given}^{commit}`]) };
  const release =
    releases()[0] ?? fail('CHANGELOG.md lists no release: give a commit (npm run test:upgrade <commit>)');
  const tagged = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${release.version}^{commit}`], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const commit =
    tagged.status === 0 ? tagged.stdout.trim() : git(['rev-parse', '--verify', `${release.commit}^{commit}`]);
  return { name: release.version, commit };
}

const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
};

function run(command: string, args: string[], cwd: string): void {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) fail(`${command} ${args.join(' ')} in ${cwd} failed:\n${r.stdout}\n${r.stderr}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

type Received = { headers: Record<string, string>; body: string };

/** A webhook receiver on this machine that accepts every call. */
async function receiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += String(chunk);
    });
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, server };
}

/** `npm run dev` of a tree on the shared state, until it says it is ready. */
async function dev(
  cwd: string,
  state: string,
  port: number,
): Promise<{ child: ChildProcess; base: string; log: () => string }> {
  const inspector = await freePort();
  const args = ['run', 'dev', '--', '--persist-to', state, '--port', String(port), '--ip', '127.0.0.1'];
  args.push('--inspector-port', String(inspector));
  args.push('--var', 'ALLOW_LOCAL_WEBHOOKS:true', '--var', 'WEBHOOK_RETRY_DELAYS:1,1,1,1,1');
  const child = spawn('npm', args, { cwd, env, detached: true });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm run dev did not start in ${cwd}:\n${log}`)),
      180_000,
    );
    const watch = (chunk: Buffer) => {
      log += String(chunk);
      if (/Ready on /.test(log) && /Try it:/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', watch);
    child.stderr?.on('data', watch);
    child.on('exit', (code) => reject(new Error(`npm run dev stopped (${code}) in ${cwd}:\n${log}`)));
  });
  return { child, base: `http://127.0.0.1:${port}`, log: () => log };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve();
    child.once('exit', () => resolve());
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      resolve(); // already gone
    }
  });
}

type Reply = { status: number; body: { data?: Record<string, unknown> } & Record<string, unknown> };

async function call(url: string, init: RequestInit & { token?: string } = {}): Promise<Reply> {
  const headers = new Headers(init.headers);
  if (init.token !== undefined) headers.set('Authorization', `Bearer ${init.token}`);
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  let body: Reply['body'] = {};
  try {
    body = JSON.parse(text) as Reply['body'];
  } catch {
    body = { text };
  }
  return { status: res.status, body };
}

const json = (value: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(value),
});

type Delivery = { id: string; status: string };

async function deliveries(base: string, admin: string): Promise<Delivery[]> {
  const r = await call(`${base}/api/v1/projects/example/deliveries`, { token: admin });
  if (r.status !== 200) fail(`the deliveries list answered ${r.status}: ${JSON.stringify(r.body)}`);
  return (r.body.data?.deliveries ?? []) as Delivery[];
}

/** The sweep sends what waited past its grace (two minutes): it is run as it will run this much later. */
const SWEEP_LATER_MS = 3 * 60_000;

/**
 * Waits until the receiver has `count` distinct deliveries, each signed with the secret. The
 * minute's sweep is run now and then (wrangler dev runs no cron by itself): a release before
 * 0019 leaves its deliveries to it (0025_webhooks_beside_targets), which sends them within three
 * minutes of the post.
 */
async function delivered(
  base: string,
  admin: string,
  hook: { received: Received[] },
  secret: string,
  count: number,
) {
  const deadline = Date.now() + 90_000;
  let swept = 0;
  const ids = () => new Set(hook.received.map((r) => r.headers['webhook-id']));
  while (ids().size < count && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    if (Date.now() - swept > 5000) {
      swept = Date.now();
      // As it runs three minutes on (past its two minutes' grace): what a deployment sees then.
      // Miniflare's own trigger takes the time; wrangler's `--test-scheduled` route does not.
      const time = Date.now() + SWEEP_LATER_MS;
      await fetch(
        `${base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent('* * * * *')}&time=${time}`,
      ).then((r) => r.arrayBuffer());
    }
  }
  if (ids().size !== count) {
    const spam = await call(`${base}/api/v1/projects/example/submissions?spam=include`, { token: admin });
    fail(
      `${count} deliveries expected, ${ids().size} received; the deliveries: ${JSON.stringify(await deliveries(base, admin))}; spam: ${JSON.stringify(spam.body.data)}`,
    );
  }
  check(true, `${count} deliveries received by the webhook`);
  const verifier = new Webhook(secret);
  for (const r of hook.received) verifier.verify(r.body, r.headers);
  check(true, 'each signed with the webhook secret (Standard Webhooks)');
}

/** What a person's browser sends with a post: the filter judges the text, not a script's agent (C39). */
const BROWSER = {
  'User-Agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Accept-Language': 'en-GB,en;q=0.9',
};

async function exercise(label: string, base: string, admin: string, key: string) {
  step(`${label}: a JSON submission, a form post, the read API, the management API`);
  const message = 'Could we book a table for four on Friday at seven? Thank you';
  const sent = json({ name: `Ada (${label})`, email: 'ada@example.com', message });
  const submitted = await call(`${base}/api/v1/submit`, {
    ...sent,
    headers: { ...BROWSER, 'Content-Type': 'application/json' },
    token: key,
  });
  check(submitted.status === 201, `a JSON submission is accepted (${submitted.status})`);
  const form = new FormData();
  form.set('name', `Grace (${label})`);
  form.set('email', 'grace@example.com');
  form.set('message', 'Please call me back about the quote for the kitchen.');
  const posted = await call(`${base}/f/f_example`, {
    method: 'POST',
    body: form,
    headers: { ...BROWSER, Accept: 'application/json' },
  });
  check(posted.status === 201, `an HTML form post is accepted (${posted.status})`);
  const projects = await call(`${base}/api/v1/projects`, { token: admin });
  const names = ((projects.body.data?.projects ?? []) as { id: string }[]).map((p) => p.id);
  check(projects.status === 200 && names.includes('example'), 'the management API lists the project');
}

async function readAll(base: string, secret: string): Promise<string[]> {
  const r = await call(`${base}/api/v1/submissions?limit=100&order=asc`, { token: secret });
  if (r.status !== 200) fail(`the read API answered ${r.status}: ${JSON.stringify(r.body)}`);
  return ((r.body.data?.submissions ?? []) as { fields: { name?: string } }[]).map(
    (s) => s.fields.name ?? '',
  );
}

const given = process.argv[2];
const from = previous(given);
const work = mkdtempSync(join(tmpdir(), 'forms-upgrade-'));
const old = join(work, 'previous');
const state = join(work, 'state');
const children: ChildProcess[] = [];
let shown: (() => string) | undefined;
const hook = await receiver();
try {
  step(`the previous release: ${from.name} (${from.commit.slice(0, 7)}), into ${old}`);
  spawnSync('mkdir', ['-p', old]);
  const archive = spawnSync('sh', ['-c', `git archive ${from.commit} | tar -x -C '${old}'`], { cwd: ROOT });
  if (archive.status !== 0) fail(`git archive ${from.commit} failed: ${String(archive.stderr)}`);
  step('npm install (the previous release)');
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], old);

  step("this tree's migrations, applied to fresh databases (every place's)");
  const { close } = await openDatabase({ remote: false, persistTo: state });
  await close();

  const port = await freePort();
  step(`the previous release's npm run dev on them`);
  const before = await dev(old, state, port);
  children.push(before.child);
  shown = before.log;
  const admin = devVar('ADMIN_TOKEN', old) ?? fail('the previous release made no ADMIN_TOKEN');
  const key = readFileSync(join(state, 'example-key'), 'utf8').trim();
  const added = await call(`${before.base}/api/v1/projects/example/webhooks`, {
    ...json({ url: hook.url }),
    token: admin,
  });
  check(added.status === 201, `a webhook is added through the management API (${added.status})`);
  // Judged and marked, still delivered: this is about the upgrade, not about what the filter holds.
  const marking = await call(`${before.base}/api/v1/projects/example`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ spamFilter: { mode: 'mark' } }),
    token: admin,
  });
  check(marking.status === 200, `the spam filter set to mark, not hold (${marking.status})`);
  const hookSecret = String(added.body.data?.secret ?? fail('no webhook secret in the reply'));
  const secretKey = await call(`${before.base}/api/v1/projects/example/keys`, {
    ...json({ kind: 'secret' }),
    token: admin,
  });
  check(secretKey.status === 201, `a secret key is made (${secretKey.status})`);
  const secret = String(
    secretKey.body.data?.key ?? fail(`no key in the reply: ${JSON.stringify(secretKey.body)}`),
  );
  await exercise(from.name, before.base, admin, key);
  const readBefore = await readAll(before.base, secret);
  check(readBefore.length === 2, `the read API gives the two submissions (${readBefore.join(', ')})`);
  await delivered(before.base, admin, hook, hookSecret, 2);
  await stop(before.child);

  step("this tree's npm run dev on the same databases");
  const after = await dev(ROOT, state, port);
  children.push(after.child);
  shown = after.log;
  const adminNow = devVar('ADMIN_TOKEN', ROOT) ?? fail('this tree made no ADMIN_TOKEN');
  const readAfter = await readAll(after.base, secret);
  check(
    JSON.stringify(readAfter) === JSON.stringify(readBefore),
    'the read API serves what the previous release wrote, with the key it made',
  );
  const keyNow = readFileSync(join(state, 'example-key'), 'utf8').trim();
  await exercise('this tree', after.base, adminNow, keyNow);
  check((await readAll(after.base, secret)).length === 4, 'the read API gives all four submissions');
  await delivered(after.base, adminNow, hook, hookSecret, 4);
  // The receiver has the fourth before the worker has written its answer down: its record is read
  // again for a few seconds, as an owner would see it settle.
  const settled = (ds: { status: string }[]) => ds.length === 4 && ds.every((d) => d.status === 'delivered');
  let listed = await deliveries(after.base, adminNow);
  for (const until = Date.now() + 15_000; !settled(listed) && Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 250));
    listed = await deliveries(after.base, adminNow);
  }
  check(
    listed.length === 4 && listed.every((d) => d.status === 'delivered'),
    `no delivery left pending (${listed.map((d) => d.status).join(', ')})`,
  );
  step(`passed: ${from.name} → this tree`);
} catch (error) {
  if (shown !== undefined) console.error(`The last lines of npm run dev:\n${shown().slice(-3000)}`);
  throw error;
} finally {
  for (const child of children) await stop(child);
  hook.server.close();
  if (process.env.UPGRADE_KEEP === undefined) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}
