// C26: the outbox goes through a Cloudflare Queue (delivery/outbox.ts sends its first messages).
// This same worker consumes them, by the message's type: submissions just stored are judged
// (verdicts.ts), learnt from (learning.ts), given their delivery rows (one message per delivery,
// deliveries.ts) and indexed for search (store/search.ts); a delivery's message is one attempt.
// The sweep (sweep.ts) does the same for the submissions and deliveries whose message never came.
import pLimit from 'p-limit';
import { type JobMessage, placeOfMessage } from '../delivery/outbox.ts';
import { causeText, errorText } from '../lib/faults.ts';
import { type Db, database } from '../store/db.ts';
import { writeOutbox } from '../store/outbox.ts';
import { DEFAULT_PLACE, placeOf } from '../store/places.ts';
import { indexSubmissions } from '../store/search.ts';
import { attemptQueued, sendDeliveries } from './deliveries.ts';
import { learnMarks } from './learning.ts';
import { judgeSubmissions } from './verdicts.ts';

/**
 * C26, C31: the messages of a batch are handled this many at a time, so that a receiver that hangs
 * (each attempt may take its whole time-out) never holds back the deliveries beside it.
 */
export const CONSUMER_CONCURRENCY = 10;

/** What a message asks for: submissions stored (C26, C34, C39), or one delivery to attempt. */
type Job = { type: 'stored'; submissionIds: string[] } | { type: 'delivery'; deliveryId: string };

const jobOf = (body: JobMessage): Job =>
  'submissionIds' in body
    ? { type: 'stored', submissionIds: body.submissionIds }
    : { type: 'delivery', deliveryId: body.deliveryId };

/**
 * Submissions just stored. Given twice (at least once), the second time judges, learns, writes,
 * sends and indexes nothing. C39: judged first, so that spam is held before any delivery is written.
 */
async function onStored(env: Env, db: Db, place: string, ids: readonly string[]): Promise<void> {
  await judgeSubmissions(db, env.ASSETS, ids, Date.now());
  await learnMarks(db, env.ASSETS, ids, Date.now());
  const written = await writeOutbox(db, ids);
  if (env.DELIVERIES !== undefined) await sendDeliveries(env.DELIVERIES, written, place);
  await indexSubmissions(db, ids);
}

/**
 * One delivery: a retry waits in the queue for its delay; skipped means gone, settled, cancelled
 * with its target, or held by another attempt (whose own record settles it; should that worker
 * stop, the sweep sends it again once its claim expires).
 */
async function onDelivery(env: Env, db: Db, place: string, message: Message<JobMessage>, id: string) {
  const outcome = await attemptQueued(env, db, id);
  if (outcome.kind === 'retry') {
    message.retry({ delaySeconds: outcome.delaySeconds });
    return;
  }
  if (outcome.kind === 'failed') await env.DELIVERIES_DLQ?.send({ deliveryId: id, ...placeOfMessage(place) });
  message.ack();
}

/** One message, by its type. */
async function handleMessage(message: Message<JobMessage>, env: Env): Promise<void> {
  const body = message.body;
  const place = body.place ?? DEFAULT_PLACE;
  const job = jobOf(body);
  try {
    // C41: the database of the message's place (a place whose binding is gone: retried, below).
    const db = database(placeOf(env, place).d1);
    switch (job.type) {
      case 'stored':
        await onStored(env, db, place, job.submissionIds);
        message.ack();
        return;
      case 'delivery':
        await onDelivery(env, db, place, message, job.deliveryId);
        return;
      default:
        job satisfies never;
    }
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
export async function consumeJobs(batch: MessageBatch<JobMessage>, env: Env): Promise<void> {
  const limit = pLimit(CONSUMER_CONCURRENCY);
  await Promise.all(batch.messages.map((message) => limit(() => handleMessage(message, env))));
}
