// C26: `forms webhook …` and `forms deliveries …` against a temporary local database, with a real
// HTTP receiver on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, webhooks } from '../../schema/tables.ts';
import type { Database } from '../../scripts/database.ts';
import { MAX_WEBHOOKS } from '../../scripts/webhooks.ts';
import { writeOutbox } from '../../src/store/deliveries.ts';
import { insertSubmissions } from '../../src/store/submissions.ts';
import { inProcess, openTemp, type Result, snapshot } from './helpers.ts';

let database: Database;
let forms: (...argv: string[]) => Promise<Result>;
let server: Server;
let url = '';
let answer = 200;
let answerBody: string | undefined;
const received: { headers: Record<string, string>; body: string }[] = [];

beforeAll(async () => {
  database = await openTemp('webhooks');
  forms = inProcess(database);
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(answer).end(answerBody ?? `answered ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
});
afterAll(async () => {
  server.close();
  await database.close();
});

async function json<T>(...argv: string[]): Promise<T> {
  const result = await forms(...argv, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

async function expectRefused(argv: string[], message: RegExp) {
  const before = await snapshot(database);
  const result = await forms(...argv);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(message);
  expect(await snapshot(database)).toBe(before);
}

async function project() {
  return json<{ projectId: string }>('project', 'create', 'Hooks', '--field', 'name:string');
}

describe('forms webhook', () => {
  it('C26: add prints the id and the secret once; list never shows a secret; remove removes it', async () => {
    const p = await project();
    const added = await json<{ webhookId: string; secret: string; url: string }>(
      'webhook',
      'add',
      p.projectId,
      url,
    );
    expect(added).toEqual({
      webhookId: expect.stringMatching(/^wh_[a-z2-7]{12}$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      url,
    });
    const text = await forms('webhook', 'add', p.projectId, 'https://hooks.example/x');
    expect(text.stdout).toMatch(
      /^Added webhook wh_\w+ → https:\/\/hooks\.example\/x\nSigning secret \(shown once; verify deliveries with it\): whsec_\S+\n$/,
    );
    const listed = await json<{ webhooks: { webhookId: string; state: string }[] }>(
      'webhook',
      'list',
      p.projectId,
    );
    expect(listed.webhooks.map((w) => w.state)).toEqual(['active', 'active']);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    expect((await forms('webhook', 'list', p.projectId)).stdout).not.toContain('whsec_');
    await json('webhook', 'remove', p.projectId, added.webhookId);
    expect((await json<{ webhooks: unknown[] }>('webhook', 'list', p.projectId)).webhooks).toHaveLength(1);
  });

  it.each([
    ['not-a-url', /not a URL/],
    ['http://hooks.example/x', /a webhook URL is https/],
    ['ftp://hooks.example/x', /a webhook URL is https/],
  ])('C26: add refuses %s', async (bad, message) => {
    const p = await project();
    await expectRefused(['webhook', 'add', p.projectId, bad], message);
  });

  it.each([
    ['https://169.254.169.254/latest/meta-data', /a linkLocal address is not a public host/],
    ['https://10.0.0.1/', /a private address is not a public host/],
    ['https://[::ffff:127.0.0.1]/', /an IPv4-mapped IPv6 address is not a public host/],
    ['https://2130706433/', /a loopback address is not a public host/],
    ['https://0x7f.1/', /a loopback address is not a public host/],
    ['https://0177.0.0.1/', /a loopback address is not a public host/],
    ['https://100.64.0.1/', /a carrierGradeNat address is not a public host/],
    ['https://[fd00::1]/', /a uniqueLocal address is not a public host/],
    ['https://[::1]/', /a loopback address is not a public host/],
    ['https://metadata.google.internal/', /'metadata.google.internal' is not a public host/],
    ['https://localhost/', /'localhost' is not a public host/],
    ['https://api.localhost/', /'api.localhost' is not a public host/],
    ['https://printer.local/', /'printer.local' is not a public host/],
    ['https://user:pass@hooks.example/x', /a URL with credentials in it is refused/],
  ])('C26: add refuses %s, in one line, and changes nothing', async (bad, message) => {
    const p = await project();
    const before = await snapshot(database);
    const result = await forms('webhook', 'add', p.projectId, bad);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(await snapshot(database)).toBe(before);
  });

  it('C26: a stored destination that is not public is never sent to: webhook test refuses, redeliver records why', async () => {
    const p = await project();
    const id = 'wh_storedbefore';
    // Stored before the rule (or written by hand): the tool and the worker check it before each request.
    await database.db.insert(webhooks).values({
      id,
      projectId: p.projectId,
      url: 'https://169.254.169.254/latest/meta-data',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      createdAt: new Date().toISOString(),
    });
    const sent = received.length;
    await expectRefused(['webhook', 'test', p.projectId, id], /cannot be sent to: a linkLocal address/);
    const submissionId = '01a00000-0000-7000-8000-0000000000a1';
    await insertSubmissions(database.db, [
      {
        id: submissionId,
        projectId: p.projectId,
        data: '{}',
        receivedAt: new Date().toISOString(),
        outbox: 1,
      },
    ]);
    const redelivered = await json<{ redelivered: { kind: string; error: string }[] }>(
      'deliveries',
      'redeliver',
      p.projectId,
      `${submissionId}.${id}`,
    );
    expect(redelivered.redelivered).toEqual([
      expect.objectContaining({ kind: 'retry', error: 'a linkLocal address is not a public host' }),
    ]);
    expect(received.length).toBe(sent);
  });

  it('C19: webhook test prints a receiver’s answer with its escape codes made visible, never raw', async () => {
    const p = await project();
    const added = await json<{ webhookId: string }>('webhook', 'add', p.projectId, url);
    answer = 200;
    answerBody = '\u001b]0;pwned\u0007\u001b[31mred\u009b2J\nforged line';
    try {
      const text = await forms('webhook', 'test', p.projectId, added.webhookId);
      expect(text.code).toBe(0);
      expect(text.stdout).not.toMatch(/(?!\n)\p{Cc}/u);
      expect(text.stdout).toContain('\\x1b]0;pwned\\x07\\x1b[31mred\\x9b2J\\nforged line');
      expect(text.stdout.trimEnd().split('\n')).toHaveLength(1);
      const asJson = await forms('webhook', 'test', p.projectId, added.webhookId, '--json');
      expect(asJson.stdout).not.toMatch(/(?!\n)\p{Cc}/u);
      expect((JSON.parse(asJson.stdout) as { excerpt: string }).excerpt).toBe(answerBody);
    } finally {
      answerBody = undefined;
    }
  });

  it('C26: enable turns a webhook disabled by 410 on again; its cancelled deliveries go again with redeliver --failed', async () => {
    const p = await project();
    const added = await json<{ webhookId: string }>('webhook', 'add', p.projectId, url);
    const ids = ['01a00000-0000-7000-8000-0000000000b1', '01a00000-0000-7000-8000-0000000000b2'];
    await insertSubmissions(
      database.db,
      ids.map((id) => ({
        id,
        projectId: p.projectId,
        data: '{}',
        receivedAt: new Date().toISOString(),
        outbox: 1 as const,
      })),
    );
    await writeOutbox(database.db, ids);
    answer = 410;
    const gone = await json<{ redelivered: { kind: string }[] }>(
      'deliveries',
      'redeliver',
      p.projectId,
      `${ids[0]}.${added.webhookId}`,
    );
    expect(gone.redelivered.map((r) => r.kind)).toEqual(['failed']);
    expect((await forms('webhook', 'list', p.projectId)).stdout).toMatch(/disabled \S+ \(410 Gone\)/);
    const failed = await json<{ deliveries: { status: string; lastError: string | null }[] }>(
      'deliveries',
      'list',
      p.projectId,
      '--failed',
    );
    expect(failed.deliveries.map((d) => d.status).sort()).toEqual(['cancelled', 'failed']);
    // Disabled: a redelivery says so, and sends nothing.
    const sent = received.length;
    const refused = await forms('deliveries', 'redeliver', p.projectId, `${ids[1]}.${added.webhookId}`);
    expect(refused.stdout).toMatch(
      /not sent: its webhook is disabled \(enable it with: forms webhook enable/,
    );
    expect(received.length).toBe(sent);
    const enabled = await forms('webhook', 'enable', p.projectId, added.webhookId);
    expect(enabled.stdout).toContain(`forms deliveries redeliver ${p.projectId} --failed`);
    answer = 200;
    const again = await json<{ redelivered: { kind: string }[] }>(
      'deliveries',
      'redeliver',
      p.projectId,
      '--failed',
    );
    expect(again.redelivered.map((r) => r.kind)).toEqual(['delivered', 'delivered']);
    await expectRefused(['webhook', 'enable', p.projectId, 'wh_nope'], /has no webhook 'wh_nope'/);
  });

  it(`C26: a project has at most ${MAX_WEBHOOKS} webhooks`, async () => {
    const p = await project();
    for (let i = 0; i < MAX_WEBHOOKS; i++)
      await json('webhook', 'add', p.projectId, `https://hooks.example/${i}`);
    await expectRefused(
      ['webhook', 'add', p.projectId, 'https://hooks.example/more'],
      /has 10 webhooks already/,
    );
  });

  it('C26: rotate-secret prints a new secret once; the previous one signs too, for 24 hours', async () => {
    const p = await project();
    const added = await json<{ webhookId: string; secret: string }>('webhook', 'add', p.projectId, url);
    const rotated = await json<{ secret: string; previousUntil: string }>(
      'webhook',
      'rotate-secret',
      p.projectId,
      added.webhookId,
    );
    expect(rotated.secret).not.toBe(added.secret);
    expect(Date.parse(rotated.previousUntil) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    const [row] = await database.db.select().from(webhooks).where(eq(webhooks.id, added.webhookId));
    expect(row).toMatchObject({ secret: rotated.secret, previousSecret: added.secret });
    // webhook test signs with both: either secret verifies.
    answer = 200;
    const tested = await json<{ status: number }>('webhook', 'test', p.projectId, added.webhookId);
    expect(tested.status).toBe(200);
    const last = received.at(-1);
    for (const secret of [added.secret, rotated.secret]) {
      expect(new Webhook(secret).verify(last?.body ?? '', last?.headers ?? {})).toMatchObject({
        type: 'webhook.test',
      });
    }
    await expectRefused(['webhook', 'rotate-secret', p.projectId, 'wh_nope'], /has no webhook 'wh_nope'/);
  });
});

