// C26, C36, C38: the conformance suite of the delivery channels, as Hono's router tests run one set
// of cases over every router: the same cases over every kind of the channels' own registry
// (CHANNELS, src/delivery/channels/index.ts) that speaks HTTP, each with a minimal target of its
// kind pointed at the stand-in on this machine (test/standin.ts), delivered by the queue's consumer
// as Cloudflare runs it. A kind added to CHANNELS is run here as it is, once the stand-in knows it
// (`standInTarget`); what only one kind does (its message's shape, its own auth) is tested in its
// own file (test/webhooks.test.ts, test/chat.test.ts, test/built-in-integrations.test.ts).
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deliveryAttempts, targets } from '../schema/tables.ts';
import { RETRY_DELAYS } from '../src/config.ts';
import type { Family, HookChannel, IntegrationChannel } from '../src/delivery/channels/channel.ts';
import { CHANNEL_KINDS, CHANNELS, type ChannelKind } from '../src/delivery/channels/index.ts';
import type { StatusRules } from '../src/delivery/outbound.ts';
import { database } from '../src/store/db.ts';
import { deliveryId } from '../src/store/deliveries.ts';
import { expectEnvelope, fetchWorkerWith, seedProject, storedRows, submit, VALID_BODY } from './helpers.ts';
import { api, ok, request } from './manage/helpers.ts';
import { BROWSER_HEADERS, consume, consumeOutbox, deliveryRow, throughWidget } from './queue.ts';
import { ANSWER_CHUNK, type Answer, followed, service } from './receiver.ts';
import { type HttpKind, STAND_IN_ORIGIN, standIn, standInTarget } from './standin.ts';

const db = database(env.DB);

/**
 * The worker as `npm run dev` runs it: plain http to this machine allowed (C26's
 * ALLOW_LOCAL_WEBHOOKS), every integration's API at the stand-in (C38's INTEGRATIONS_API_BASE).
 */
const LOCAL = {
  ...env,
  ALLOW_LOCAL_WEBHOOKS: 'true',
  INTEGRATIONS_API_BASE: STAND_IN_ORIGIN,
} as unknown as Env;

type HttpChannel = HookChannel | IntegrationChannel;
type HttpFamily = HttpChannel['family'];
const HTTP_FAMILIES: readonly Family[] = ['webhook', 'integration'] satisfies HttpFamily[];
const isHttp = (kind: ChannelKind): kind is HttpKind => HTTP_FAMILIES.includes(CHANNELS[kind].family);
const channelOf = (kind: HttpKind): HttpChannel => CHANNELS[kind];

/** The kinds the cases run over: every one of the registry that speaks HTTP, in its order. */
const HTTP_KINDS = CHANNEL_KINDS.filter(isHttp);

/**
 * The families none of the cases applies to, and why: every case is about an HTTP request, and
 * these send none. Each has its own tests instead.
 */
const NOT_HTTP = {
  notification:
    "C27: an email through the send_email binding (no HTTP status: the binding takes it, or refuses it and it is retried; 410 means nothing for email), or C47's provider, whose answers have rules of their own (the deployment's key, not the target's); no secret of the target (mailto:<address>), no test message; test/email.test.ts, test/mail-providers.test.ts",
  confirmation:
    'C35: an email to the submitter, sent as C27 and C47 send it, whose checks and caps fail it at once; test/confirmation.test.ts, test/mail-caps.test.ts, test/mail-providers.test.ts',
} as const satisfies Record<Exclude<Family, HttpFamily>, string>;

/**
 * At most this much of an answer is read (src/delivery/outbound.ts): a hook's answer is only excerpted
 * (C26: 4 KiB); an integration reads its service's JSON (C38: Google's token, Telegram's
 * `retry_after`), up to 64 KiB.
 */
const READ_AT_MOST = { webhook: 4096, integration: 64 * 1024 } as const satisfies Record<HttpFamily, number>;

/**
 * What the rule book says an answer's status means, by what the kind is: what the cases expect,
 * whatever its channel declares (`rules`, which must say the same).
 */
function ruleBook(channel: HttpChannel): StatusRules {
  // C38: a token revoked or a destination not shared (401, 403, 404) refuses the target; any other
  // 4xx but 408 and 429 is the request's own fault, final; a 429 waits its Retry-After, or the
  // service's own time (Google's a minute, the others' 30 s), which its channel gives.
  if (channel.family === 'integration') {
    return {
      disableOn: [401, 403, 404],
      because: 'refused',
      wrong4xx: true,
      quotaSeconds: channel.rules.quotaSeconds ?? 0,
    };
  }
  // C26: the owner's receiver may answer 404 while it is deployed: only 410 Gone disables it.
  if (channel.signs) return { disableOn: [410], because: 'gone' };
  // C36: a hook deleted on its platform answers 404 or 410.
  return { disableOn: [404, 410], because: 'gone' };
}

