// C26, C31: deliveries end in a final state when their target is turned off (410 Gone, or by hand),
// the sweep takes the most overdue first and never a disabled target's, one attempt at a time runs
// per delivery whoever starts it, and one receiver that hangs never holds back another's delivery.
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveries, deliveryAttempts, targets } from '../schema/tables.ts';
import { attemptDelivery } from '../src/delivery/attempt.ts';
import type { JobMessage } from '../src/delivery/outbox.ts';
import worker from '../src/index.ts';
import { QueryRefused, StorageError } from '../src/lib/faults.ts';
import { newWebhookSecret } from '../src/lib/webhook-signature.ts';
import { database, storage } from '../src/store/db.ts';
import { claimDelivery, claimOverdue, deliveryId } from '../src/store/deliveries.ts';
import { listDeliveries } from '../src/store/delivery-log.ts';
import { insertTarget, newWebhookId, setTargetEnabled } from '../src/store/targets.ts';
import { expectEnvelope, seedProject, storedRows, submit, VALID_BODY } from './helpers.ts';
import { consume, consumeOutbox, deliveryRow } from './queue.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const db = () => database(env.DB);

async function projectWithWebhook(url: string) {
  const p = await seedProject();
  const webhook = { id: newWebhookId(), projectId: p.projectId, url, secret: newWebhookSecret() };
  await insertTarget(db(), webhook);
  return { ...p, webhook };
}

/** `n` accepted submissions of the project, with their delivery rows written: pending, never attempted. */
async function deliveriesOf(p: Awaited<ReturnType<typeof projectWithWebhook>>, n: number) {
  for (let i = 0; i < n; i++) await expectEnvelope(await submit({ key: p.apiKey, json: VALID_BODY }), 201);
  const rows = await storedRows(p.projectId);
  await consumeOutbox(rows.map((r) => r.id));
  return rows.map((r) => deliveryId(r.id, p.webhook.id));
}

/** A receiver per URL: a status, or a promise of one (a receiver that hangs until told). */
function receivers(answer: (url: string) => number | Promise<number>) {
  const calls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new Request(input, init).url;
    calls.push(url);
    return new Response('ok', { status: await answer(url) });
  });
  return calls;
}

describe('C26: a disabled target’s deliveries end, and say why', () => {
  it('C26: a receiver answering 410 disables its webhook and cancels its other pending deliveries, with the reason', async () => {
    const p = await projectWithWebhook('https://gone.example/hook');
    const [first, ...others] = await deliveriesOf(p, 3);
    receivers(() => 410);
    expect((await consume(first ?? '')).explicitAcks).toEqual(['msg-1']);
    expect(await deliveryRow(first ?? '')).toMatchObject({ status: 'failed', lastStatus: 410 });
    for (const id of others) {
      expect(await deliveryRow(id)).toMatchObject({
        status: 'cancelled',
        attempts: 0,
        nextAttemptAt: null,
        lastError: 'cancelled: the target was disabled after answering 410 Gone',
      });
    }
    const [hook] = await db().select().from(targets).where(eq(targets.id, p.webhook.id));
    expect(hook).toMatchObject({ disabledReason: 'gone' });
    // A message for one of them, still in the queue, sends nothing.
    const calls = receivers(() => 200);
    expect((await consume(others[0] ?? '', 2)).explicitAcks).toEqual(['msg-2']);
    expect(calls).toEqual([]);
    // Listed with the failed ones: ended without being delivered.
    const failed = await listDeliveries(db(), p.projectId, { failed: true });
    expect(failed.map((d) => d.status).sort()).toEqual(['cancelled', 'cancelled', 'failed']);
  });

  it('C26: the sweep never sends a disabled target’s deliveries, and cancels any left pending', async () => {
    const p = await projectWithWebhook('https://off.example/hook');
    const ids = await deliveriesOf(p, 2);
    // Disabled behind the worker's back (an attempt was in flight, say): left pending.
    await db()
      .update(targets)
      .set({ disabledAt: new Date().toISOString(), disabledReason: 'manual' })
      .where(eq(targets.id, p.webhook.id));
    const sent: unknown[] = [];
    const queue = { sendBatch: async (m: unknown[]) => void sent.push(...m) } as unknown as Queue;
    const { sweepDeliveries } = await import('../src/jobs/sweep.ts');
    expect(await sweepDeliveries({ ...env, DELIVERIES: queue }, Date.now() + 10 * 60_000)).toBe(0);
    expect(sent).toEqual([]);
    for (const id of ids) {
      expect(await deliveryRow(id)).toMatchObject({
        status: 'cancelled',
        lastError: 'cancelled: the target was disabled',
      });
    }
  });

  it('C26: turning a target off cancels its pending deliveries; on again, new submissions go to it, and the cancelled can be sent again', async () => {
    const p = await projectWithWebhook('https://toggle.example/hook');
    const [before] = await deliveriesOf(p, 1);
    expect(await setTargetEnabled(db(), p.projectId, p.webhook.id, false)).toBe(true);
    expect(await deliveryRow(before ?? '')).toMatchObject({ status: 'cancelled' });
    expect(await setTargetEnabled(db(), p.projectId, 'wh_nosuchhook0', false)).toBe(false);
    expect(await setTargetEnabled(db(), p.projectId, p.webhook.id, true)).toBe(true);
    const calls = receivers(() => 200);
    // A redelivery takes the cancelled one again.
    expect(await attemptDelivery(db(), before ?? '', { allowLocalHttp: false, again: true })).toMatchObject({
      kind: 'delivered',
    });
    expect(await deliveryRow(before ?? '')).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(calls).toHaveLength(1);
  });
});

