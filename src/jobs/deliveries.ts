// C26: the consumer's delivery jobs: each delivery written goes to the queue as a message of its
// own, and a delivery's message is one attempt (delivery/attempt.ts) under the worker's settings.
import { config } from '../config.ts';
import { type AttemptOutcome, attemptDelivery } from '../delivery/attempt.ts';
import { mailSetup } from '../delivery/mail-settings.ts';
import { placeOfMessage } from '../delivery/outbox.ts';
import type { Db } from '../store/db.ts';

/** One message per delivery (up to 100 in a call), each naming its place (C41). */
export async function sendDeliveries(
  queue: Queue,
  deliveryIds: readonly string[],
  place: string,
): Promise<void> {
  for (let i = 0; i < deliveryIds.length; i += 100) {
    await queue.sendBatch(
      deliveryIds.slice(i, i + 100).map((id) => ({ body: { deliveryId: id, ...placeOfMessage(place) } })),
    );
  }
}

/** One attempt of a delivery, with the worker's settings: where it may go, email, the stand-in, the retries. */
export function attemptQueued(env: Env, db: Db, deliveryId: string): Promise<AttemptOutcome> {
  const settings = config(env);
  return attemptDelivery(db, deliveryId, {
    allowLocalHttp: settings.ALLOW_LOCAL_WEBHOOKS,
    email: {
      ...mailSetup(env),
      caps: {
        perMailbox: settings.CONFIRMATIONS_PER_ADDRESS_PER_DAY,
        perProject: settings.CONFIRMATIONS_PER_PROJECT_PER_DAY,
      },
    },
    publicUrl: settings.PUBLIC_URL,
    integrationsApiBase: settings.INTEGRATIONS_API_BASE,
    retryDelays: settings.WEBHOOK_RETRY_DELAYS,
  });
}
