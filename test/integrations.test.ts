// C35: the confirmation to the submitter; C36: Slack and Discord. Both are targets of the outbox,
// sent by the queue consumer (run here as Cloudflare runs it), retried and recorded like webhooks.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveryId } from '../src/store/deliveries.ts';
import { ONE_WINDOW, submit, submitWithEnv, withinOneWindow } from './helpers.ts';
import { recording } from './mail.ts';
import { api, newProject, ok, problem, secretKeyOf, signedIn } from './manage/helpers.ts';
import { consume, consumeOutbox, deliveryRow } from './queue.ts';
import { mockSiteverify, verdict } from './siteverify.ts';

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
  subject: 'Thanks for your message',
  body: 'Hello {{ name }},\n\nWe received:\n{{message}}\n{{nope}}\n',
  replyTo: 'owner@example.com',
};
/** A Turnstile secret of a real site (not one of Cloudflare's test secrets). */
const TURNSTILE = '0x4AAAAAAA-site-secret';

/**
 * A submission to the project over HTTP, and the id of its delivery to the target; with a token, it
 * passes Turnstile (siteverify stood in for: it accepts `pass`).
 */
async function submitted(
  p: { apiKey: string; projectId: string },
  target: string,
  json: Record<string, unknown>,
  options: { origin?: string; token?: string; env?: Env } = {},
) {
  const headers = options.origin ? { Origin: options.origin } : {};
  const body = options.token === undefined ? json : { ...json, 'cf-turnstile-response': options.token };
  const siteverify =
    options.token === undefined
      ? undefined
      : mockSiteverify((form) => verdict(form.get('response') === 'pass'));
  const res = options.env
    ? await submitWithEnv(options.env, { key: p.apiKey, json: body, headers })
    : await submit({ key: p.apiKey, json: body, headers });
  siteverify?.spy.mockRestore();
  expect(res.status).toBe(201);
  const { submissions } = await ok<{ submissions: { id: string }[] }>(
    await api('GET', `/projects/${p.projectId}/submissions?spam=include&limit=1`),
  );
  return deliveryId(submissions[0]?.id ?? '', target);
}

async function confirmationTarget(projectId: string) {
  const row = await env.DB.prepare(`select id from targets where project_id = ? and kind = 'confirmation'`)
    .bind(projectId)
    .first<{ id: string }>();
  return row?.id ?? '';
}

/** A project behind Turnstile that sends the confirmation; its confirmation target. */
async function confirming(extra: Record<string, unknown> = {}, confirmation: Record<string, unknown> = {}) {
  const p = await newProject(FIELDS, { turnstileSecret: TURNSTILE, ...extra });
  await ok(
    await api('PATCH', `/projects/${p.projectId}`, {
      body: { confirmation: { ...CONFIRMATION, ...confirmation } },
    }),
  );
  return { ...p, target: await confirmationTarget(p.projectId) };
}

/** C35: the delivery's attempt sends nothing, and fails for good (not retried), saying why. */
async function expectNotSent(id: string, why: string) {
  const mail = recording();
  const result = await consume(id, 1, mail.env);
  expect(mail.sent).toEqual([]);
  expect(result.retryMessages).toEqual([]);
  expect(await deliveryRow(id)).toMatchObject({ status: 'failed', lastError: why });
}

/** C35: the confirmations a cap stopped today, as the project's stats count them. */
async function cappedToday(projectId: string) {
  const { days } = await ok<{ days: { confirmationsCapped: number }[] }>(
    await api('GET', `/projects/${projectId}/stats?days=1`),
  );
  return days[0]?.confirmationsCapped;
}