/** The first retry's wait (WEBHOOK_RETRY_DELAYS), and the most a 429 may ask for (C36: 12 hours). */
const FIRST_DELAY = RETRY_DELAYS[0] ?? 0;
const MAX_WAIT = 12 * 3600;

type Outcome =
  | { state: 'delivered' }
  | { state: 'retried'; after: readonly [number, number] }
  | { state: 'failed' }
  | { state: 'disabled'; because: StatusRules['because'] };

/**
 * What an answer does to a delivery, by the kind's rules (C26): 2xx delivered; a status that
 * disables the target disables it and fails the delivery; a 429 waits as long as it asks (between
 * the schedule's wait and 12 hours; the service's time when it does not say); a wrong request's
 * 4xx fails for good where the kind says so; anything else, a network fault too, is retried.
 */
function outcome(rules: StatusRules, status: number | null, retryAfter?: readonly [number, number]): Outcome {
  if (status !== null && status >= 200 && status < 300) return { state: 'delivered' };
  if (status !== null && rules.disableOn.includes(status))
    return { state: 'disabled', because: rules.because };
  if (status === 429) {
    const wait = (asked: number) => Math.min(Math.max(FIRST_DELAY, asked), MAX_WAIT);
    const [low, high] = retryAfter ?? [rules.quotaSeconds ?? 0, rules.quotaSeconds ?? 0];
    return { state: 'retried', after: [wait(low), wait(high)] };
  }
  if (rules.wrong4xx === true && status !== null && status >= 400 && status < 500 && status !== 408) {
    return { state: 'failed' };
  }
  return { state: 'retried', after: [FIRST_DELAY, FIRST_DELAY] };
}

const said = (o: Outcome) =>
  o.state === 'delivered'
    ? 'delivered'
    : o.state === 'failed'
      ? 'failed for good, its target left on'
      : o.state === 'disabled'
        ? `failed, its target disabled (${o.because})`
        : `retried after ${o.after[0] === o.after[1] ? o.after[0] : `${o.after[0]}–${o.after[1]}`} s`;

/** An answer to give, and what a 429's Retry-After asks for (its bounds: a date is read to the second). */
type Given = { name: string; answer: () => Answer; retryAfter?: readonly [number, number] };
const status = (code: number): Given => ({ name: String(code), answer: () => code });
const ANSWERS: Given[] = [
  ...[200, 201, 204].map(status),
  ...[400, 401, 403, 404, 408, 410, 422].map(status),
  {
    name: '429 with Retry-After: 120',
    answer: () => ({ status: 429, headers: { 'Retry-After': '120' } }),
    retryAfter: [120, 120],
  },
  {
    name: '429 with Retry-After as a date, ten minutes on',
    answer: () => ({ status: 429, headers: { 'Retry-After': new Date(Date.now() + 600_000).toUTCString() } }),
    retryAfter: [598, 600],
  },
  {
    name: '429 asking for a day',
    answer: () => ({ status: 429, headers: { 'Retry-After': '86400' } }),
    retryAfter: [86_400, 86_400],
  },
  { ...status(429), name: '429 without Retry-After' },
  ...[500, 503].map(status),
  { name: 'a network fault', answer: () => new TypeError('Network connection lost.') },
];
const statusOf = (answer: Answer) =>
  answer instanceof Error ? null : typeof answer === 'number' ? answer : answer.status;

const s = standIn();
let stand: ReturnType<typeof service>;
beforeAll(() => {
  stand = service((r) => s.handle(r));
});
afterAll(() => {
  vi.restoreAllMocks();
});

/** A project of its own with one target of the kind, as the stand-in knows it, added through the API. */
async function withTarget(kind: HttpKind) {
  const p = await seedProject({ name: 'Conformance' });
  const { add, secret, shownBy } = await standInTarget(s, kind);
  const hook = channelOf(kind).family === 'webhook';
  const path = `/projects/${p.projectId}/${hook ? 'webhooks' : 'integrations'}`;
  const added = await ok<{
    webhookId?: string;
    url?: string;
    secret?: string;
    integration?: { integrationId: string };
  }>(await api('POST', path, { body: add }), 201);
  const id = added.webhookId ?? added.integration?.integrationId ?? '';
  const kept = secret ?? added.secret ?? '';
  return { ...p, kind, add, added, id, path: `${path}/${id}`, secret: kept, shownBy: shownBy ?? kept };
}
type Target = Awaited<ReturnType<typeof withTarget>>;

/**
 * A submission sent as a person sends it (through the widget: this suite is about delivery, not
 * spam, C39), and its delivery row written; the delivery's id.
 */