describe('forms deliveries', () => {
  it('C26: list shows each delivery; redeliver attempts again now, one id or every failed one', async () => {
    const p = await project();
    const added = await json<{ webhookId: string; secret: string }>('webhook', 'add', p.projectId, url);
    const rows = ['01a00000-0000-7000-8000-000000000001', '01a00000-0000-7000-8000-000000000002'].map(
      (id) => ({
        id,
        projectId: p.projectId,
        data: '{"name":"Ada"}',
        receivedAt: '2026-11-22T10:00:00.000Z',
        outbox: 1 as const,
      }),
    );
    await insertSubmissions(database.db, rows);
    const listed = await json<{ deliveries: { id: string; status: string; attempts: number }[] }>(
      'deliveries',
      'list',
      p.projectId,
    );
    expect(listed.deliveries.map((d) => [d.id, d.status, d.attempts])).toEqual(
      rows.map((r) => [`${r.id}.${added.webhookId}`, 'pending', 0]),
    );
    // A delivery whose row the worker has yet to write is written, then attempted, from here.
    answer = 200;
    const one = await json<{ redelivered: { deliveryId: string; kind: string }[] }>(
      'deliveries',
      'redeliver',
      p.projectId,
      `${rows[0]?.id}.${added.webhookId}`,
    );
    expect(one.redelivered).toEqual([
      { deliveryId: `${rows[0]?.id}.${added.webhookId}`, kind: 'delivered', status: 200 },
    ]);
    expect(
      new Webhook(added.secret).verify(received.at(-1)?.body ?? '', received.at(-1)?.headers ?? {}),
    ).toMatchObject({
      type: 'submission.created',
    });
    // The other, written by the worker, has failed for good.
    await writeOutbox(database.db, [rows[1]?.id ?? '']);
    await database.db
      .update(deliveries)
      .set({ status: 'failed', attempts: 11 })
      .where(eq(deliveries.id, `${rows[1]?.id}.${added.webhookId}`));
    expect(
      (await json<{ deliveries: unknown[] }>('deliveries', 'list', p.projectId, '--failed')).deliveries,
    ).toHaveLength(1);
    const rest = await json<{ redelivered: { kind: string }[] }>(
      'deliveries',
      'redeliver',
      p.projectId,
      '--failed',
    );
    expect(rest.redelivered.map((r) => r.kind)).toEqual(['delivered']);
    expect(
      (await json<{ deliveries: unknown[] }>('deliveries', 'list', p.projectId, '--failed')).deliveries,
    ).toEqual([]);
    await expectRefused(['deliveries', 'redeliver', p.projectId], /a delivery id or --failed/);
    await expectRefused(
      ['deliveries', 'redeliver', p.projectId, 'x', '--failed'],
      /a delivery id or --failed/,
    );
    await expectRefused(['deliveries', 'redeliver', p.projectId, 'nope'], /has no delivery 'nope'/);
  });
});