describe('C35: the confirmation to the submitter', () => {
  it('C35: needs Turnstile (allowed origins do not count), unless the operator opens it; a secret key or its session never can', async () => {
    const p = await newProject(FIELDS, { origins: ['https://site.example'] });
    const set = (body: unknown, token?: string) =>
      api('PATCH', `/projects/${p.projectId}`, { body: { confirmation: body }, ...(token ? { token } : {}) });
    expect(await problem(await set(CONFIRMATION), 400)).toMatch(
      /^A confirmation is sent only for a submission that passed Turnstile/,
    );
    const secret = await secretKeyOf(p.projectId);
    expect(await problem(await set({ ...CONFIRMATION, open: true }, secret), 400)).toMatch(
      /^Only the operator may send confirmations for submissions that passed no Turnstile challenge/,
    );
    // A dashboard session made from the secret key is the key: refused too.
    const session = await signedIn(secret);
    const viaSession = await api('PATCH', `/projects/${p.projectId}`, {
      token: null,
      body: { confirmation: { ...CONFIRMATION, open: true } },
      headers: session,
    });
    expect(await problem(viaSession, 400)).toMatch(/^Only the operator may/);
    // The key cannot switch it on by adding an origin first, either.
    await ok(
      await api('POST', `/projects/${p.projectId}/origins`, {
        token: secret,
        body: { origin: 'https://other.example' },
      }),
      201,
    );
    expect(await problem(await set(CONFIRMATION, secret), 400)).toMatch(/passed Turnstile/);
    const { project } = await ok<{ project: { confirmation: { open: boolean } } }>(
      await set({ ...CONFIRMATION, open: true }),
    );
    expect(project.confirmation).toMatchObject({ field: 'email', open: true });
    // Opened by the operator, the key may change the templates, and leaves it open.
    const edited = await ok<{ project: { confirmation: { open: boolean; body: string } } }>(
      await set({ ...CONFIRMATION, body: 'Hi {{name}}' }, secret),
    );
    expect(edited.project.confirmation).toMatchObject({ open: true, body: 'Hi {{name}}' });
    expect(await problem(await set({ ...CONFIRMATION, field: 'name' }), 400)).toMatch(
      /format=email: 'name' is not one \(email\)/,
    );
    expect(await problem(await set({ ...CONFIRMATION, subject: 'two\nlines' }), 400)).toMatch(/one line/);
    expect(await problem(await set({ ...CONFIRMATION, replyTo: 'nobody' }), 400)).toMatch(/Reply-To/);
  });

  it('C35: the subject takes no free text: a placeholder of a text field is refused; a choice, a number or yes/no is taken', async () => {
    const p = await newProject(
      [
        ...FIELDS,
        { name: 'topic', type: 'string', rules: { oneOf: ['Sales', 'Support'] } },
        { name: 'seats', type: 'integer' },
      ],
      { turnstileSecret: TURNSTILE },
    );
    const set = (subject: string) =>
      api('PATCH', `/projects/${p.projectId}`, { body: { confirmation: { ...CONFIRMATION, subject } } });
    for (const field of ['name', 'email', 'message']) {
      expect(await problem(await set(`Thanks, {{${field}}}`), 400)).toBe(
        `The confirmation subject takes no text a submitter typed: '{{${field}}}' is free text (put it in the body; the subject may name a number, a yes/no, or a field with choices)`,
      );
    }
    await ok(await set('Your {{topic}} request for {{seats}} seats'));
    const target = await confirmationTarget(p.projectId);
    const id = await submitted(
      p,
      target,
      { email: 'ada@example.com', topic: 'Sales', seats: 12 },
      { token: 'pass' },
    );
    const mail = recording();
    await consume(id, 1, mail.env);
    expect(mail.sent.map((m) => m.subject)).toEqual(['Your Sales request for 12 seats']);
  });

  it('C35: sent to a submitter who passed Turnstile: values as plain text, cut short, no link; Reply-To the owner; listed with its attempt', async () => {
    const p = await confirming();
    const id = await submitted(
      p,
      p.target,
      {
        name: 'Ada\r\nBcc: victim@example.com',
        email: 'ada@example.com',
        message: `one\ntwo\u2028three https://evil.example/win www.evil.example ${'x'.repeat(300)}`,
      },
      { token: 'pass' },
    );
    const mail = recording();
    await consume(id, 1, mail.env);
    expect(mail.sent).toEqual([
      {
        from: 'forms@example.com',
        to: 'ada@example.com',
        subject: 'Thanks for your message',
        text: `Hello Ada\n  Bcc: victim@example[.]com,\n\nWe received:\none\n  two\n  three https[:]//evil[.]example/win www[.]evil[.]example ${'x'.repeat(144)}…\n\n`,
        replyTo: 'owner@example.com',
      },
    ]);
    const { deliveries } = await ok<{
      deliveries: { id: string; kind: string; status: string; attemptLog: unknown[] }[];
    }>(await api('GET', `/projects/${p.projectId}/deliveries?target=${p.target}`));
    expect(deliveries).toMatchObject([
      { id, kind: 'confirmation', status: 'delivered', attemptLog: [{ attempt: 1 }] },
    ]);
  });

  it.each([
    ['without an Origin header', {}],
    ['with a forged Origin the project allows', { origin: 'https://site.example' }],
  ])(
    'C35: a submission that passed no challenge (%s) is stored, and gets no confirmation; the log says why',
    async (_, how) => {
      // Allowed origins and a confirmation turned on while Turnstile was set; Turnstile then taken off.
      const p = await confirming({ origins: ['https://site.example'] });
      await ok(await api('PATCH', `/projects/${p.projectId}`, { body: { turnstileSecret: null } }));
      const id = await submitted(p, p.target, { name: 'Spam', email: 'victim@example.com' }, how);
      await expectNotSent(
        id,
        'not sent: this submission passed no Turnstile challenge, and only a submission that passed one is confirmed (C35)',
      );
    },
  );

  it("C35: Cloudflare's test secret passes any token: a challenge only under local development", async () => {
    const p = await confirming({ turnstileSecret: '1x0000000000000000000000000000000AA' });
    const mail = recording();
    const deployed = await submitted(p, p.target, { email: 'a@example.com' }, { token: 'pass' });
    await consume(deployed, 1, mail.env);
    expect(await deliveryRow(deployed)).toMatchObject({
      status: 'failed',
      lastError: expect.stringMatching(/passed no Turnstile challenge/),
    });
    const local = { ...env, ALLOW_LOCAL_WEBHOOKS: 'true' } as unknown as Env;
    const dev = await submitted(p, p.target, { email: 'b@example.com' }, { token: 'pass', env: local });
    await consume(dev, 1, mail.env);
    expect(mail.sent.map((m) => m.to)).toEqual(['b@example.com']);
  });

  it('C35: never for spam; never to an address that fails the format (failed at once, not retried)', async () => {
    const p = await confirming({ honeypot: 'website' });
    const spam = await submitted(p, p.target, { email: 'a@example.com', website: 'x' }, { token: 'pass' });
    await consumeOutbox([spam.slice(0, spam.lastIndexOf('.'))]);
    expect(await deliveryRow(spam)).toBeUndefined();
    const id = await submitted(p, p.target, { name: 'No address' }, { token: 'pass' });
    await expectNotSent(id, "not sent: field 'email' holds no valid address");
  });

  it(
    'C35: one mailbox is one mailbox: its spellings get one confirmation a day from a project; another project is not silenced',
    ONE_WINDOW,
    async () => {
      // The count is per UTC day: not across a midnight.
      await withinOneWindow(86_400);
      const mail = recording();
      const box = `cap${crypto.randomUUID().slice(0, 8)}`;
      const spellings = [
        `${box}@gmail.com`,
        `${box.toUpperCase()}@GMAIL.COM`,
        `${box}+1@gmail.com`,
        `${box.slice(0, 3)}.${box.slice(3)}@googlemail.com`,
      ];
      const first = await confirming();
      const ids: string[] = [];
      for (const email of spellings)
        ids.push(await submitted(first, first.target, { email }, { token: 'pass' }));
      const second = await confirming();
      ids.push(await submitted(second, second.target, { email: spellings[3] }, { token: 'pass' }));
      for (const id of ids) await consume(id, 1, mail.env);
      expect(mail.sent.map((m) => m.to)).toEqual([spellings[0], spellings[3]]);
      for (const id of ids.slice(1, 4)) {
        expect(await deliveryRow(id)).toMatchObject({
          status: 'failed',
          lastError:
            'not sent: this mailbox has had 1 confirmation from the project today (CONFIRMATIONS_PER_ADDRESS_PER_DAY)',
        });
      }
      // The owner sees it: the day's stats count the capped ones.
      expect(await cappedToday(first.projectId)).toBe(3);
    },
  );

  it(
    "C35: a project's daily cap (CONFIRMATIONS_PER_PROJECT_PER_DAY) stops a mailing to many addresses; the owner sees it",
    ONE_WINDOW,
    async () => {
      await withinOneWindow(86_400);
      const mail = recording();
      const capped = { ...mail.env, CONFIRMATIONS_PER_PROJECT_PER_DAY: '3' } as unknown as Env;
      const p = await confirming();
      const other = await confirming();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push(await submitted(p, p.target, { email: `n${i}@example.com` }, { token: 'pass' }));
      const elsewhere = await submitted(other, other.target, { email: 'n9@example.com' }, { token: 'pass' });
      for (const id of [...ids, elsewhere]) await consume(id, 1, capped);
      expect(mail.sent.map((m) => m.to)).toEqual([
        'n0@example.com',
        'n1@example.com',
        'n2@example.com',
        'n9@example.com',
      ]);
      expect(await deliveryRow(ids[4] ?? '')).toMatchObject({
        status: 'failed',
        lastError:
          'not sent: the project has sent its 3 confirmations today (CONFIRMATIONS_PER_PROJECT_PER_DAY)',
      });
      expect(await cappedToday(p.projectId)).toBe(2);
    },
  );

  it('C35: a project whose Turnstile is taken off after turning the confirmation on sends none', async () => {
    const p = await confirming();
    await ok(await api('PATCH', `/projects/${p.projectId}`, { body: { turnstileSecret: null } }));
    const id = await submitted(p, p.target, { email: 'b@example.com' });
    const mail = recording();
    await consume(id, 1, mail.env);
    expect(mail.sent).toEqual([]);
    expect(await deliveryRow(id)).toMatchObject({
      status: 'failed',
      lastError: expect.stringMatching(/passed no Turnstile challenge/),
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
  // The values sent are hostile on purpose (links, markup): with the spam filter off (C39) they
  // reach the formatter, which is what these tests are about.
  await ok(await api('PATCH', `/projects/${p.projectId}`, { body: { spamFilter: { mode: 'off' } } }));
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
