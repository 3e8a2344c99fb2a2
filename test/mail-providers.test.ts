// C47: mail through the owner's provider (Resend, Postmark, Mailgun, Amazon SES), delivered by the
// queue's consumer as Cloudflare runs it, against stand-ins that check what each real API checks
// (test/mail-standin.ts, SES's signature included): each provider's request as its documentation
// describes it, and what each of its answers means for the delivery (C26's machine: delivered,
// failed for good, retried after Retry-After or on the schedule). Confirmations (C35) and agreement
// mails (C37) go through it with their caps. That the key is never shown: test/mail-key.test.ts.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deliveryAttempts } from '../schema/tables.ts';
import { sendConfirmation } from '../src/delivery/confirm.ts';
import { mailSetup } from '../src/delivery/mail-settings.ts';
import { database } from '../src/store/db.ts';
import { deliveryId } from '../src/store/deliveries.ts';
import { updateProjectSettings } from '../src/store/projects.ts';
import { insertTarget, mailto, newNotificationId } from '../src/store/targets.ts';
import { expectEnvelope, fetchWorkerWith, seedProject, storedRows, submit, VALID_BODY } from './helpers.ts';
import {
  type Forced,
  type MailStandIn,
  mailStandIn,
  type Provider,
  SENDER,
  SES_REGION,
  withProvider,
} from './mail-standin.ts';
import { newProject, ok, request, secretKeyOf } from './manage/helpers.ts';
import { consume, deliveryRow } from './queue.ts';

const db = database(env.DB);
const PROVIDERS: Provider[] = ['resend', 'postmark', 'mailgun', 'ses'];
let s: MailStandIn;

beforeEach(() => {
  s = mailStandIn();
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => s.handle(new Request(input, init)));
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A project that emails owner@example.com each submission, Reply-To from its `email` field. */
async function projectWithEmail() {
  const p = await seedProject({ name: 'Contact form' });
  const target = {
    id: newNotificationId(),
    projectId: p.projectId,
    kind: 'email' as const,
    url: mailto('owner@example.com'),
    secret: '',
  };
  await insertTarget(db, target);
  await updateProjectSettings(db, p.projectId, { replyToField: 'email' });
  return { ...p, target };
}

/** One submission's notification, attempted once through the consumer with `environment`. */
async function notify(environment: Env, body: Record<string, unknown> = VALID_BODY) {
  const p = await projectWithEmail();
  await expectEnvelope(await submit({ key: p.apiKey, json: body }), 201);
  const [row] = await storedRows(p.projectId);
  const id = deliveryId(row?.id ?? '', p.target.id);
  const result = await consume(id, 1, environment);
  const attempts = await db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, id));
  return { id, row, result, delivery: await deliveryRow(id), attempt: attempts.at(-1) };
}