describe('C26: the sweep takes the most overdue first', () => {
  it('C26: of the overdue pending deliveries, the one due longest ago goes first', async () => {
    const p = await projectWithWebhook('https://order.example/hook');
    const ids = await deliveriesOf(p, 3);
    const due = ['2026-01-01T00:02:00.000Z', '2026-01-01T00:00:00.000Z', '2026-01-01T00:01:00.000Z'];
    for (const [i, id] of ids.entries()) {
      await db()
        .update(deliveries)
        .set({ nextAttemptAt: due[i] ?? '' })
        .where(eq(deliveries.id, id));
    }
    const now = '2026-01-01T01:00:00.000Z';
    const lease = '2026-01-01T01:10:00.000Z';
    expect(await claimOverdue(db(), now, now, lease, 1)).toEqual([ids[1]]);
    expect(await claimOverdue(db(), now, now, lease, 1)).toEqual([ids[2]]);
    expect(await claimOverdue(db(), now, now, lease, 1)).toEqual([ids[0]]);
    expect(await claimOverdue(db(), now, now, lease, 1)).toEqual([]);
  });
});

describe('C26: one attempt at a time per delivery', () => {
  it('C26: two attempts started together make one request; the other is told it is busy', async () => {
    const p = await projectWithWebhook('https://slow.example/hook');
    const [id = ''] = await deliveriesOf(p, 1);
    let release: (status: number) => void = () => {};
    const hanging = new Promise<number>((resolve) => {
      release = resolve;
    });
    const calls = receivers(() => hanging);
    const first = attemptDelivery(db(), id, { allowLocalHttp: false, again: true });
    // The first holds its claim until it is recorded: the second finds it busy, sends nothing.
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const second = await attemptDelivery(db(), id, { allowLocalHttp: false, again: true });
    expect(second).toMatchObject({ kind: 'skipped', claim: { kind: 'busy' } });
    release(200);
    expect(await first).toMatchObject({ kind: 'delivered' });
    expect(calls).toHaveLength(1);
    const attempts = await db().select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, id));
    expect(attempts.map((a) => a.attempt)).toEqual([1]);
    // The next attempt gets the next number: allocated by its claim, never read and added to.
    receivers(() => 500);
    await attemptDelivery(db(), id, { allowLocalHttp: false, again: true });
    expect(await deliveryRow(id)).toMatchObject({ attempts: 2, leaseUntil: null });
  });

  it('C26: a claim whose worker stopped expires, and the delivery can be attempted again', async () => {
    const p = await projectWithWebhook('https://stopped.example/hook');
    const [id = ''] = await deliveriesOf(p, 1);
    const now = new Date();
    const claim = await claimDelivery(db(), id, { now, leaseUntil: new Date(now.getTime() + 60_000) });
    expect(claim.kind).toBe('claimed');
    expect((await claimDelivery(db(), id, { now, leaseUntil: now })).kind).toBe('busy');
    const later = new Date(now.getTime() + 61_000);
    const again = await claimDelivery(db(), id, {
      now: later,
      leaseUntil: new Date(later.getTime() + 60_000),
    });
    expect(again).toMatchObject({ kind: 'claimed', delivery: { attempts: 2 } });
  });

  it('C18 + C26: a statement D1 refuses for a constraint is a refusal, never reported as an outage', async () => {
    const p = await projectWithWebhook('https://constraint.example/hook');
    const [id = ''] = await deliveriesOf(p, 1);
    const row = { deliveryId: id, attempt: 1, at: new Date().toISOString(), durationMs: 1 };
    await storage(() => db().insert(deliveryAttempts).values(row));
    const twice = storage(() => db().insert(deliveryAttempts).values(row));
    await expect(twice).rejects.toBeInstanceOf(QueryRefused);
    await expect(twice).rejects.not.toBeInstanceOf(StorageError);
  });
});

describe('C26 + C31: one receiver’s slowness never delays another’s delivery', () => {
  it('C31: in one batch, a fast receiver of another project is served while two receivers hang', async () => {
    const slow = await projectWithWebhook('https://hangs.example/hook');
    const fast = await projectWithWebhook('https://fast.example/hook');
    const slowIds = await deliveriesOf(slow, 2);
    const [fastId = ''] = await deliveriesOf(fast, 1);
    const events: string[] = [];
    let fastSeen: () => void = () => {};
    const served = new Promise<void>((resolve) => {
      fastSeen = resolve;
    });
    receivers(async (url) => {
      if (url.startsWith('https://fast.example')) {
        events.push('fast served');
        fastSeen();
        return 200;
      }
      // A receiver that hangs until the fast one is served, or for 2 s (one after the other, the
      // fast one would wait behind both).
      await Promise.race([served, scheduler.wait(2000)]);
      events.push('slow answered');
      return 504;
    });
    const batch = createMessageBatch<JobMessage>(
      'edge-forms-deliveries',
      [...slowIds, fastId].map((deliveryId, i) => ({
        id: `m${i}`,
        timestamp: new Date(),
        attempts: 1,
        body: { deliveryId },
      })),
    );
    const ctx = createExecutionContext();
    await worker.queue?.(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(events[0]).toBe('fast served');
    expect(result.explicitAcks).toEqual(['m2']);
    expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual(['m0', 'm1']);
    expect(await deliveryRow(fastId)).toMatchObject({ status: 'delivered' });
  });
});

describe('C26: the worker checks a destination before each attempt', () => {
  it('C26: a destination that is not a public host is a failed attempt that says why, and nothing is sent', async () => {
    const p = await projectWithWebhook('https://10.0.0.1/hook');
    const [id = ''] = await deliveriesOf(p, 1);
    const calls = receivers(() => 200);
    expect((await consume(id)).retryMessages).toHaveLength(1);
    expect(calls).toEqual([]);
    expect(await deliveryRow(id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'a private address is not a public host',
    });
  });
});
