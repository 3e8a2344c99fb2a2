// C35: the confirmation to the submitter, a target of the outbox sent by the queue consumer (run
// here as Cloudflare runs it), retried and recorded like webhooks: who may turn it on, what it
// says, whom it is sent to and never, its caps.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ONE_WINDOW, withinOneWindow } from './helpers.ts';
import { recording } from './mail.ts';
import { api, newProject, ok, problem, secretKeyOf, signedIn } from './manage/helpers.ts';
import { consume, consumeOutbox, deliveryRow } from './queue.ts';
import { FIELDS, submitted } from './submitted.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const CONFIRMATION = {
  field: 'email',
  subject: 'Thanks for your message',
  body: 'Hello {{ name }},\n\nWe received:\n{{message}}\n{{nope}}\n',
  replyTo: 'owner@example.com',
};
/** A Turnstile secret of a real site (not one of Cloudflare's test secrets). */
const TURNSTILE = '0x4AAAAAAA-site-secret';

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