describe('forms notify', () => {
  async function contactProject() {
    return json<{ projectId: string }>(
      'project',
      'create',
      'Mail',
      '--field',
      'name:string',
      '--field',
      'email:string',
      '--field',
      'age:integer',
    );
  }

  it('C27: add, list and remove (by id or address); the Reply-To field is one of the string fields', async () => {
    const p = await contactProject();
    const added = await json<{ notificationId: string; address: string; replyToField: string | null }>(
      'notify',
      'add',
      p.projectId,
      'owner@example.com',
      '--reply-to-field',
      'email',
    );
    expect(added).toEqual({
      notificationId: expect.stringMatching(/^em_[a-z2-7]{12}$/),
      address: 'owner@example.com',
      replyToField: 'email',
    });
    const text = await forms('notify', 'add', p.projectId, 'second@example.com');
    expect(text.stdout).toBe(
      `Added email notification ${/em_\w+/.exec(text.stdout)?.[0]} → second@example.com\nReply-To: the address in field 'email', when it holds one\n`,
    );
    const listed = await json<{ replyToField: string; notifications: { address: string }[] }>(
      'notify',
      'list',
      p.projectId,
    );
    expect(listed.replyToField).toBe('email');
    expect(listed.notifications.map((n) => n.address)).toEqual(['owner@example.com', 'second@example.com']);
    // An email address is not a webhook.
    expect((await json<{ webhooks: unknown[] }>('webhook', 'list', p.projectId)).webhooks).toEqual([]);
    await expectRefused(
      ['notify', 'add', p.projectId, 'owner@example.com'],
      /already emails owner@example\.com/,
    );
    await expectRefused(['notify', 'add', p.projectId, 'not an address'], /Invalid email address/);
    await expectRefused(
      ['notify', 'add', p.projectId, 'x@example.com', '--reply-to-field', 'age'],
      /must be one of the project's string fields \(name, email\)/,
    );
    await expectRefused(['webhook', 'remove', p.projectId, added.notificationId], /has no webhook/);
    expect(
      await json<{ removed: string }>('notify', 'remove', p.projectId, 'second@example.com'),
    ).toMatchObject({ address: 'second@example.com' });
    expect(
      await json<{ removed: string }>('notify', 'remove', p.projectId, added.notificationId),
    ).toMatchObject({
      removed: added.notificationId,
    });
    expect((await json<{ notifications: unknown[] }>('notify', 'list', p.projectId)).notifications).toEqual(
      [],
    );
    await expectRefused(['notify', 'remove', p.projectId, 'owner@example.com'], /has no email notification/);
    const set = await json<{ replyToField: string | null }>(
      'project',
      'set',
      p.projectId,
      '--no-reply-to-field',
    );
    expect(set.replyToField).toBeNull();
  });

  it('C27: deliveries list names the address; redeliver gives a failed email back to the worker’s queue', async () => {
    const p = await contactProject();
    const added = await json<{ notificationId: string }>('notify', 'add', p.projectId, 'owner@example.com');
    const row = {
      id: '01a00000-0000-7000-8000-0000000000e1',
      projectId: p.projectId,
      data: '{"name":"Ada"}',
      receivedAt: '2026-11-22T10:00:00.000Z',
      outbox: 1 as const,
    };
    await insertSubmissions(database.db, [row]);
    const id = `${row.id}.${added.notificationId}`;
    const text = await forms('deliveries', 'list', p.projectId);
    expect(text.stdout).toContain('email owner@example.com');
    await writeOutbox(database.db, [row.id]);
    await database.db
      .update(deliveries)
      .set({ status: 'failed', attempts: 11, nextAttemptAt: null })
      .where(eq(deliveries.id, id));
    const redelivered = await json<{ redelivered: { deliveryId: string; kind: string }[] }>(
      'deliveries',
      'redeliver',
      p.projectId,
      '--failed',
    );
    expect(redelivered.redelivered).toEqual([{ deliveryId: id, kind: 'queued' }]);
    const [after] = await database.db.select().from(deliveries).where(eq(deliveries.id, id));
    // Pending and long overdue: the worker's next sweep sends it.
    expect(after).toMatchObject({ status: 'pending', nextAttemptAt: new Date(0).toISOString() });
  });
});
