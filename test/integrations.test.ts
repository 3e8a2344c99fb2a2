// C35: the confirmation to the submitter; C36: Slack and Discord. Both are targets of the outbox,
// sent by the queue consumer (run here as Cloudflare runs it), retried and recorded like webhooks.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NotificationEmail } from '../src/delivery/email.ts';
import { deliveryId } from '../src/store/deliveries.ts';
import { ONE_WINDOW, submit, withinOneWindow } from './helpers.ts';
import { api, newProject, ok, problem, secretKeyOf } from './manage/helpers.ts';
import { consume, consumeOutbox, deliveryRow } from './queue.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const FIELDS = [
  { name: 'name', type: 'string' },
  { name: 'email', type: 'string', rules: { format: 'email' } },
  { name: 'message', type: 'string' },
];
const CONFIRMATION = {
  field: 'email',
  subject: 'Thanks, {{name}}',
  body: 'Hello {{ name }},\n\nWe received:\n{{message}}\n{{nope}}\n',
  replyTo: 'owner@example.com',
};

/** The binding, recording what it was given. */
function recording() {
  const sent: NotificationEmail[] = [];
  const binding = {
    send: async (message: NotificationEmail) => {
      sent.push(message);
      return { messageId: `m${sent.length}` };
    },
  } as unknown as SendEmail;
  return { sent, env: { ...env, EMAIL: binding } };
}

/** A submission to the project over HTTP, and the id of its delivery to the target. */
async function submitted(
  p: { apiKey: string; projectId: string },
  target: string,
  json: unknown,
  origin?: string,
) {
  const res = await submit({ key: p.apiKey, json, ...(origin ? { headers: { Origin: origin } } : {}) });
  expect(res.status).toBe(201);
  const { submissions } = await ok<{ submissions: { id: string }[] }>(
    await api('GET', `/projects/${p.projectId}/submissions?spam=include&limit=1`),
  );
  return deliveryId(submissions[0]?.id ?? '', target);
}

async function confirmationTarget(projectId: string) {
  const row = await env.DB.prepare(`select id from webhooks where project_id = ? and kind = 'confirmation'`)
    .bind(projectId)
    .first<{ id: string }>();
  return row?.id ?? '';
}

