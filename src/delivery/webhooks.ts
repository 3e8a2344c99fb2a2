// C26: one attempt to deliver a submission to a webhook, signed as Standard Webhooks defines it,
// recorded in D1 whatever its outcome. Shared by the queue consumer and the command-line tool.

import { INTEGRATION_KINDS, type IntegrationKind } from '../../schema/tables.ts';
import { CONFIRMATIONS_PER_DAY, CONFIRMATIONS_PER_PROJECT, RETRY_DELAYS } from '../config.ts';
import { READ_PATH } from '../http/paths.ts';
import { chatDestinationProblem, destinationProblem } from '../lib/destinations.ts';
import { errorText } from '../lib/faults.ts';
import { readAtMost } from '../lib/stream.ts';
import { webhookHeaders } from '../lib/webhook-signature.ts';
import type { Db } from '../store/db.ts';
import {
  type Claim,
  claimDelivery,
  type DeliveryToSend,
  dueBeside,
  recordAttempt,
} from '../store/deliveries.ts';
import { AIRTABLE_BATCH, sendToAirtable } from './airtable.ts';
import { type Answer, ATTEMPT_TIMEOUT_MS, retryAfterSeconds } from './answer.ts';
import { type ChatKind, chatMessage } from './chat.ts';
import { type ConfirmationCaps, sendConfirmation } from './confirm.ts';
import { type EmailSender, sendNotification } from './email.ts';
import { sendToSheet } from './google-sheets.ts';
import type { IntegrationAnswer, IntegrationContext } from './integrations.ts';
import { sendToNotion } from './notion.ts';
import { sendToTelegram } from './telegram.ts';

/** At most this much of a receiver's answer is read, and this much of it kept. */
const READ_LIMIT = 4096;
const EXCERPT = 200;
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;

/**
 * The event a receiver gets: the submission as stored, and nothing of its request. C30: a file
 * field's value is its metadata; `files` gives the read API path of each file, never its bytes.
 */
export function submissionEvent(
  d: Pick<DeliveryToSend, 'projectId' | 'submissionId' | 'receivedAt' | 'data'> & { files?: string | null },
): string {
  const names = d.files === undefined || d.files === null ? [] : (JSON.parse(d.files) as string[]);
  const files =
    names.length === 0
      ? ''
      : `,"files":${JSON.stringify(Object.fromEntries(names.map((name) => [name, `${READ_PATH}/${d.submissionId}/files/${encodeURIComponent(name)}`])))}`;
  return `{"type":"submission.created","timestamp":${JSON.stringify(d.receivedAt)},"data":{"projectId":${JSON.stringify(d.projectId)},"submissionId":${JSON.stringify(d.submissionId)},"receivedAt":${JSON.stringify(d.receivedAt)},"fields":${d.data}${files}}}`;
}

/** The secrets that sign now: the current one, and the previous one until its rotation ends. */
export function signingSecrets(
  d: Pick<DeliveryToSend, 'secret' | 'previousSecret' | 'previousUntil'>,
  now: Date,
) {
  const previous =
    d.previousSecret !== null && d.previousUntil !== null && Date.parse(d.previousUntil) > now.getTime();
  return previous && d.previousSecret !== null ? [d.secret, d.previousSecret] : [d.secret];
}

/** Reads at most READ_LIMIT bytes of an answer, and cancels the rest. */
async function excerptOf(res: Response): Promise<string | null> {
  if (res.body === null) return null;
  // Stops once READ_LIMIT bytes are in (over READ_LIMIT - 1).
  const { bytes } = await readAtMost(res.body, READ_LIMIT - 1);
  const text = new TextDecoder().decode(bytes.subarray(0, READ_LIMIT)).slice(0, EXCERPT);
  return text === '' ? null : text;
}

/**
 * One POST of a JSON body: never follows a redirect, gives up after the time-out, and reads at most
 * a few KiB of the answer. The status, or the network error, and an excerpt.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  fetchImpl: typeof fetch = fetch,
): Promise<Answer> {
  try {
    const res = await fetchImpl(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'edge-forms-webhooks', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    const retryAfter =
      res.status === 429 ? retryAfterSeconds(res.headers.get('Retry-After'), Date.now()) : undefined;
    return {
      status: res.status,
      error: null,
      excerpt: await excerptOf(res).catch(() => null),
      ...(retryAfter === undefined ? {} : { retryAfter }),
    };
  } catch (cause) {
    const error = errorText(cause, 200);
    return { status: null, error, excerpt: null };
  }
}

/** One signed POST of a message to a webhook (Standard Webhooks). */
export async function postSigned(
  url: string,
  message: { id: string; body: string; secrets: readonly string[]; now: Date },
  fetchImpl: typeof fetch = fetch,
): Promise<Answer> {
  const headers = await webhookHeaders(
    message.secrets,
    message.id,
    Math.floor(message.now.getTime() / 1000),
    message.body,
  );
  return postJson(url, message.body, headers, fetchImpl);
}