/** What each provider's request must be, as its documentation describes it. */
const REQUEST: Record<Provider, (r: MailStandIn['requests'][number], s: MailStandIn) => void> = {
  resend: (r, s) => {
    expect(r.url).toBe('https://api.resend.com/emails');
    expect(r.headers).toMatchObject({
      authorization: `Bearer ${s.keys.resend}`,
      'content-type': 'application/json',
    });
    expect(Object.keys(JSON.parse(r.body)).sort()).toEqual(['from', 'reply_to', 'subject', 'text', 'to']);
  },
  postmark: (r, s) => {
    expect(r.url).toBe('https://api.postmarkapp.com/email');
    expect(r.headers).toMatchObject({
      'x-postmark-server-token': s.keys.postmark,
      accept: 'application/json',
    });
    expect(JSON.parse(r.body)).toMatchObject({ MessageStream: 'outbound', ReplyTo: 'ada@example.com' });
    expect(r.headers.authorization).toBeUndefined();
  },
  mailgun: (r, s) => {
    expect(r.url).toBe('https://api.mailgun.net/v3/mail.example.net/messages');
    expect(r.headers).toMatchObject({
      authorization: `Basic ${btoa(`api:${s.keys.mailgun}`)}`,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect([...new URLSearchParams(r.body).keys()].sort()).toEqual([
      'from',
      'h:Reply-To',
      'subject',
      'text',
      'to',
    ]);
  },
  ses: (r) => {
    expect(r.url).toBe(`https://email.${SES_REGION}.amazonaws.com/v2/email/outbound-emails`);
    expect(String(r.headers.authorization)).toMatch(
      new RegExp(
        `^AWS4-HMAC-SHA256 Credential=AKIASTANDIN000000001/\\d{8}/${SES_REGION}/ses/aws4_request, SignedHeaders=host;x-amz-date, Signature=[0-9a-f]{64}$`,
      ),
    );
    expect(JSON.parse(r.body)).toMatchObject({
      Destination: { ToAddresses: ['owner@example.com'] },
      ReplyToAddresses: ['ada@example.com'],
      Content: { Simple: { Subject: { Charset: 'UTF-8' }, Body: { Text: { Charset: 'UTF-8' } } } },
    });
  },
};

describe.each(PROVIDERS)('C47: %s', (provider) => {
  it('sends the notification as its API describes it; 200 is delivered, with the id it gave', async () => {
    const { delivery, attempt, row, result } = await notify(withProvider(s, provider), {
      ...VALID_BODY,
      message: 'line one\nline two',
    });
    expect(s.requests.filter((r) => r.refused !== undefined)).toEqual([]);
    expect(s.requests).toHaveLength(1);
    REQUEST[provider](s.requests[0] as MailStandIn['requests'][number], s);
    expect(s.taken).toEqual([
      {
        provider,
        from: SENDER,
        to: 'owner@example.com',
        subject: 'New submission: Contact form',
        text: expect.stringContaining('message: line one\n  line two\n'),
        replyTo: 'ada@example.com',
      },
    ]);
    expect(s.taken[0]?.text).toContain(`Submission ${row?.id}`);
    expect(result.explicitAcks).toEqual(['msg-1']);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 200, lastError: null });
    expect(attempt).toMatchObject({
      statusCode: 200,
      error: null,
      excerpt: expect.stringMatching(/^sent \S+/),
    });
  });

  it.each([401, 403])(
    '%i: the key refused, failed for good, the log says so with its reason',
    async (status) => {
      s.force(provider, {
        status,
        body: { message: 'This key was revoked', Message: 'This key was revoked' },
      });
      const { delivery, attempt, result } = await notify(withProvider(s, provider));
      expect(result.retryMessages).toEqual([]);
      expect(result.explicitAcks).toEqual(['msg-1']);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatus: status });
      expect(attempt?.error).toMatch(
        new RegExp(
          `^key refused: .+ did not take the deployment's key \\(EMAIL_API_KEY.*\\), ${status}: This key was revoked$`,
        ),
      );
    },
  );

  it.each([400, 422])(
    '%i: the message refused, failed for good with the provider’s reason',
    async (status) => {
      s.force(provider, {
        status,
        body: {
          message: 'The to address is not valid',
          Message: 'The to address is not valid',
          ErrorCode: 300,
        },
      });
      const { delivery, attempt, result } = await notify(withProvider(s, provider));
      expect(result.retryMessages).toEqual([]);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatus: status });
      expect(attempt?.error).toMatch(
        new RegExp(`^message refused: .+ did not take it, ${status}: The to address is not valid$`),
      );
      expect(attempt?.excerpt).toContain('The to address is not valid');
    },
  );

  it('429 waits for its Retry-After', async () => {
    s.force(provider, {
      status: 429,
      headers: { 'Retry-After': '120' },
      body: { message: 'Too many requests' },
    });
    const { delivery, result } = await notify(withProvider(s, provider));
    expect(result.delays).toEqual([120]);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 429 });
  });

  it.each<[string, Forced]>([
    ['500', { status: 500, body: { message: 'Internal error' } }],
    ['a network fault', 'network'],
  ])('%s is retried on the schedule', async (_, answer) => {
    s.force(provider, answer);
    const { delivery, result } = await notify(withProvider(s, provider));
    expect(result.delays).toEqual([5]);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    if (answer === 'network') expect(delivery?.lastError).toMatch(/Network connection lost/);
    else expect(delivery?.lastStatus).toBe(500);
  });

  it('without its key (SES: or its secret or region) nothing is sent: a failed attempt that says what is missing, retried', async () => {
    const environment = withProvider(s, provider, { EMAIL_API_KEY: '', EMAIL_REGION: '' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { delivery, result } = await notify(environment);
    expect(s.requests).toEqual([]);
    expect(result.delays).toEqual([5]);
    const missing = provider === 'ses' ? 'EMAIL_API_KEY and EMAIL_REGION are' : 'EMAIL_API_KEY is';
    expect(delivery?.lastError).toBe(
      `email is not set up: EMAIL_PROVIDER is "${provider}", and ${missing} not set`,
    );
    expect(warn.mock.calls.map((c) => JSON.parse(String(c[0])).setting)).toContain('EMAIL_API_KEY');
  });
});

