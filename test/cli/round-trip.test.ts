// C19: the round trip, as a user runs it: `npm run dev` in one process, `npm run forms` in others.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_HINT } from '../../src/http/hints.ts';
import { freePort, spawnForms, startDev, tempDir } from './helpers.ts';

const dir = tempDir('round-trip');
let port = 0;
let dev: ChildProcess | undefined;
let devLog = '';

async function post(key: string, body: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/submit`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: { errors?: string[] } } };
}

async function forms(...args: string[]) {
  const result = await spawnForms(['--persist-to', dir, ...args]);
  expect(result.stderr.replace(/^.*wrangler.*$|^─+$/gm, '').trim()).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

beforeAll(async () => {
  port = await freePort();
  // A one-second configuration cache, so the revocation below shows within the test.
  const started = await startDev(dir, port, ['--var', 'CONFIG_CACHE_SECONDS:1']);
  dev = started.process;
  devLog = started.log();
});

afterAll(() => {
  if (dev?.pid) process.kill(-dev.pid, 'SIGTERM');
});

describe('round trip: create → submit over HTTP → export; revoke → 401', () => {
  it('npm run dev prints a working key and curl line for the example project', async () => {
    const key = /API key +(edgeform_pk_\w{32})/.exec(devLog)?.[1];
    expect(key).toBeDefined();
    expect(devLog).toContain(`curl -i http://127.0.0.1:${port}/api/v1/submit`);
    // At most 80 lines to ready, the key, the addresses and the curl line last, where the eye lands.
    const lines = devLog.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(80);
    const tail = lines.slice(-12).join('\n');
    expect(tail).toContain(`API key        ${key}`);
    expect(tail).toContain(`HTML form      http://127.0.0.1:${port}/f/f_example`);
    expect(tail).toContain(`API reference  http://127.0.0.1:${port}/reference/`);
    expect(tail).toContain(
      `Dashboard      http://127.0.0.1:${port}/admin/   (sign in with ADMIN_TOKEN from .dev.vars`,
    );
    expect(lines.at(-1)).toMatch(/^ {2}-d '\{"name":"Ada Lovelace"/);
    expect(readFileSync(`${dir}/example-key`, 'utf8').trim()).toBe(key);
    const res = await post(key ?? '', { name: 'Ada', phone: 1, enquiry: true });
    expect(res).toEqual({
      status: 201,
      body: { data: { message: 'Submission received' }, status: { code: 201, message: 'Created' } },
    });
  });

  it('a project created while the server runs works at once; export shows the submission; revoke stops the key', async () => {
    const created = JSON.parse(
      await forms(
        'project',
        'create',
        'Contact',
        '--field',
        'name:string',
        '--field',
        'email:string:required',
        '--json',
      ),
    ) as { projectId: string; apiKey: string };
    expect(Object.keys(created)).toEqual(expect.arrayContaining(['projectId', 'apiKey']));

    const sent = { name: 'Grace', email: 'grace@example.com' };
    expect((await post(created.apiKey, sent)).status).toBe(201);
    expect((await post(created.apiKey, { name: 'no email' })).body.data.errors).toEqual([
      "Field 'email' is required",
    ]);

    const exported = (await forms('submissions', 'export', created.projectId)).trimEnd().split('\n');
    expect(exported).toHaveLength(1);
    const [row] = exported.map((l) => JSON.parse(l));
    expect(row.fields).toEqual(sent);
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);

    await forms('key', 'revoke', created.projectId, created.apiKey.slice(0, 20));
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the cache time (README: Settings)
    const refused = await post(created.apiKey, sent);
    expect(refused).toEqual({
      status: 401,
      body: {
        data: {
          message: 'Authentication failed',
          error: { message: 'Invalid API key', code: 'invalid_key' },
          hint: KEY_HINT,
        },
        status: { code: 401, message: 'Unauthorized' },
      },
    });
    expect((await forms('submissions', 'export', created.projectId)).trimEnd().split('\n')).toHaveLength(1);
  });

  it('C23 + C24: a secret key made with the tool pages through the example project; its publishable key gets 403', async () => {
    const exampleKey = readFileSync(`${dir}/example-key`, 'utf8').trim();
    for (const name of ['Ada', 'Grace', 'Hedy']) expect((await post(exampleKey, { name })).status).toBe(201);
    const { apiKey: secret, kind } = JSON.parse(
      await forms('key', 'create', 'example', '--secret', '--json'),
    );
    expect(kind).toBe('secret');
    const page = async (key: string, query: string) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/submissions?${query}`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      return {
        status: res.status,
        body: (await res.json()) as {
          data: { submissions?: { fields: { name: string } }[]; nextCursor?: string };
        },
      };
    };
    const names: string[] = [];
    let query = 'limit=2';
    for (let i = 0; i < 10; i++) {
      const { status, body } = await page(secret, query);
      expect(status).toBe(200);
      names.push(...(body.data.submissions ?? []).map((s) => s.fields.name));
      if (body.data.nextCursor === undefined) break;
      query = `limit=2&cursor=${encodeURIComponent(body.data.nextCursor)}`;
    }
    expect(names.slice(-3)).toEqual(['Ada', 'Grace', 'Hedy']);
    expect((await page(exampleKey, 'limit=2')).status).toBe(403);
  });
});
