// C26 as a user runs it: `npm run dev` (whose queue runs locally), a webhook added with the tool,
// and a real HTTP receiver on 127.0.0.1 that fails its first three calls and then accepts. The
// retry schedule is shortened with WEBHOOK_RETRY_DELAYS, as a user may set it.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, receiverOnLoopback, spawnForms, startDev, tempDir } from './helpers.ts';

const dir = tempDir('webhooks');
let port = 0;
let dev: ChildProcess | undefined;
let devLog: () => string = () => '';
// Fails its first three calls, then accepts.
const hook = receiverOnLoopback();
hook.answer = (_path, before) => (before.length < 3 ? 500 : 200);
const calls = hook.received;

async function forms(...args: string[]) {
  const result = await spawnForms(['--persist-to', dir, ...args]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

beforeAll(async () => {
  port = await freePort();
  const started = await startDev(dir, port, ['--var', 'WEBHOOK_RETRY_DELAYS:1,1,1,1,1']);
  dev = started.process;
  devLog = started.log;
});

afterAll(() => {
  if (dev?.pid) process.kill(-dev.pid, 'SIGTERM');
});

describe('C26: a webhook on npm run dev', () => {
  it('fails three times, then receives the submission once per webhook-id, signed; the tool shows the four attempts', async () => {
    const added = JSON.parse(await forms('webhook', 'add', 'example', hook.url, '--json')) as {
      webhookId: string;
      secret: string;
      url: string;
    };
    expect(added).toEqual({
      webhookId: expect.stringMatching(/^wh_/),
      kind: 'webhook',
      secret: expect.stringMatching(/^whsec_/),
      url: hook.url,
    });
    const key = readFileSync(`${dir}/example-key`, 'utf8').trim();
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/submit`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', phone: 1 }),
    });
    expect(res.status).toBe(201);
    const deadline = Date.now() + 60_000;
    while (!calls.some((c) => c.answered === 200) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
    }
    await new Promise((r) => setTimeout(r, 3000)); // nothing more should come
    expect(calls.map((c) => c.answered)).toEqual([500, 500, 500, 200]);
    expect(new Set(calls.map((c) => c.headers['webhook-id'])).size).toBe(1);
    const last = calls.at(-1);
    const event = new Webhook(added.secret).verify(last?.body ?? '', last?.headers ?? {}) as {
      type: string;
      data: { fields: unknown };
    };
    expect(event.type).toBe('submission.created');
    expect(event.data.fields).toEqual({ name: 'Ada', phone: 1 });

    const listed = JSON.parse(await forms('deliveries', 'list', 'example', '--json')) as {
      deliveries: { id: string; status: string; attempts: number; attemptLog: { statusCode: number }[] }[];
    };
    expect(listed.deliveries).toHaveLength(1);
    expect(listed.deliveries[0]).toMatchObject({
      id: last?.headers['webhook-id'],
      status: 'delivered',
      attempts: 4,
    });
    expect(listed.deliveries[0]?.attemptLog.map((a) => a.statusCode)).toEqual([500, 500, 500, 200]);
    const text = await forms('deliveries', 'list', 'example');
    expect(text).toMatch(/^DELIVERY\s+SUBMISSION\s+TARGET\s+STATE\s+ATTEMPTS\s+LAST\s+NEXT ATTEMPT\n/);
    expect(text).toContain('delivered');
  });

  it('webhook test sends a signed webhook.test event now and prints the answer; list shows no secret', async () => {
    const { webhooks } = JSON.parse(await forms('webhook', 'list', 'example', '--json')) as {
      webhooks: { webhookId: string; url: string; state: string }[];
    };
    expect(webhooks).toHaveLength(1);
    expect(JSON.stringify(webhooks)).not.toContain('whsec_');
    const before = calls.length;
    const tested = JSON.parse(
      await forms('webhook', 'test', 'example', webhooks[0]?.webhookId ?? '', '--json'),
    );
    expect(tested).toMatchObject({ status: 200, excerpt: 'answered 200', error: null });
    expect(calls).toHaveLength(before + 1);
    expect(JSON.parse(calls.at(-1)?.body ?? '{}')).toMatchObject({ type: 'webhook.test' });
  });
});

describe('C27: an email notification on npm run dev', () => {
  it('is written by wrangler’s local send_email as plain text with the fields, and shown as delivered', async () => {
    const added = JSON.parse(
      await forms('notify', 'add', 'example', 'owner@example.com', '--reply-to-field', 'email', '--json'),
    ) as { notificationId: string };
    expect(added).toMatchObject({ notificationId: expect.stringMatching(/^em_/), replyToField: 'email' });
    const key = readFileSync(`${dir}/example-key`, 'utf8').trim();
    const logBefore = devLog().length;
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/submit`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Grace', email: 'grace@example.com', phone: 7, message: 'Hi\nthere' }),
    });
    expect(res.status).toBe(201);
    const deadline = Date.now() + 60_000;
    let path: string | undefined;
    while (path === undefined && Date.now() < deadline) {
      path = /Text: (\S+\.txt)/.exec(devLog().slice(logBefore))?.[1];
      if (path === undefined) await new Promise((r) => setTimeout(r, 250));
    }
    expect(path, devLog().slice(logBefore)).toBeDefined();
    const text = readFileSync(path ?? '', 'utf8');
    expect(text).toContain('name: Grace\nemail: grace@example.com\nphone: 7\nmessage: Hi\n  there\n');
    const logged = devLog().slice(logBefore);
    expect(logged).toContain('To: owner@example.com');
    expect(logged).toMatch(/Subject: New submission: /);

    const listed = JSON.parse(await forms('deliveries', 'list', 'example', '--json')) as {
      deliveries: { id: string; submissionId: string; status: string; attempts: number }[];
    };
    const email = listed.deliveries.find((d) => d.id.endsWith(`.${added.notificationId}`));
    expect(email).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(text).toContain(`Submission ${email?.submissionId}, received `);
  });
});