describe('C35: the confirmation to the submitter', () => {
  it('C35: refused on a form nobody protects, unless the operator allows it; a secret key may not', async () => {
    const p = await newProject(FIELDS);
    const set = (body: unknown, token?: string) =>
      api('PATCH', `/projects/${p.projectId}`, { body: { confirmation: body }, ...(token ? { token } : {}) });
    expect(await problem(await set(CONFIRMATION), 400)).toMatch(
      /^A confirmation needs Turnstile or allowed origins first/,
    );
    expect(
      await problem(await set({ ...CONFIRMATION, open: true }, await secretKeyOf(p.projectId)), 400),
    ).toMatch(/^Only the operator may allow/);
    const { project } = await ok<{ project: { confirmation: { open: boolean } } }>(
      await set({ ...CONFIRMATION, open: true }),
    );
    expect(project.confirmation).toMatchObject({ field: 'email', open: true });
    expect(await problem(await set({ ...CONFIRMATION, field: 'name' }), 400)).toMatch(
      /format=email: 'name' is not one \(email\)/,
    );
    expect(await problem(await set({ ...CONFIRMATION, subject: 'two\nlines' }), 400)).toMatch(/one line/);
    expect(await problem(await set({ ...CONFIRMATION, replyTo: 'nobody' }), 400)).toMatch(/Reply-To/);
  });

  it('C35: sent to the submitter, the placeholders filled as text, Reply-To the owner; listed with its attempt', async () => {
    const p = await newProject(FIELDS, { origins: ['https://site.example'] });
    await ok(await api('PATCH', `/projects/${p.projectId}`, { body: { confirmation: CONFIRMATION } }));
    const target = await confirmationTarget(p.projectId);
    const id = await submitted(
      p,
      target,
      { name: 'Ada\r\nBcc: victim@example.com', email: 'ada@example.com', message: 'one\ntwo\u2028three' },
      'https://site.example',
    );
    const mail = recording();
    await consume(id, 1, mail.env);
    expect(mail.sent).toEqual([
      {
        from: 'forms@example.com',
        to: 'ada@example.com',
        subject: 'Thanks, Ada Bcc: victim@example.com',
        text: 'Hello Ada\n  Bcc: victim@example.com,\n\nWe received:\none\n  two\n  three\n\n',
        replyTo: 'owner@example.com',
      },
    ]);
    const { deliveries } = await ok<{
      deliveries: { id: string; kind: string; status: string; attemptLog: unknown[] }[];
    }>(await api('GET', `/projects/${p.projectId}/deliveries?target=${target}`));
    expect(deliveries).toMatchObject([
      { id, kind: 'confirmation', status: 'delivered', attemptLog: [{ attempt: 1 }] },
    ]);
  });

  it('C35: never for spam; never to an address that fails the format (failed at once, not retried)', async () => {
    const p = await newProject(FIELDS, { origins: ['https://site.example'], honeypot: 'website' });
    await ok(await api('PATCH', `/projects/${p.projectId}`, { body: { confirmation: CONFIRMATION } }));
    const target = await confirmationTarget(p.projectId);
    const spam = await submitted(p, target, { email: 'a@example.com', website: 'x' }, 'https://site.example');
    await consumeOutbox([spam.slice(0, spam.lastIndexOf('.'))]);
    expect(await deliveryRow(spam)).toBeUndefined();
    const id = await submitted(p, target, { name: 'No address' }, 'https://site.example');
    const mail = recording();
    const result = await consume(id, 1, mail.env);
    expect(mail.sent).toEqual([]);
    expect(result.retryMessages).toEqual([]);
    expect(await deliveryRow(id)).toMatchObject({
      status: 'failed',
      lastError: "not sent: field 'email' holds no valid address",
    });
  });

  it(
    'C35: at most CONFIRMATIONS_PER_ADDRESS_PER_DAY to one address, across every project',
    ONE_WINDOW,
    async () => {
      // The count is per UTC day: not across a midnight.
      await withinOneWindow(86_400);
      const mail = recording();
      const withCap = { ...mail.env, CONFIRMATIONS_PER_ADDRESS_PER_DAY: '2' } as unknown as Env;
      const address = `cap-${crypto.randomUUID()}@example.com`;
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const p = await newProject(FIELDS, { origins: ['https://site.example'] });
        await ok(await api('PATCH', `/projects/${p.projectId}`, { body: { confirmation: CONFIRMATION } }));
        const target = await confirmationTarget(p.projectId);
        for (let j = 0; j < 2; j++)
          ids.push(await submitted(p, target, { email: address }, 'https://site.example'));
      }
      for (const id of ids) await consume(id, 1, withCap);
      expect(mail.sent.map((m) => m.to)).toEqual([address, address]);
      expect(await deliveryRow(ids[2] ?? '')).toMatchObject({
        status: 'failed',
        lastError: expect.stringMatching(/has had 2 confirmations today/),
      });
    },
  );

  it('C35: a project that loses its protection after turning it on sends none', async () => {
    const p = await newProject(FIELDS, { origins: ['https://site.example'] });
    await ok(await api('PATCH', `/projects/${p.projectId}`, { body: { confirmation: CONFIRMATION } }));
    await ok(
      await api('DELETE', `/projects/${p.projectId}/origins/${encodeURIComponent('https://site.example')}`),
    );
    const id = await submitted(p, await confirmationTarget(p.projectId), { email: 'b@example.com' });
    const mail = recording();
    await consume(id, 1, mail.env);
    expect(mail.sent).toEqual([]);
    expect(await deliveryRow(id)).toMatchObject({
      status: 'failed',
      lastError: expect.stringMatching(/neither Turnstile nor allowed origins/),
    });
  });
});

