// C26: what a delivery does with a receiver's answer: a signed webhook's 404 is retried (a receiver
// being deployed answers so), a redirect is never followed, and at most 4 KiB of an answer is read,
// through a stand-in that behaves as `fetch` does (test/receiver.ts).
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { targets } from '../schema/tables.ts';
import { database } from '../src/store/db.ts';
import { consume, deliveryRow } from './queue.ts';
import { ANSWER_CHUNK, oneDelivery, RECEIVER, receiver } from './receiver.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe("C26: a receiver's answer", () => {
  it('C26: a signed webhook answering 404 is retried, never disabled (a receiver being deployed answers so)', async () => {
    const d = await oneDelivery();
    receiver(404);
    const result = await consume(d.id);
    expect(result.retryMessages).toHaveLength(1);
    expect(await deliveryRow(d.id)).toMatchObject({ status: 'pending', lastStatus: 404 });
    const [hook] = await database(env.DB).select().from(targets).where(eq(targets.id, d.webhook.id));
    expect(hook?.disabledAt).toBeNull();
  });

  it('C26: a redirect is never followed, whatever it points to: nothing reaches its address', async () => {
    const d = await oneDelivery();
    const calls = receiver(301);
    expect((await consume(d.id)).retryMessages).toHaveLength(1);
    expect(calls.map((c) => c.url)).toEqual([RECEIVER]);
    expect(await deliveryRow(d.id)).toMatchObject({ status: 'pending', lastStatus: 301 });
  });

  it("C26: at most 4 KiB of a webhook's answer is read, however long it is", async () => {
    const d = await oneDelivery();
    const calls = receiver(200);
    await consume(d.id);
    expect(calls[0]?.answerRead).toBeGreaterThan(0);
    expect(calls[0]?.answerRead).toBeLessThanOrEqual(4096 + ANSWER_CHUNK);
    expect(await deliveryRow(d.id)).toMatchObject({ status: 'delivered' });
  });
});