describe('C47: each provider’s own rules', () => {
  it('Resend: a sender on a domain it has not verified is the message refused (its 403 validation_error), not the key', async () => {
    const { attempt, delivery } = await notify(
      withProvider(s, 'resend', { EMAIL_FROM: 'forms@unverified.example.org' }),
    );
    expect(delivery).toMatchObject({ status: 'failed', lastStatus: 403 });
    expect(attempt?.error).toMatch(
      /^message refused: Resend did not take it, 403: The unverified\.example\.org domain is not verified/,
    );
  });

  it('Mailgun: the sending domain is EMAIL_FROM’s; an EU domain is reached through EMAIL_API_BASE', async () => {
    const { delivery } = await notify(
      withProvider(s, 'mailgun', { EMAIL_API_BASE: 'https://api.eu.mailgun.net' }),
    );
    expect(delivery?.status).toBe('delivered');
    expect(s.requests.map((r) => r.url)).toEqual(['https://api.eu.mailgun.net/v3/mail.example.net/messages']);
    await notify(withProvider(s, 'mailgun', { EMAIL_FROM: 'forms@other.example.net' }));
    expect(s.requests.at(-1)).toMatchObject({
      url: 'https://api.mailgun.net/v3/other.example.net/messages',
      refused: 'domain',
    });
  });

  it('SES: a wrong secret access key is refused by the signature, as the key refused; another region is not its own', async () => {
    const wrong = await notify(
      withProvider(s, 'ses', { EMAIL_API_SECRET: 'not-the-secret-access-key-0000000000000' }),
    );
    expect(wrong.delivery).toMatchObject({ status: 'failed', lastStatus: 403 });
    expect(wrong.attempt?.error).toMatch(
      /^key refused: Amazon SES .*\(EMAIL_API_KEY and EMAIL_API_SECRET\), 403: The request signature we calculated does not match/,
    );
    const elsewhere = await notify(withProvider(s, 'ses', { EMAIL_REGION: 'us-east-1' }));
    expect(elsewhere.delivery?.status).toBe('delivered');
    expect(s.requests.at(-1)?.url).toBe('https://email.us-east-1.amazonaws.com/v2/email/outbound-emails');
  });

  it('EMAIL_API_BASE over plain http (a stand-in) only with ALLOW_LOCAL_WEBHOOKS', async () => {
    const base = { EMAIL_API_BASE: 'http://127.0.0.1:8790' };
    const refused = await notify(withProvider(s, 'postmark', base));
    expect(s.requests).toEqual([]);
    expect(refused.delivery?.lastError).toMatch(
      /EMAIL_API_BASE is plain http, which only local development allows/,
    );
    const local = await notify(withProvider(s, 'postmark', { ...base, ALLOW_LOCAL_WEBHOOKS: 'true' }));
    expect(local.delivery?.status).toBe('delivered');
    expect(s.requests.map((r) => r.url)).toEqual(['http://127.0.0.1:8790/email']);
  });
});

describe('C47: confirmations (C35) and agreement mails (C37) go through the provider with their caps', () => {
  it('a confirmation is sent through it, within the day’s caps: a capped one never reaches it', async () => {
    const provider = mailSetup(withProvider(s, 'postmark')).provider;
    const projectId = `prov${crypto.randomUUID().slice(0, 8)}`;
    const confirm = () =>
      sendConfirmation(
        db,
        {
          binding: undefined,
          from: SENDER,
          provider,
          caps: { perMailbox: 1, perProject: 5 },
          now: new Date(),
        },
        {
          confirmField: 'email',
          confirmSubject: 'Thank you',
          confirmBody: 'We have your message.',
          confirmReplyTo: 'owner@example.com',
          confirmOpen: false,
          challenge: 'turnstile',
          choices: null,
          projectId,
          data: JSON.stringify({ email: 'ada@example.com' }),
        },
      );
    expect(await confirm()).toMatchObject({ ok: true, status: 200 });
    expect(await confirm()).toMatchObject({
      ok: false,
      final: true,
      error: expect.stringMatching(/^not sent: this mailbox has had 1/),
    });
    expect(s.taken).toEqual([
      {
        provider: 'postmark',
        from: SENDER,
        to: 'ada@example.com',
        subject: 'Thank you',
        text: 'We have your message.\n',
        replyTo: 'owner@example.com',
      },
    ]);
  });

  it('the agreement mail of an address a key adds goes through it', async () => {
    const { projectId } = await newProject();
    const res = await fetchWorkerWith(
      withProvider(s, 'resend'),
      request('POST', `/projects/${projectId}/notifications`, {
        token: await secretKeyOf(projectId),
        body: { address: 'someone@example.com' },
      }),
    );
    expect(await ok(res, 201)).toMatchObject({ state: 'waiting', verification: 'sent' });
    expect(s.taken).toMatchObject([
      {
        provider: 'resend',
        to: 'someone@example.com',
        subject: 'Confirm that this address may receive form submissions',
      },
    ]);
  });
});
