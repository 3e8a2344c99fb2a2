// C26, C34, C39: the sweep, on a Cron Trigger: what the queue's messages never did (a message lost,
// the queue down) is done here, every place in turn, the oldest first.
import { causeText } from '../lib/faults.ts';
import { database } from '../store/db.ts';
import { cancelOfDisabledTargets, claimOverdue } from '../store/deliveries.ts';
import { untrainedBefore } from '../store/learning.ts';
import { markedBefore, writeOutbox } from '../store/outbox.ts';
import { type Place, places } from '../store/places.ts';
import { indexSubmissions, pendingSearch } from '../store/search.ts';
import { forgetNonces, unjudgedBefore } from '../store/spam.ts';
import { sendDeliveries } from './deliveries.ts';
import { learnMarks } from './learning.ts';
import { judgeSubmissions } from './verdicts.ts';

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
  await learnMarks(db, env.ASSETS, await untrainedBefore(db, before, TRAIN_SWEEP_LIMIT), now);
  await forgetNonces(db, at);
  await writeOutbox(db, await markedBefore(db, before, SWEEP_LIMIT));
  // C34: the words of submissions whose message never came, and of those stored before search.
  await indexSubmissions(db, await pendingSearch(db, before, SEARCH_SWEEP_LIMIT));
  await cancelOfDisabledTargets(db, at);
  const ids = await claimOverdue(db, at, before, new Date(now + LEASE_MS).toISOString(), SWEEP_LIMIT);
  await sendDeliveries(queue, ids, place.name);
  return ids.length;
}