export type AttemptOutcome =
  | { kind: 'delivered'; status: number | null }
  | { kind: 'retry'; delaySeconds: number; status: number | null; error: string | null }
  | { kind: 'failed'; status: number | null; error: string | null }
  /** C26: no attempt was made: another holds the delivery, it is settled or gone, or its target is off. */
  | { kind: 'skipped'; claim: Exclude<Claim, { kind: 'claimed' }> };

/**
 * What sends email (C27): the `send_email` binding and the sender address, EMAIL_FROM; and (C35)
 * the confirmations' daily caps.
 */
export type EmailSetup = {
  binding: EmailSender | undefined;
  from: string | undefined;
  caps?: ConfirmationCaps;
};

/** How an attempt is made: where it may go, email, the worker's address (C36), and how to fetch. */
export type SendOptions = {
  allowLocalHttp: boolean;
  email?: EmailSetup;
  /** C36: the worker's own address, for a chat message's link to the dashboard. */
  publicUrl?: string | undefined;
  /** C38: a stand-in for every integration's API, honoured only with `allowLocalHttp`. */
  integrationsApiBase?: string | undefined;
  fetch?: typeof fetch;
};

const isChat = (kind: string): kind is ChatKind => kind === 'slack' || kind === 'discord';
const isIntegration = (kind: string): kind is IntegrationKind =>
  (INTEGRATION_KINDS as readonly string[]).includes(kind);
/** The most the queue can delay a message: 12 hours. */
const MAX_DELAY_SECONDS = 43_200;

/**
 * How long a claim holds a delivery for its attempt: the attempt's time-out, and room for D1 and
 * for an email's send. A claim whose worker stopped is free again after it.
 */
export const ATTEMPT_LEASE_MS = 60_000;

/** Deliveries an attempt carried with its own (C38: Airtable), each with the answer it got. */
type Carried = { delivery: DeliveryToSend; answer: IntegrationAnswer }[];

/**
 * C38: one attempt to an integration. An Airtable delivery takes with it the other deliveries to the
 * same table that are due (claimed as it is), up to 10 records in one request: `beside`. Airtable
 * refuses a whole request for one record it cannot take: a batch so refused is sent again record by
 * record, so that a bad record fails alone.
 */
async function sendToIntegration(
  db: Db,
  d: DeliveryToSend & { kind: IntegrationKind },
  options: SendOptions,
  now: Date,
): Promise<IntegrationAnswer & { beside?: Carried }> {
  const ctx: IntegrationContext = {
    apiBase: options.allowLocalHttp ? options.integrationsApiBase : undefined,
    publicUrl: options.publicUrl,
    fetch: options.fetch ?? fetch,
    now,
  };
  if (d.kind === 'google-sheets') return sendToSheet(d, ctx);
  if (d.kind === 'notion') return sendToNotion(d, ctx);
  if (d.kind === 'telegram') return sendToTelegram(d, ctx);
  const beside: DeliveryToSend[] = [];
  for (const id of await dueBeside(db, d.webhookId, d.id, now, AIRTABLE_BATCH - 1)) {
    const claim = await claimDelivery(db, id, {
      now,
      leaseUntil: new Date(now.getTime() + ATTEMPT_LEASE_MS),
    });
    if (claim.kind === 'claimed') beside.push(claim.delivery);
  }
  const together = await sendToAirtable([d, ...beside], ctx);
  if (beside.length === 0 || together.final !== true) {
    return { ...together, beside: beside.map((delivery) => ({ delivery, answer: together })) };
  }
  const alone: Carried = [];
  for (const delivery of beside) alone.push({ delivery, answer: await sendToAirtable([delivery], ctx) });
  return { ...(await sendToAirtable([d], ctx)), beside: alone };
}

/**
 * One attempt of a delivery, by its target's kind: a signed POST, (C27) an email, (C35) the
 * confirmation, (C36) a chat message, or (C38) an integration's request. `final`: it can never
 * succeed, so it is not retried; `refused`: the service refused the target, which is disabled.
 */
