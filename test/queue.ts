// The queue consumer run as Cloudflare would run it, for the delivery tests (C26, C27).
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { vi } from 'vitest';
import { deliveries } from '../schema/tables.ts';
import { issueToken } from '../src/accept/widget-token.ts';
import type { JobMessage } from '../src/delivery/outbox.ts';
import worker from '../src/index.ts';
import { database } from '../src/store/db.ts';
import { isWrite, spyD1 } from './d1-spy.ts';
import { expectEnvelope, storedRows, submit, submitWithEnv, VALID_BODY } from './helpers.ts';

/**
 * Runs the worker's queue handler on one message, as Cloudflare would. getQueueResult says which
 * messages were acked or retried; the delay a retry asked for is taken from the call itself
 * (`delays`).
 */
async function handle(body: JobMessage, attempts: number, environment: Env) {
  const batch = createMessageBatch<JobMessage>('edge-forms-deliveries', [
    { id: `msg-${attempts}`, timestamp: new Date(), attempts, body },
  ]);
  const delays: (number | undefined)[] = [];
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    vi.spyOn(message, 'retry').mockImplementation((options?: QueueRetryOptions) => {
      delays.push(options?.delaySeconds);
      retry(options);
    });
  }
  const ctx = createExecutionContext();
  await worker.queue?.(batch, environment, ctx);
  return { ...(await getQueueResult(batch, ctx)), delays };
}

/**
 * The outbox message of marked submissions (C26) through the worker's queue handler: it writes
 * their delivery rows, and sends one message per delivery to `environment.DELIVERIES`.
 */
export function consumeOutbox(submissionIds: string[], environment: Env = env, place?: string) {
  return handle({ submissionIds, ...(place === undefined ? {} : { place }) }, 1, environment);
}

/** What a person's browser sends (C39): a user agent, Accept-Language. */
export const BROWSER_HEADERS = {
  'User-Agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Accept-Language': 'en-GB,en;q=0.9',
};

/** The values with the widget's token of a page opened a minute ago (C39), as /widget.js sends them. */
export async function throughWidget(projectId: string, values: Record<string, unknown>, ago = 60_000) {
  const { token } = await issueToken({ current: env.ADMIN_TOKEN as string }, projectId, Date.now() - ago);
  return { ...values, _widget_token: token, _fill_ms: 20_000 };
}

/**
 * Sends the values as a person would, through the widget, and runs the consumer on what was
 * stored, as the queue would; returns the row. The filter's text layers speak alone: the request
 * is a browser's (C39's signals are tested in spam-signals.test.ts).
 */
export async function sendAndJudge(key: string, projectId: string, values: Record<string, unknown>) {
  const before = new Set((await storedRows(projectId)).map((r) => r.id));
  await expectEnvelope(
    await submit({ key, json: await throughWidget(projectId, values), headers: BROWSER_HEADERS }),
    201,
  );
  const row = (await storedRows(projectId)).find((r) => !before.has(r.id));
  if (row === undefined) throw new Error('not stored');
  await consumeOutbox([row.id]);
  return (await storedRows(projectId)).find((r) => r.id === row.id) as typeof row;
}

/**
 * The `attempts`th delivery of one delivery (in `environment`) through the worker's queue handler.
 * Its row is written first if it is not yet, by its submission's outbox message, as the queue would
 * have brought that message first.
 */
export async function consume(id: string, attempts = 1, environment: Env = env) {
  if ((await deliveryRow(id)) === undefined) {
    const submissionId = id.slice(0, id.lastIndexOf('.'));
    await consumeOutbox([submissionId], environment);
  }
  return handle({ deliveryId: id }, attempts, environment);
}

export async function deliveryRow(id: string) {
  const [row] = await database(env.DB).select().from(deliveries).where(eq(deliveries.id, id));
  return row;
}

/**
 * The D1 round trips of a warm accepted submission with this key (a first one warms the key), and
 * every write of both.
 */
export async function warmSubmissionTrips(apiKey: string): Promise<{ warm: string[]; writes: string[] }> {
  const spy = spyD1(env.DB);
  const spied = { ...env, DB: spy.db };
  await expectEnvelope(await submitWithEnv(spied, { key: apiKey, json: VALID_BODY }), 201);
  const before = spy.trips.length;
  await expectEnvelope(await submitWithEnv(spied, { key: apiKey, json: VALID_BODY }), 201);
  return { warm: spy.trips.slice(before), writes: spy.trips.filter(isWrite) };
}
