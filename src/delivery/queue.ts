// C26: the outbox goes through a Cloudflare Queue: the submit path sends a message per delivery
// after its 201 (ctx.waitUntil), this same worker consumes them, and a sweep on a Cron Trigger
// sends again the deliveries whose message never came.
import { database } from '../store/db.ts';
import { claimOverdue, deliveryId, findDeliveryToSend } from '../store/deliveries.ts';
import { attemptDelivery, retryDelays } from './webhooks.ts';

export type DeliveryMessage = { deliveryId: string };

/**
 * The deliveries of every batch written within this long of the first go to the queue together,
 * in one call (up to 100 messages each): under load, a call per 50 ms instead of one per batch.
 * A delivery waits that much longer for its first attempt; the 201 does not wait at all.
 */
export const COALESCE_MS = 50;

type Sender = { pending: MessageSendRequest<DeliveryMessage>[]; flushing: Promise<void> | undefined };
const senders = new WeakMap<Queue, Sender>();

/**
 * After a batch of submissions is written: one message per delivery written with them (spam has
 * none), sent with those of the batches around it. The promise settles when they are sent (the
 * writing request keeps itself alive until then); a message that never arrives is sent by the sweep.
 */
export function enqueueDeliveries(
  queue: Queue | undefined,
  rows: readonly { id: string; spam?: boolean; outbox?: boolean; webhookIds?: readonly string[] }[],
): Promise<void> {
  if (queue === undefined) return Promise.resolve();
  const messages = rows.flatMap((row) =>
    row.spam === true || row.outbox !== true
      ? []
      : (row.webhookIds ?? []).map((webhookId) => ({
          body: { deliveryId: deliveryId(row.id, webhookId) } satisfies DeliveryMessage,
        })),
  );
  if (messages.length === 0) return Promise.resolve();
  let sender = senders.get(queue);
  if (sender === undefined) {
    sender = { pending: [], flushing: undefined };
    senders.set(queue, sender);
  }
  sender.pending.push(...messages);
  let flushing = sender.flushing;
  if (flushing === undefined) {
    const own = sender;
    flushing = (async () => {
      await new Promise((resolve) => setTimeout(resolve, COALESCE_MS));
      const taken = own.pending.splice(0);
      own.flushing = undefined;
      for (let i = 0; i < taken.length; i += 100) await queue.sendBatch(taken.slice(i, i + 100));
    })();
    own.flushing = flushing;
  }
  return flushing;
}

const allowLocalHttp = (env: Env) => String(env.ALLOW_LOCAL_WEBHOOKS) === 'true';

/** The queue consumer: one attempt per message; a retry waits in the queue for its delay. */
export async function consumeDeliveries(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
  const db = database(env.DB);
  for (const message of batch.messages) {
    try {
      const delivery = await findDeliveryToSend(db, message.body.deliveryId);
      // Gone (its submission erased, its webhook removed) or already settled: nothing to send.
      if (delivery === undefined || delivery.status !== 'pending') {
        message.ack();
        continue;
      }
      if (delivery.disabledAt !== null) {
        message.ack();
        continue;
      }
      const outcome = await attemptDelivery(db, delivery, {
        allowLocalHttp: allowLocalHttp(env),
        email: { binding: env.EMAIL, from: env.EMAIL_FROM },
        retryDelays: retryDelays(env.WEBHOOK_RETRY_DELAYS),
      });
      if (outcome.kind === 'retry') {
        message.retry({ delaySeconds: outcome.delaySeconds });
      } else {
        if (outcome.kind === 'failed') await env.DELIVERIES_DLQ?.send({ deliveryId: delivery.id });
        message.ack();
      }
    } catch (error) {
      // D1 unreachable, say: no attempt was made or recorded; try again in a while.
      console.error(
        JSON.stringify({
          level: 'error',
          job: 'deliveries',
          deliveryId: message.body.deliveryId,
          error: String(error).slice(0, 300),
        }),
      );
      message.retry({ delaySeconds: 30 });
    }
  }
}

/** How late a delivery may be before the sweep sends it again, and how long its new message is given. */
const GRACE_MS = 2 * 60_000;
const LEASE_MS = 10 * 60_000;
const SWEEP_LIMIT = 500;

/** The sweep: pending deliveries overdue by more than the grace go to the queue again. */
export async function sweepDeliveries(env: Env, now: number): Promise<number> {
  if (env.DELIVERIES === undefined) return 0;
  const ids = await claimOverdue(
    database(env.DB),
    new Date(now - GRACE_MS).toISOString(),
    new Date(now + LEASE_MS).toISOString(),
    SWEEP_LIMIT,
  );
  for (let i = 0; i < ids.length; i += 100) {
    await env.DELIVERIES.sendBatch(ids.slice(i, i + 100).map((id) => ({ body: { deliveryId: id } })));
  }
  return ids.length;
}