type Received = { url: string; body: Record<string, unknown> };

/** The platform: answers each call with the next status (the last repeats), recording what came. */
function platform(...statuses: [number, Record<string, string>?][]) {
  const calls: Received[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    calls.push({ url: request.url, body: (await request.json()) as Record<string, unknown> });
    const [status, headers] = statuses[Math.min(calls.length - 1, statuses.length - 1)] ?? [200];
    return new Response(status === 204 ? null : 'ok', { status, headers: headers ?? {} });
  });
  return calls;
}

const SLACK = 'https://hooks.slack.com/services/T0001/B0001/abcdefghijklmnopqrstuvwx';
const DISCORD = 'https://discord.com/api/webhooks/123456789/abcdefghijklmnop-qrstuvwxyz';
const HOSTILE = {
  name: '<!channel> @here @everyone <@U123> <@&987> *bold* _it_ ~s~ `code` > quote',
  email: 'x@example.com',
  message: `[click](https://evil.example) <https://evil.example|here> &amp; line1\r\nline2\u2028line3\u2029line4\u0085line5 ${'y'.repeat(5000)}`,
};

async function chatProject(kind: 'slack' | 'discord', url: string) {
  const p = await newProject(FIELDS);
  const hook = await ok<{ webhookId: string; url: string; secret?: string }>(
    await api('POST', `/projects/${p.projectId}/webhooks`, { body: { url, kind } }),
    201,
  );
  return { ...p, hook };
}

