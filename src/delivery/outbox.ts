// C26: the outbox's first step, on the submission path. After its 201 the submit path sends one
// message for the marked submissions of the batches written around it (ctx.waitUntil); the
// queue's consumer (jobs/consumer.ts, loaded on its first message) judges them, writes their
// delivery rows and indexes them. Only this part is evaluated when a form post starts an isolate.
// The queue is bound as DELIVERIES (and named edge-forms-deliveries) though it carries every job:
// a binding or queue renamed would leave a deployed worker's waiting messages in a queue nothing
// consumes, so the names stay.
import { MAX_PARAMETERS } from '../store/d1.ts';
import { DEFAULT_PLACE } from '../store/places.ts';

/** C41: a message names its place unless it is the default (messages sent before places had none). */
export const placeOfMessage = (place: string) => (place === DEFAULT_PLACE ? {} : { place });

/**
 * A job of the queue: one delivery to attempt, or submissions just stored, to judge (C39), learn
 * from, give their delivery rows (C26) and index for search (C34).
 */
export type JobMessage = ({ deliveryId: string } | { submissionIds: string[] }) & {
  /** C41: the place (database) of the submissions or delivery; absent: the default place. */
  place?: string;
};

/**
 * The marked submissions of every batch written within this long of the first go to the queue
 * together, in one message (of up to 100 ids): under load, a message per 50 ms instead of one per
 * delivery. A delivery waits that much longer for its first attempt; the 201 does not wait at all.
 */
export const COALESCE_MS = 50;

/** `since`: when the gathering in progress began (0: none). */
type Sender = { pending: string[]; since: number };
/** A gathering this old was lost with its request (its timer never fired): the next caller starts another. */
const LOST_AFTER_MS = 20 * COALESCE_MS;
const senders = new WeakMap<Queue, Map<string, Sender>>();

/**
 * After a batch of submissions is written: their ids, for the consumer to write the deliveries of
 * those marked with some (C26; spam has none) and to index their words for search (C34), sent with
 * those of the batches around it. Whoever starts a gathering sends it, from
 * its own request, and is given the promise to keep that request alive; the others are given a
 * settled one: their ids ride along. (Handing one request's promise to another request's waitUntil
 * would have workerd resolve it across request contexts, which it refuses to continue, with a
 * warning each time.) A message that never arrives is made up for by the sweep.
 */
export function enqueueStored(
  queue: Queue | undefined,
  rows: readonly { id: string }[],
  place: string = DEFAULT_PLACE,
): Promise<void> {
  if (queue === undefined || rows.length === 0) return Promise.resolve();
  const marked = rows.map((row) => row.id);
  let byPlace = senders.get(queue);
  if (byPlace === undefined) {
    byPlace = new Map();
    senders.set(queue, byPlace);
  }
  let sender = byPlace.get(place);
  if (sender === undefined) {
    sender = { pending: [], since: 0 };
    byPlace.set(place, sender);
  }
  sender.pending.push(...marked);
  const now = Date.now();
  if (sender.since !== 0 && now - sender.since < LOST_AFTER_MS) return Promise.resolve();
  sender.since = now;
  const own = sender;
  return (async () => {
    await new Promise((resolve) => setTimeout(resolve, COALESCE_MS));
    const taken = own.pending.splice(0);
    own.since = 0;
    await sendOutbox(queue, taken, place);
  })();
}

/** Marked submissions to the queue, one message per 100 (D1's bound on a statement's parameters). */
async function sendOutbox(queue: Queue, submissionIds: readonly string[], place: string): Promise<void> {
  const messages: MessageSendRequest<JobMessage>[] = [];
  for (let i = 0; i < submissionIds.length; i += MAX_PARAMETERS) {
    const ids = submissionIds.slice(i, i + MAX_PARAMETERS);
    messages.push({ body: { submissionIds: ids, ...placeOfMessage(place) } });
  }
  for (let i = 0; i < messages.length; i += 100) await queue.sendBatch(messages.slice(i, i + 100));
}