async function submitted(t: Target) {
  const before = new Set((await storedRows(t.projectId)).map((r) => r.id));
  const json = await throughWidget(t.projectId, VALID_BODY);
  await expectEnvelope(await submit({ key: t.apiKey, json, headers: BROWSER_HEADERS }), 201);
  const row = (await storedRows(t.projectId)).find((r) => !before.has(r.id));
  await consumeOutbox([row?.id ?? ''], LOCAL);
  return deliveryId(row?.id ?? '', t.id);
}

/** The delivery's first attempt through the consumer, every request answered `answer` (else by the stand-in). */
async function attempt(id: string, answer?: Answer) {
  const from = stand.calls.length;
  stand.answer(answer);
  try {
    const result = await consume(id, 1, LOCAL);
    return { result, calls: stand.calls.slice(from) };
  } finally {
    stand.answer(undefined);
  }
}

/** The test message (`webhook test`, `integration test`, the dashboard's Test button), from the worker. */
async function testSent(t: Target, answer?: Answer) {
  const from = stand.calls.length;
  stand.answer(answer);
  try {
    const reply = await ok<{ status: number | null; error: string | null }>(
      await fetchWorkerWith(LOCAL, request('POST', `${t.path}/test`)),
    );
    return { reply, calls: stand.calls.slice(from) };
  } finally {
    stand.answer(undefined);
  }
}

const targetRow = async (t: Target) => (await db.select().from(targets).where(eq(targets.id, t.id)))[0];