async function sendOnce(
  db: Db,
  d: DeliveryToSend,
  options: SendOptions,
  now: Date,
): Promise<Answer & { ok: boolean; final?: boolean; refused?: boolean; beside?: Carried }> {
  if (d.kind === 'email') return sendNotification(options.email?.binding, options.email?.from, d);
  if (d.kind === 'confirmation') {
    const email = options.email;
    return sendConfirmation(
      db,
      {
        binding: email?.binding,
        from: email?.from,
        caps: email?.caps ?? { perMailbox: CONFIRMATIONS_PER_DAY, perProject: CONFIRMATIONS_PER_PROJECT },
        now,
      },
      d,
    );
  }
  if (isIntegration(d.kind))
    return sendToIntegration(db, d as DeliveryToSend & { kind: IntegrationKind }, options, now);
  // C26: checked again before each attempt: a destination stored before a rule tightened, say.
  const problem = isChat(d.kind)
    ? chatDestinationProblem(d.url, d.kind, options.allowLocalHttp)
    : destinationProblem(d.url, options.allowLocalHttp);
  if (problem !== undefined) return { ok: false, status: null, error: problem, excerpt: null };
  const answer = isChat(d.kind)
    ? await postJson(d.url, chatMessage(d.kind, d, options.publicUrl), {}, options.fetch)
    : await postSigned(
        d.url,
        { id: d.id, body: submissionEvent(d), secrets: signingSecrets(d, now), now },
        options.fetch,
      );
  return { ...answer, ok: answer.status !== null && answer.status >= 200 && answer.status < 300 };
}

/**
 * Claims the delivery (one attempt at a time, C26), sends it once and records the attempt (settle,
 * below): a network error, a time-out, a redirect (never followed), a refused destination or email
 * are retried like any other failure. `again`: a redelivery, of a delivery in any state.
 */
export async function attemptDelivery(
  db: Db,
  id: string,
  options: SendOptions & { retryDelays?: readonly number[]; now?: Date; again?: boolean },
): Promise<AttemptOutcome> {
  const now = options.now ?? new Date();
  const claim = await claimDelivery(db, id, {
    now,
    leaseUntil: new Date(now.getTime() + ATTEMPT_LEASE_MS),
    again: options.again === true,
  });
  if (claim.kind !== 'claimed') return { kind: 'skipped', claim };
  const d = claim.delivery;
  const started = Date.now();
  const sent = await sendOnce(db, d, options, now);
  const durationMs = Date.now() - started;
  const outcome = await settle(db, d, sent, { now, durationMs, retryDelays: options.retryDelays });
  // C38: the deliveries an Airtable request carried with this one, each by the answer it got.
  for (const other of sent.beside ?? []) {
    await settle(db, other.delivery, other.answer, { now, durationMs, retryDelays: options.retryDelays });
  }
  return outcome;
}

/**
 * Records a claimed delivery's attempt and its new state: a 2xx answer (or an email the binding
 * took) is delivered; 410 Gone from a webhook, (C36) a chat hook deleted, or (C38) an integration
 * refused disables the target, fails the delivery and cancels the target's other pending ones;
 * anything else is retried after the next delay (or a 429's Retry-After), until the last.
 */
async function settle(
  db: Db,
  d: DeliveryToSend,
  sent: Answer & { ok: boolean; final?: boolean; refused?: boolean },
  options: { now: Date; durationMs: number; retryDelays?: readonly number[] | undefined },
): Promise<AttemptOutcome> {
  const { now, durationMs } = options;
  const attempt = d.attempts;
  const { ok, status, error, excerpt, final, retryAfter, refused } = sent;
  const record = {
    deliveryId: d.id,
    attempt,
    at: now.toISOString(),
    statusCode: status,
    error,
    durationMs,
    excerpt,
  };
  if (ok) {
    await recordAttempt(db, record, { status: 'delivered', nextAttemptAt: null });
    return { kind: 'delivered', status };
  }
  // C26: a webhook gone (410); C36: a chat hook deleted (404) or gone; C38: an integration refused.
  const gone =
    (status === 410 && d.kind === 'webhook') || ((status === 404 || status === 410) && isChat(d.kind));
  if (gone || refused === true) {
    await recordAttempt(
      db,
      record,
      { status: 'failed', nextAttemptAt: null },
      { webhookId: d.webhookId, reason: gone ? 'gone' : 'refused' },
    );
    return { kind: 'failed', status, error };
  }
  const scheduled = (options.retryDelays ?? RETRY_DELAYS)[attempt - 1];
  if (scheduled === undefined || final === true) {
    await recordAttempt(db, record, { status: 'failed', nextAttemptAt: null });
    return { kind: 'failed', status, error };
  }
  // C36, C38: a receiver that asks for more time (429's Retry-After) gets it.
  const delaySeconds = Math.min(Math.max(scheduled, retryAfter ?? 0), MAX_DELAY_SECONDS);
  const next = new Date(now.getTime() + delaySeconds * 1000).toISOString();
  await recordAttempt(db, record, { status: 'pending', nextAttemptAt: next });
  return { kind: 'retry', delaySeconds, status, error };
}
