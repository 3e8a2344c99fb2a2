// C19 + C32: every operation the same through the tool on a database and through the management
// API (`--url`): the same commands, on a project of a local database and on one of `npm run dev`,
// print the same JSON and the same refusals, but for the ids, keys, secrets and times each run
// makes. (Two databases: two workerd processes writing one SQLite file would wait on each other.)
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/lib/ids.ts';
import { insertSubmission } from '../../src/store/intake.ts';
import { indexSubmissions } from '../../src/store/search.ts';
import { type Database, openDatabase } from '../../toolkit/database.ts';
import { devVar } from '../../toolkit/dev-vars.ts';
import { LOGOS, SVG } from '../logos.ts';
import {
  freePort,
  inProcess,
  judgeStored,
  type Result,
  receiverOnLoopback,
  startDev,
  tempDir,
} from './helpers.ts';

const dir = tempDir('remote');
// C44: a logo and an SVG the page may not have, as files the tool reads.
const LOGO_FILE = join(tempDir('remote-files'), 'logo.png');
const SVG_FILE = join(dirname(LOGO_FILE), 'logo.svg');
writeFileSync(LOGO_FILE, LOGOS['image/png']);
writeFileSync(SVG_FILE, SVG);
let dev: ChildProcess | undefined;
let database: Database | undefined;
let base = '';
const hook = receiverOnLoopback();

/** The tool with `--url`, its token in FORMS_ADMIN_TOKEN, in this process (no database opened). */
const viaUrl = (env: Record<string, string | undefined>, ...argv: string[]): Promise<Result> =>
  inProcess(database as Database, { env })('--url', base, ...argv);

beforeAll(async () => {
  const port = await freePort();
  dev = (await startDev(dir, port)).process;
  base = `http://127.0.0.1:${port}`;
  database = await openDatabase({ remote: false, persistTo: tempDir('remote-local') });
}, 120_000);

afterAll(async () => {
  await database?.close();
  if (dev?.pid) process.kill(-dev.pid, 'SIGTERM');
});

/** What differs between two runs of the same commands: ids, keys, secrets, times, the actor. */
function normalised(text: string): string {
  return (
    text
      .replace(/edgeform_(pk|sk)_[A-Za-z0-9]{32}/g, 'edgeform_$1_KEY')
      .replace(/edgeform_(pk|sk)_[A-Za-z0-9]{8}/g, 'edgeform_$1_PREFIX')
      .replace(/whsec_[A-Za-z0-9+/=]+/g, 'whsec_SECRET')
      .replace(/\b(p|f|wh|em)_[a-z2-7]{12}\b/g, '$1_ID')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
      .replace(/test_[0-9a-f-]{36}/g, 'test_ID')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'TIME')
      .replace(/"durationMs":\d+/g, '"durationMs":N')
      .replace(/(actor\\?":\\?")(tool|operator)/g, '$1ME')
      // Where the tool's own user looks next (`see: forms project list`) is the tool's, not the API's.
      .replace(/ \((?:see: forms|add it with: forms)[^)]*\)/g, '')
  );
}