describe.each(HTTP_KINDS)('C26, C36, C38: %s', (kind) => {
  const channel = channelOf(kind);
  const rules = ruleBook(channel);
  const readAtMost = READ_AT_MOST[channel.family];

  beforeAll(async () => {
    // A target of the kind has delivered once: what a service keeps between deliveries (Google's
    // token, its sheet's header) is kept, so that an answer given below is the delivery's own.
    const t = await withTarget(kind);
    const { calls } = await attempt(await submitted(t));
    expect(calls.length).toBeGreaterThan(0);
    expect(s.log.filter((l) => l.refused !== undefined)).toEqual([]);
  });

  it('what a status means is the rule book’s (C26: a signed webhook; C36: a chat hook; C38: an integration)', () => {
    expect(channel.rules).toStrictEqual(rules);
    if (channel.family === 'integration') expect(rules.quotaSeconds).toBeGreaterThan(0);
  });

  it('delivers to the stand-in, which takes it as the real service would; one request, sent without following a redirect', async () => {
    const t = await withTarget(kind);
    const id = await submitted(t);
    const { result, calls } = await attempt(id);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.redirect).toBe('manual');
    expect(calls[0]?.url.startsWith(`${STAND_IN_ORIGIN}/`)).toBe(true);
    expect(result.explicitAcks).toEqual(['msg-1']);
    expect(await deliveryRow(id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(s.log.filter((l) => l.refused !== undefined)).toEqual([]);
  });

  for (const given of ANSWERS) {
    const says = said(outcome(rules, statusOf(given.answer()), given.retryAfter));
    it(`answered ${given.name}: ${says}`, async () => {
      const t = await withTarget(kind);
      const id = await submitted(t);
      const answer = given.answer();
      const code = statusOf(answer);
      const want = outcome(rules, code, given.retryAfter);
      const { result, calls } = await attempt(id, answer);
      const row = await deliveryRow(id);
      const target = await targetRow(t);
      expect(row).toMatchObject({ attempts: 1, lastStatus: code });
      // Whatever the answer, no redirect is followed and at most so much of it is read.
      for (const call of calls) {
        expect(call.redirect).toBe('manual');
        expect(call.answerRead).toBeLessThanOrEqual(readAtMost + ANSWER_CHUNK);
      }
      const [logged] = await db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, id));
      if (answer instanceof Error) expect(logged?.error).toBe('TypeError: Network connection lost.');
      else expect(logged?.excerpt ?? null).toBe(code === 204 ? null : `answer ${code} `.padEnd(200, 'x'));
      if (want.state === 'delivered') {
        expect(row?.status).toBe('delivered');
        expect(result.explicitAcks).toEqual(['msg-1']);
      } else if (want.state === 'retried') {
        expect(row?.status).toBe('pending');
        expect(result.retryMessages).toEqual([{ msgId: 'msg-1' }]);
        expect(result.delays[0]).toBeGreaterThanOrEqual(want.after[0]);
        expect(result.delays[0]).toBeLessThanOrEqual(want.after[1]);
      } else {
        expect(row?.status).toBe('failed');
        expect(result.retryMessages).toEqual([]);
      }
      if (want.state === 'disabled') {
        expect(target?.disabledAt).not.toBeNull();
        expect(target?.disabledReason).toBe(want.because);
      } else {
        expect(target?.disabledAt).toBeNull();
      }
    });
  }

  it.each([301, 302, 303, 307, 308])(
    'a %i is never followed (nothing reaches its Location): a failed attempt, retried',
    async (code) => {
      const t = await withTarget(kind);
      const id = await submitted(t);
      const { result, calls } = await attempt(id, code);
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((c) => c.redirect === 'manual')).toBe(true);
      expect(followed(calls)).toBe(false);
      expect(result.delays).toEqual([FIRST_DELAY]);
      expect(await deliveryRow(id)).toMatchObject({ status: 'pending', lastStatus: code });
    },
  );

  it(`reads at most ${readAtMost / 1024} KiB of an answer, however long`, async () => {
    const t = await withTarget(kind);
    const id = await submitted(t);
    const { calls } = await attempt(id, 200);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.answerRead).toBeGreaterThan(0);
    expect(calls[0]?.answerRead).toBeLessThanOrEqual(readAtMost + ANSWER_CHUNK);
    expect(await deliveryRow(id)).toMatchObject({ status: 'delivered' });
  });

  it('its secret is never shown whole: the list shows what its channel shows; no delivery, test or audit entry holds it', async () => {
    const t = await withTarget(kind);
    expect(t.secret.length).toBeGreaterThan(8);
    // All of it but its last four, as written and as JSON writes it, once or twice (a PEM key's
    // line breaks; an audit entry's details, JSON in JSON).
    const whole = t.secret.slice(0, -4);
    const once = JSON.stringify(whole).slice(1, -1);
    const hidden = [whole, once, JSON.stringify(once).slice(1, -1)];
    await attempt(await submitted(t));
    const { reply } = await testSent(t);
    const list = await ok<{
      webhooks?: { url: string; secret?: string }[];
      integrations?: { secret: string }[];
    }>(await api('GET', t.path.slice(0, t.path.lastIndexOf('/'))));
    const deliveries = await ok(await api('GET', `/projects/${t.projectId}/deliveries`));
    const audit = await ok(await api('GET', `/projects/${t.projectId}/audit`));
    for (const shown of [list, deliveries, audit, reply]) {
      for (const part of hidden) expect(JSON.stringify(shown)).not.toContain(part);
    }
    if (channel.family === 'integration') {
      // C38: by the last four characters of what identifies it.
      const stored = channel.stored(v.parse(v.object(channel.entries), t.add)).secret;
      const shown = list.integrations?.[0]?.secret ?? '';
      expect(shown).toBe(channel.shownSecret(stored).last);
      expect(shown).toBe(`…${t.shownBy.slice(-4)}`);
      expect(t.added).not.toHaveProperty('secret');
    } else if (channel.signs) {
      // C26: the signing secret is shown once, when the webhook is added; its URL is no secret.
      expect(t.added.secret).toMatch(/^whsec_/);
      expect(list.webhooks?.[0]).not.toHaveProperty('secret');
      expect(list.webhooks?.[0]?.url).toBe(channel.shown(String(t.add.url)));
    } else {
      // C36: the URL is the secret: whole once, when added; then by its start and last four.
      expect(t.added.url).toBe(t.add.url);
      expect(t.added).not.toHaveProperty('secret');
      const shown = list.webhooks?.[0]?.url ?? '';
      expect(shown).toBe(channel.shown(String(t.add.url)));
      expect(shown.endsWith(`…${t.secret.slice(-4)}`)).toBe(true);
    }
  });

  it('its test message goes out now, says it is a test (a submission’s does not), and is no delivery; a failure there disables nothing', async () => {
    const t = await withTarget(kind);
    const delivered = await attempt(await submitted(t));
    const { reply, calls } = await testSent(t);
    expect(reply.status).toBeGreaterThanOrEqual(200);
    expect(reply.status).toBeLessThan(300);
    const says = (body: string | undefined) => /\btest\b/i.test(body ?? '');
    expect(says(calls.at(-1)?.body)).toBe(true);
    expect(says(delivered.calls.at(-1)?.body)).toBe(false);
    const listed = await ok<{ deliveries: unknown[] }>(
      await api('GET', `/projects/${t.projectId}/deliveries`),
    );
    expect(listed.deliveries).toHaveLength(1);
    for (const code of rules.disableOn) {
      expect((await testSent(t, code)).reply.status).toBe(code);
    }
    expect((await targetRow(t))?.disabledAt).toBeNull();
  });
});

describe('C27, C35: the kinds that speak no HTTP', () => {
  const others = CHANNEL_KINDS.filter((kind) => !isHttp(kind));
  for (const kind of others) {
    const why = NOT_HTTP[CHANNELS[kind].family as keyof typeof NOT_HTTP];
    it(`${kind}: none of the cases applies: ${why}`, () => {
      expect(why).toBeDefined();
      // Nothing of an HTTP channel: no status rules, no test send.
      expect(CHANNELS[kind]).not.toHaveProperty('rules');
      expect(CHANNELS[kind]).not.toHaveProperty('test');
    });
  }
});
