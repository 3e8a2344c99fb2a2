// C26: the attempt machine, the same for every kind: claim the delivery (one attempt at a time),
// send it through its channel (channels/), and settle: delivered, retried after the next delay
// (or a 429's Retry-After), failed, or its target disabled. Recorded in D1 whatever the outcome.
// Shared by the queue consumer and the command-line tool.
import { RETRY_DELAYS } from '../config.ts';
import type { Db } from '../store/db.ts';
import {
  type Claim,
  claimDelivery,
  type DeliveryToSend,
  dueBeside,
  recordAttempt,
} from '../store/deliveries.ts';
import type { EmailSetup, SendContext } from './channels/channel.ts';
import { channelOf } from './channels/index.ts';
import type { AttemptResult } from './outbound.ts';

export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;
/** The most the queue can delay a message: 12 hours. */
const MAX_DELAY_SECONDS = 43_200;

/**
 * How long a claim holds a delivery for its attempt: the attempt's time-out, and room for D1 and
 * for an email's send. A claim whose worker stopped is free again after it.
 */
export const ATTEMPT_LEASE_MS = 60_000;

export type AttemptOutcome =
  | { kind: 'delivered'; status: number | null }
  | { kind: 'retry'; delaySeconds: number; status: number | null; error: string | null }
  | { kind: 'failed'; status: number | null; error: string | null }
  /** C26: no attempt was made: another holds the delivery, it is settled or gone, or its target is off. */
  | { kind: 'skipped'; claim: Exclude<Claim, { kind: 'claimed' }> };

/** How an attempt is made: where it may go, email, the worker's address (C36), and how to fetch. */
export type SendOptions = {
  allowLocalHttp: boolean;
  email?: EmailSetup;
  /** C36: the worker's own address, for a message's link to the dashboard. */
  publicUrl?: string | undefined;
  /** C38: a stand-in for every integration's API, honoured only with `allowLocalHttp`. */
  integrationsApiBase?: string | undefined;
  fetch?: typeof fetch;
};

/** What a channel sends with, from the options: C38's stand-in only where plain http may go. */
export const sendContext = (db: Db, options: SendOptions, now: Date): SendContext => ({
  db,
  now,
  fetch: options.fetch ?? fetch,
  allowLocalHttp: options.allowLocalHttp,
  publicUrl: options.publicUrl,
  apiBase: options.allowLocalHttp ? options.integrationsApiBase : undefined,
  email: options.email,
});

/** Deliveries an attempt carried with its own (a channel's batch), each with the answer it got. */
type Carried = { delivery: DeliveryToSend; answer: AttemptResult }[];

/**
 * One attempt through the delivery's channel. A channel that batches (C38: Airtable) takes with
 * it the other deliveries to the same target that are due (claimed as it is), up to its batch's
 * size; a batch refused as final (the service refuses a whole request for one record it cannot
 * take) is sent again one by one, so that a bad record fails alone.
 */
async function sendOnce(
  db: Db,
  d: DeliveryToSend,
  ctx: SendContext,
): Promise<AttemptResult & { beside?: Carried }> {
  const channel = channelOf(d.kind);
  if (channel === undefined) {
    // A row of a kind this worker does not know (written by a newer one): nothing it can send.
    return { ok: false, final: true, status: null, error: `no channel '${d.kind}'`, excerpt: null };
  }
  const batch = channel.batch;
  if (batch === undefined) return channel.send(d, ctx);
  const beside: DeliveryToSend[] = [];
  for (const id of await dueBeside(db, d.targetId, d.id, ctx.now, batch.size - 1)) {
    const claim = await claimDelivery(db, id, {
      now: ctx.now,
      leaseUntil: new Date(ctx.now.getTime() + ATTEMPT_LEASE_MS),
    });
    if (claim.kind === 'claimed') beside.push(claim.delivery);
  }
  const together = await batch.send([d, ...beside], ctx);
  if (beside.length === 0 || together.final !== true) {
    return { ...together, beside: beside.map((delivery) => ({ delivery, answer: together })) };
  }
  const alone: Carried = [];
  for (const delivery of beside) alone.push({ delivery, answer: await batch.send([delivery], ctx) });
  return { ...(await batch.send([d], ctx)), beside: alone };
}

/**
 * Claims the delivery (one attempt at a time, C26), sends it once and records the attempt (settle,
 * below): a network error, a time-out, a redirect (never followed), a refused destination or email
 * are retried like any other failure (C47: but a provider's refusal of the key or the message is
 * final). `again`: a redelivery, of a delivery in any state.
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
  const sent = await sendOnce(db, d, sendContext(db, options, now));
  const durationMs = Date.now() - started;
  const outcome = await settle(db, d, sent, { now, durationMs, retryDelays: options.retryDelays });
  // The deliveries a batch carried with this one, each by the answer it got.
  for (const other of sent.beside ?? []) {
    await settle(db, other.delivery, other.answer, { now, durationMs, retryDelays: options.retryDelays });
  }
  return outcome;
}

/**
 * Records a claimed delivery's attempt and its new state: a 2xx answer (or an email the binding
 * or, C47, the provider took) is delivered; a channel's `disable` (C26: 410 Gone from a webhook; C36: a chat hook
 * deleted; C38: an integration refused) disables the target, fails the delivery and cancels the
 * target's other pending ones; anything else is retried after the next delay (or a 429's
 * Retry-After), until the last.
 */
async function settle(
  db: Db,
  d: DeliveryToSend,
  sent: AttemptResult,
  options: { now: Date; durationMs: number; retryDelays?: readonly number[] | undefined },
): Promise<AttemptOutcome> {
  const { now, durationMs } = options;
  const attempt = d.attempts;
  const { ok, status, error, excerpt, final, retryAfter, disable } = sent;
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
  if (disable !== undefined) {
    await recordAttempt(
      db,
      record,
      { status: 'failed', nextAttemptAt: null },
      { targetId: d.targetId, reason: disable },
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
