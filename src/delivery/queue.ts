// C26: the outbox goes through a Cloudflare Queue (outbox.ts sends its first messages). This same
// worker consumes them, writes their delivery rows and sends one message per delivery, each attempted (and
// retried) on its own. A sweep on a Cron Trigger does the same for the submissions and deliveries
// whose message never came.
import pLimit from 'p-limit';
import { config } from '../config.ts';
import { causeText, errorText } from '../lib/faults.ts';
import { database } from '../store/db.ts';
import { cancelOfDisabledTargets, claimOverdue, markedBefore, writeOutbox } from '../store/deliveries.ts';
import { DEFAULT_PLACE, type Place, placeOf, places } from '../store/places.ts';
import { indexSubmissions, pendingSearch } from '../store/search.ts';
import { unjudgedBefore, untrainedBefore } from '../store/spam.ts';
import { attemptDelivery } from './attempt.ts';
import { judgeSubmissions, learnMarks } from './judge.ts';
import { type DeliveryMessage, placeOfMessage } from './outbox.ts';

/** One message per delivery (up to 100 in a call), each naming its place (C41). */
async function sendDeliveries(queue: Queue, deliveryIds: readonly string[], place: string): Promise<void> {
  for (let i = 0; i < deliveryIds.length; i += 100) {
    await queue.sendBatch(
      deliveryIds.slice(i, i + 100).map((id) => ({ body: { deliveryId: id, ...placeOfMessage(place) } })),
    );
  }
}

/**
 * C26, C31: the messages of a batch are handled this many at a time, so that a receiver that hangs
 * (each attempt may take its whole time-out) never holds back the deliveries beside it.
 */
export const CONSUMER_CONCURRENCY = 10;

/** One message: marked submissions to write, or one delivery to attempt. */
async function handleMessage(message: Message<DeliveryMessage>, env: Env): Promise<void> {
  const body = message.body;
  const place = body.place ?? DEFAULT_PLACE;
  try {
    // C41: the database of the message's place (a place whose binding is gone: retried, below).
    const db = database(placeOf(env, place).d1);
    if ('submissionIds' in body) {
      // Given twice (at least once), the second time judges, learns, writes, sends and indexes
      // nothing. C39: judged first, so that spam is held before any delivery is written.
      await judgeSubmissions(db, env.ASSETS, body.submissionIds, Date.now());
      await learnMarks(db, env.ASSETS, body.submissionIds);
      const written = await writeOutbox(db, body.submissionIds);
      if (env.DELIVERIES !== undefined) await sendDeliveries(env.DELIVERIES, written, place);
      await indexSubmissions(db, body.submissionIds);
      message.ack();
      return;
    }
    const settings = config(env);
    const outcome = await attemptDelivery(db, body.deliveryId, {
      allowLocalHttp: settings.ALLOW_LOCAL_WEBHOOKS,
      email: {
        binding: env.EMAIL,
        from: settings.EMAIL_FROM,
        caps: {
          perMailbox: settings.CONFIRMATIONS_PER_ADDRESS_PER_DAY,
          perProject: settings.CONFIRMATIONS_PER_PROJECT_PER_DAY,
        },
      },
      publicUrl: settings.PUBLIC_URL,
      integrationsApiBase: settings.INTEGRATIONS_API_BASE,
      retryDelays: settings.WEBHOOK_RETRY_DELAYS,
    });
    if (outcome.kind === 'retry') {
      message.retry({ delaySeconds: outcome.delaySeconds });
      return;
    }
    // Skipped: gone, settled, cancelled with its target, or another attempt holds it (whose own
    // record settles it; should that worker stop, the sweep sends it again once its claim expires).
    if (outcome.kind === 'failed')
      await env.DELIVERIES_DLQ?.send({ deliveryId: body.deliveryId, ...placeOfMessage(place) });
    message.ack();
  } catch (error) {
    // D1 unreachable, say: no attempt was made or recorded; try again in a while.
    console.error(
      JSON.stringify({
        level: 'error',
        job: 'deliveries',
        ...('submissionIds' in body ? { submissions: body.submissionIds.length } : body),
        error: errorText(error, 100),
        cause: causeText(error, 300),
      }),
    );
    message.retry({ delaySeconds: 30 });
  }
}

/**
 * The queue consumer. Marked submissions: their delivery rows are written and each delivery goes
 * to the queue as a message of its own. A delivery: one attempt; a retry waits in the queue for its
 * delay. The messages of a batch run side by side, CONSUMER_CONCURRENCY at a time.
 */
export async function consumeDeliveries(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
  const limit = pLimit(CONSUMER_CONCURRENCY);
  await Promise.all(batch.messages.map((message) => limit(() => handleMessage(message, env))));
}

/** How late a delivery may be before the sweep sends it again, and how long its new message is given. */
const GRACE_MS = 2 * 60_000;
const LEASE_MS = 10 * 60_000;
const SWEEP_LIMIT = 500;
/** Marks learnt per sweep: each is a D1 transaction of its own. */
const TRAIN_SWEEP_LIMIT = 100;
/** Submissions indexed per sweep: rows stored before search are indexed 1,000 a minute. */
const SEARCH_SWEEP_LIMIT = 1000;

/**
 * The sweep: the submissions and marks waiting for longer than the grace are judged and learnt
 * (C39); the delivery rows of submissions marked for longer than the grace are written; the
 * pending deliveries of disabled targets are cancelled; then pending deliveries overdue by more
 * than the grace (those just written among them), most overdue first, go to the queue again.
 * Returns how many went.
 */
export async function sweepDeliveries(env: Env, now: number): Promise<number> {
  if (env.DELIVERIES === undefined) return 0;
  let sent = 0;
  // C41: every place in turn; C31: one place failing is logged, and the others are swept.
  for (const place of places(env)) {
    try {
      sent += await sweepPlace(env, env.DELIVERIES, place, now);
    } catch (error) {
      console.error(
        JSON.stringify({
          level: 'error',
          job: 'sweep-deliveries',
          place: place.name,
          cause: causeText(error, 300),
        }),
      );
    }
  }
  return sent;
}

async function sweepPlace(env: Env, queue: Queue, place: Place, now: number): Promise<number> {
  const db = database(place.d1);
  const at = new Date(now).toISOString();
  const before = new Date(now - GRACE_MS).toISOString();
  // C39: the verdicts and marks whose message never came, before the deliveries they decide.
  await judgeSubmissions(db, env.ASSETS, await unjudgedBefore(db, before, SWEEP_LIMIT), now);
  await learnMarks(db, env.ASSETS, await untrainedBefore(db, before, TRAIN_SWEEP_LIMIT));
  await writeOutbox(db, await markedBefore(db, before, SWEEP_LIMIT));
  // C34: the words of submissions whose message never came, and of those stored before search.
  await indexSubmissions(db, await pendingSearch(db, before, SEARCH_SWEEP_LIMIT));
  await cancelOfDisabledTargets(db, at);
  const ids = await claimOverdue(db, at, before, new Date(now + LEASE_MS).toISOString(), SWEEP_LIMIT);
  await sendDeliveries(queue, ids, place.name);
  return ids.length;
}