describe('C36: Slack and Discord', () => {
  it('C36: only their own hosts; the URL shown once, then never whole (list, deliveries, audit)', async () => {
    const p = await newProject(FIELDS);
    for (const [kind, url] of [
      ['slack', 'https://example.com/services/T/B/x'],
      ['slack', 'http://hooks.slack.com/services/T/B/x'],
      ['discord', 'https://discord.com.evil.example/api/webhooks/1/x'],
      ['discord', 'https://discord.com/api/other/1/x'],
    ]) {
      expect(
        await problem(await api('POST', `/projects/${p.projectId}/webhooks`, { body: { url, kind } }), 400),
      ).toMatch(new RegExp(`^Invalid ${kind} URL: a \\w+ target is one of`));
    }
    const own = await chatProject('slack', SLACK);
    expect(own.hook).toMatchObject({ url: SLACK });
    expect(own.hook.secret).toBeUndefined();
    const { webhooks } = await ok<{ webhooks: { url: string; kind: string }[] }>(
      await api('GET', `/projects/${own.projectId}/webhooks`),
    );
    expect(webhooks).toEqual([
      expect.objectContaining({ kind: 'slack', url: 'https://hooks.slack.com/services/T0001/…uvwx' }),
    ]);
    expect(JSON.stringify(webhooks)).not.toContain('abcdefghijklmnop');
    const audit = JSON.stringify(await ok(await api('GET', `/projects/${own.projectId}/audit`)));
    expect(audit).not.toContain('abcdefghijklmnop');
  });

  it('C36: Slack gets plain text it never reads for mentions, links or markup; values cut, lines normalised', async () => {
    const p = await chatProject('slack', SLACK);
    const calls = platform([200]);
    const id = await submitted(p, p.hook.webhookId, HOSTILE);
    await consume(id, 1, { ...env, PUBLIC_URL: 'https://forms.example.com' } as unknown as Env);
    const body = calls[0]?.body as {
      text: string;
      blocks: {
        type: string;
        text?: { type: string; text: string; emoji?: boolean };
        elements?: { type: string; text: string }[];
      }[];
    };
    expect(body.blocks.length).toBeLessThanOrEqual(50);
    expect(body.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text', emoji: false } });
    const sections = body.blocks.filter((b) => b.type === 'section');
    for (const s of sections) {
      expect(s.text?.type).toBe('plain_text');
      expect([...(s.text?.text ?? '')].length).toBeLessThanOrEqual(3000);
    }
    const message = sections.find((s) => s.text?.text.startsWith('message'))?.text?.text ?? '';
    expect(message).toMatch(
      /^message\n\[click\]\(https:\/\/evil\.example\) <https:\/\/evil\.example\|here> &amp; line1\nline2\nline3\nline4\nline5 y+… \(\d+ more characters cut\)$/,
    );
    const context = body.blocks.at(-1)?.elements?.[0]?.text ?? '';
    expect(context).toContain('<https://forms.example.com/admin/#/p/');
    // The only text Slack reads for markup is escaped, and holds nothing submitted.
    expect(body.text).not.toMatch(/[<>]/);
    expect(await deliveryRow(id)).toMatchObject({ status: 'delivered' });
  });

  it('C36: Discord mentions nobody, and every markdown character of a value shows as itself; limits kept', async () => {
    const p = await chatProject('discord', DISCORD);
    const calls = platform([204]);
    const id = await submitted(p, p.hook.webhookId, HOSTILE);
    await consume(id);
    const body = calls[0]?.body as {
      allowed_mentions: unknown;
      embeds: { title: string; fields: { name: string; value: string }[] }[];
    };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const [embed] = body.embeds;
    const name = embed?.fields.find((f) => f.name === 'name')?.value ?? '';
    expect(name).toBe(
      '\\<\\!channel\\> @\u200bhere @\u200beveryone \\<@\u200bU123\\> \\<@\u200b&987\\> \\*bold\\* \\_it\\_ \\~s\\~ \\`code\\` \\> quote'.replace(
        '\\!',
        '!',
      ),
    );
    const message = embed?.fields.find((f) => f.name === 'message')?.value ?? '';
    expect(message.startsWith('\\[click\\]\\(https\\://evil.example\\)')).toBe(true);
    for (const f of embed?.fields ?? []) {
      expect(f.name.length).toBeLessThanOrEqual(256);
      expect(f.value.length).toBeLessThanOrEqual(1024);
    }
    expect(await deliveryRow(id)).toMatchObject({ status: 'delivered' });
  });

  it('C36: many long fields stay within 25 fields and 6,000 characters, saying how many are not shown', async () => {
    const fields = Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, type: 'string' }));
    const p = await newProject(fields);
    const hook = await ok<{ webhookId: string }>(
      await api('POST', `/projects/${p.projectId}/webhooks`, { body: { url: DISCORD, kind: 'discord' } }),
      201,
    );
    const calls = platform([204]);
    const id = await submitted(
      p,
      hook.webhookId,
      Object.fromEntries(fields.map((f) => [f.name, 'z'.repeat(600)])),
    );
    await consume(id);
    const body = calls[0]?.body as
      | { embeds: { title: string; fields: { name: string; value: string }[]; footer?: { text: string } }[] }
      | undefined;
    const [embed] = body?.embeds ?? [];
    const total =
      (embed?.title.length ?? 0) +
      (embed?.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0) +
      (embed?.footer?.text.length ?? 0);
    expect(embed?.fields.length).toBeLessThanOrEqual(25);
    expect(total).toBeLessThanOrEqual(6000);
    expect(embed?.footer?.text).toBe(`${40 - (embed?.fields.length ?? 0)} more fields are not shown`);
  });

  it('C36: a 429 waits as long as Retry-After asks; a 404 (a deleted hook) disables the target', async () => {
    const p = await chatProject('slack', SLACK);
    platform([429, { 'Retry-After': '120' }], [404]);
    const id = await submitted(p, p.hook.webhookId, { name: 'Ada' });
    const first = await consume(id, 1);
    expect(first.delays).toEqual([120]);
    await consume(id, 2);
    expect(await deliveryRow(id)).toMatchObject({ status: 'failed', lastStatus: 404 });
    const { webhooks } = await ok<{ webhooks: { state: string; disabledReason: string }[] }>(
      await api('GET', `/projects/${p.projectId}/webhooks`),
    );
    expect(webhooks).toMatchObject([{ state: 'disabled', disabledReason: 'gone' }]);
  });
});
