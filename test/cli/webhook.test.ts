// `forms webhook …`: signed webhooks (C26): added with a secret shown once, listed without it, refused destinations, tested, rotated, enabled and disabled, against a temporary local database, with a real HTTP receiver on 127.0.0.1.
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { targets } from '../../schema/tables.ts';
import { MAX_WEBHOOKS } from '../../src/ops/targets.ts';
import { insertSubmissions } from '../../src/store/intake.ts';
import { consumeStored, receiverOnLoopback, snapshot, toolOnTemp } from './helpers.ts';

const tool = toolOnTemp('webhook');
const { forms, json, expectRefused } = tool;
const hook = receiverOnLoopback();

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
      hook.url,
    );
    expect(added).toEqual({
      webhookId: expect.stringMatching(/^wh_[a-z2-7]{12}$/),
      kind: 'webhook',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      url: hook.url,
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
    const before = await snapshot(tool.database);
    const result = await forms('webhook', 'add', p.projectId, bad);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(await snapshot(tool.database)).toBe(before);
  });

  it('C26: a stored destination that is not public is never sent to: webhook test refuses, redeliver records why', async () => {
    const p = await project();
    const id = 'wh_storedbefore';
    // Stored before the rule (or written by hand): the tool and the worker check it before each request.
    await tool.database.db.insert(targets).values({
      id,
      projectId: p.projectId,
      url: 'https://169.254.169.254/latest/meta-data',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      createdAt: new Date().toISOString(),
    });
    const sent = hook.received.length;
    await expectRefused(['webhook', 'test', p.projectId, id], /cannot be sent to: a linkLocal address/);
    const submissionId = '01a00000-0000-7000-8000-0000000000a1';
    await insertSubmissions(tool.database.db.$client, [
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
    expect(hook.received.length).toBe(sent);
  });

  it('C19: webhook test prints a receiver’s answer with its escape codes made visible, never raw', async () => {
    const p = await project();
    const added = await json<{ webhookId: string }>('webhook', 'add', p.projectId, hook.url);
    hook.answer = 200;
    hook.body = '\u001b]0;pwned\u0007\u001b[31mred\u009b2J\nforged line';
    try {
      const text = await forms('webhook', 'test', p.projectId, added.webhookId);
      expect(text.code).toBe(0);
      expect(text.stdout).not.toMatch(/(?!\n)\p{Cc}/u);
      expect(text.stdout).toContain('\\x1b]0;pwned\\x07\\x1b[31mred\\x9b2J\\nforged line');
      expect(text.stdout.trimEnd().split('\n')).toHaveLength(1);
      const asJson = await forms('webhook', 'test', p.projectId, added.webhookId, '--json');
      expect(asJson.stdout).not.toMatch(/(?!\n)\p{Cc}/u);
      expect((JSON.parse(asJson.stdout) as { excerpt: string }).excerpt).toBe(hook.body);
    } finally {
      hook.body = undefined;
    }
  });

  it('C26: enable turns a webhook disabled by 410 on again; its cancelled deliveries go again with redeliver --failed', async () => {
    const p = await project();
    const added = await json<{ webhookId: string }>('webhook', 'add', p.projectId, hook.url);
    const ids = ['01a00000-0000-7000-8000-0000000000b1', '01a00000-0000-7000-8000-0000000000b2'];
    await insertSubmissions(
      tool.database.db.$client,
      ids.map((id) => ({
        id,
        projectId: p.projectId,
        data: '{}',
        receivedAt: new Date().toISOString(),
        outbox: 1 as const,
      })),
    );
    await consumeStored(tool.database.db, ids);
    hook.answer = 410;
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
    const sent = hook.received.length;
    const refused = await forms('deliveries', 'redeliver', p.projectId, `${ids[1]}.${added.webhookId}`);
    expect(refused.stdout).toMatch(
      /not sent: its webhook is disabled \(enable it with: forms webhook enable/,
    );
    expect(hook.received.length).toBe(sent);
    const enabled = await forms('webhook', 'enable', p.projectId, added.webhookId);
    expect(enabled.stdout).toContain(`forms deliveries redeliver ${p.projectId} --failed`);
    hook.answer = 200;
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
    const added = await json<{ webhookId: string; secret: string }>('webhook', 'add', p.projectId, hook.url);
    const rotated = await json<{ secret: string; previousUntil: string }>(
      'webhook',
      'rotate-secret',
      p.projectId,
      added.webhookId,
    );
    expect(rotated.secret).not.toBe(added.secret);
    expect(Date.parse(rotated.previousUntil) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    const [row] = await tool.database.db.select().from(targets).where(eq(targets.id, added.webhookId));
    expect(row).toMatchObject({ secret: rotated.secret, previousSecret: added.secret });
    // webhook test signs with both: either secret verifies.
    hook.answer = 200;
    const tested = await json<{ status: number }>('webhook', 'test', p.projectId, added.webhookId);
    expect(tested.status).toBe(200);
    const last = hook.received.at(-1);
    for (const secret of [added.secret, rotated.secret]) {
      expect(new Webhook(secret).verify(last?.body ?? '', last?.headers ?? {})).toMatchObject({
        type: 'webhook.test',
      });
    }
    await expectRefused(['webhook', 'rotate-secret', p.projectId, 'wh_nope'], /has no webhook 'wh_nope'/);
  });
});