describe('C19 + C32: the tool and the management API give the same results', () => {
  it('each command prints the same JSON, or the same refusal, through the database and through --url', async () => {
    const token = devVar('ADMIN_TOKEN');
    expect(token?.length).toBeGreaterThanOrEqual(43);
    const local = inProcess(database as Database);
    const remote = (...argv: string[]) => viaUrl({ FORMS_ADMIN_TOKEN: token }, ...argv);
    const runs = {
      local: { run: local, project: '', key: '', hook: '', id: '' },
      remote: { run: remote, project: '', key: '', hook: '', id: '' },
    };
    for (const mode of ['local', 'remote'] as const) {
      const created = await runs[mode].run(
        '--json',
        'project',
        'create',
        'Same',
        '--field',
        'email:string:required:format=email',
        '--field',
        'message:string',
        '--origin',
        'https://example.com',
      );
      expect(created.code, created.stderr).toBe(0);
      const json = JSON.parse(created.stdout) as { projectId: string; apiKey: string };
      runs[mode].project = json.projectId;
      runs[mode].key = json.apiKey;
    }
    type Step = (r: { project: string; hook: string; id: string }) => string[];
    const compare = async (steps: Step[]) => {
      for (const step of steps) {
        const outputs: string[] = [];
        for (const mode of ['local', 'remote'] as const) {
          const r = runs[mode];
          const args = step(r);
          const json = args[0] === '--raw' ? [] : ['--json'];
          const result = await r.run(...json, ...args.filter((a) => a !== '--raw'));
          if (args[0] === 'webhook' && args[1] === 'add' && result.code === 0) {
            r.hook = (JSON.parse(result.stdout) as { webhookId: string }).webhookId;
          }
          outputs.push(
            normalised(JSON.stringify({ code: result.code, stdout: result.stdout, stderr: result.stderr })),
          );
        }
        expect(outputs[1], step({ project: 'P', hook: 'H', id: 'ID' }).join(' ')).toBe(outputs[0]);
      }
    };
    const steps: Step[] = [
      ({ project: p }) => ['project', 'show', p],
      ({ project: p }) => ['project', 'schema', p],
      ({ project: p }) => ['field', 'add', p, 'topic:string:oneOf=sales|support'],
      ({ project: p }) => ['field', 'add', p, 'topic:string'],
      ({ project: p }) => ['field', 'set', p, 'topic:integer:minimum=1'],
      ({ project: p }) => ['field', 'set', p, 'nope:string'],
      ({ project: p }) => ['field', 'remove', p, 'topic'],
      ({ project: p }) => ['field', 'add', p, 'bad:string:maxLength=-1'],
      // C44: what a field shows, the hosted page and its logo, and their refusals.
      ({ project: p }) => [
        'field',
        'set',
        p,
        'email:string:required',
        '--label',
        'EN=Your email',
        '--help',
        'de=Hilfe',
      ],
      ({ project: p }) => ['field', 'set', p, 'email:string:required:format=email', '--no-help'],
      ({ project: p }) => ['field', 'set', p, 'email:string', '--label', 'en_US=Email'],
      ({ project: p }) => ['page', 'set', p, '--on', '--languages', 'de,en', '--title', 'de=Kontakt'],
      ({ project: p }) => ['page', 'set', p, '--accent', 'red'],
      ({ project: p }) => ['page', 'logo', p, LOGO_FILE],
      ({ project: p }) => ['page', 'logo', p, SVG_FILE],
      ({ project: p }) => ['page', 'show', p],
      ({ project: p }) => ['project', 'schema', p],
      ({ project: p }) => ['page', 'logo', p, '--remove'],
      ({ project: p }) => ['page', 'logo', p, '--remove'],
      ({ project: p }) => ['origin', 'add', p, 'https://Other.example/'],
      ({ project: p }) => ['origin', 'add', p, 'not-an-origin'],
      ({ project: p }) => ['origin', 'remove', p, 'https://other.example'],
      ({ project: p }) => ['key', 'create', p, '--secret'],
      ({ project: p }) => ['key', 'list', p],
      ({ project: p }) => ['project', 'set', p, '--retention-days', '30'],
      ({ project: p }) => ['notify', 'add', p, 'owner@example.com', '--reply-to-field', 'email'],
      ({ project: p }) => ['notify', 'list', p],
      ({ project: p }) => ['notify', 'add', p, 'owner@example.com'],
      ({ project: p }) => ['notify', 'remove', p, 'owner@example.com'],
      ({ project: p }) => ['webhook', 'add', p, hook.url],
      ({ project: p }) => ['webhook', 'list', p],
      ({ project: p, hook }) => ['webhook', 'disable', p, hook],
      ({ project: p, hook }) => ['webhook', 'enable', p, hook],
      ({ project: p, hook }) => ['webhook', 'test', p, hook],
      ({ project: p }) => ['webhook', 'remove', p, 'wh_nosuchhookx'],
      ({ project: p, hook }) => ['webhook', 'remove', p, hook],
      () => ['project', 'show', 'p_nosuchprojec'],
    ];
    await compare(steps);

    // A submission to each: to the worker over HTTP from the allowed origin (its queue indexes it
    // for search), and into the local database as the worker would store and index it.
    const fields = { email: 'ada@example.com', message: 'Analytical engines' };
    const res = await fetch(`${base}/api/v1/submit`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${runs.remote.key}`,
        'Content-Type': 'application/json',
        Origin: 'https://example.com',
        // A person's browser (C39: a script's request would weigh towards spam, and the local
        // row, stored as the worker would, says nothing of its request).
        'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
        'Accept-Language': 'en',
      },
      body: JSON.stringify(fields),
    });
    expect(res.status).toBe(201);
    runs.local.id = uuidv7();
    const db = (database as Database).db;
    await insertSubmission(db.$client, {
      id: runs.local.id,
      projectId: runs.local.project,
      data: JSON.stringify(fields),
      receivedAt: new Date().toISOString(),
    });
    // What the worker's consumer does with it (C39, C34): judged, and its words indexed.
    await judgeStored(db, [runs.local.id]);
    await indexSubmissions(db, [runs.local.id]);
    for (let i = 0; i < 100 && runs.remote.id === ''; i++) {
      const found = JSON.parse(
        (await remote('--json', 'inbox', 'list', runs.remote.project, '--search', 'analyt')).stdout,
      ) as { submissions: { id: string }[] };
      runs.remote.id = found.submissions[0]?.id ?? '';
      if (runs.remote.id === '') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(runs.remote.id).not.toBe('');
    await compare([
      ({ project: p }) => ['inbox', 'list', p],
      ({ project: p }) => ['inbox', 'list', p, '--search', 'analyt engine'],
      ({ project: p }) => ['inbox', 'list', p, '--search', 'nothing'],
      ({ project: p, id }) => ['inbox', 'mark', p, id, '--as', 'star'],
      ({ project: p, id }) => ['inbox', 'show', p, id],
      ({ project: p }) => ['inbox', 'list', p, '--unread', '--starred'],
      ({ project: p }) => ['inbox', 'mark', p, 'not-a-uuid', '--as', 'read'],
      ({ project: p }) => ['stats', p, '--days', '2'],
      ({ project: p }) => ['--raw', 'submissions', 'export', p, '--format', 'csv'],
      ({ project: p }) => ['submissions', 'export', p],
      ({ project: p }) => ['deliveries', 'list', p],
      ({ project: p }) => ['search', 'rebuild', p],
      ({ project: p }) => ['audit', p, '--limit', '5'],
      ({ project: p }) => ['submissions', 'erase', p, '--field', 'email', '--value', 'ada@example.com'],
      ({ project: p }) => ['inbox', 'list', p],
      ({ project: p }) => ['project', 'delete', p, '--yes'],
      ({ project: p }) => ['project', 'show', p],
    ]);
  });

  it('--url takes the token from FORMS_ADMIN_TOKEN only, never plain http to another host; a wrong token is the worker’s 401', async () => {
    const noToken = await viaUrl({}, 'project', 'list');
    expect(noToken).toMatchObject({
      code: 2,
      stderr: 'forms: --url needs the operator token (or a secret key) in FORMS_ADMIN_TOKEN\n',
    });
    const wrong = await viaUrl({ FORMS_ADMIN_TOKEN: 'not-the-token' }, 'project', 'list');
    expect(wrong).toMatchObject({ code: 1, stderr: 'forms: the worker answered 401: Invalid credentials\n' });
    const clear = await inProcess(database as Database, { env: { FORMS_ADMIN_TOKEN: 'x' } })(
      '--url',
      'http://forms.example.com',
      'project',
      'list',
    );
    expect(clear.code).toBe(2);
  });
});
