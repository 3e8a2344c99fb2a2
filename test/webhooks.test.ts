// C26: targets. The outbox is marked in the submission's own row, in its own write; the queue consumer sends each
// delivery signed as Standard Webhooks defines it (verified with the `standardwebhooks` package, a
// verifier we did not write), records every attempt, retries with backoff, gives up to the
// dead-letter queue after the last attempt, and disables a webhook that answers 410.
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveries, deliveryAttempts, submissions, targets } from '../schema/tables.ts';
import { config, RETRY_DELAYS } from '../src/config.ts';
import { MAX_ATTEMPTS } from '../src/delivery/attempt.ts';
import type { JobMessage } from '../src/delivery/outbox.ts';
import worker from '../src/index.ts';
import { newWebhookSecret, signWebhook } from '../src/lib/webhook-signature.ts';
import { database } from '../src/store/db.ts';
import { deliveryId } from '../src/store/deliveries.ts';
import { listDeliveries } from '../src/store/delivery-log.ts';
import { insertSubmissions } from '../src/store/intake.ts';
import { insertTarget, newWebhookId, removeTarget, rotateSigningSecret } from '../src/store/targets.ts';
import { spyD1 } from './d1-spy.ts';
import { expectEnvelope, seedProject, storedRows, submit, submitWithEnv, VALID_BODY } from './helpers.ts';
import { consume, consumeOutbox, deliveryRow, warmSubmissionTrips } from './queue.ts';
import { oneDelivery, projectWithWebhook, RECEIVER, receiver } from './receiver.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * Runs the worker's queue handler on one message, as Cloudflare would. getQueueResult says which
 * messages were acked or retried; the delay a retry asked for is taken from the call itself.
 */

/** A stand-in queue that records what is sent to it. */
function recordingQueue() {
  const sent: { body: unknown }[][] = [];
  const queue = {
    send: async (body: unknown) => void sent.push([{ body }]),
    sendBatch: async (messages: { body: unknown }[]) => void sent.push(messages),
  } as unknown as Queue;
  return { queue, sent };
}

async function marker(submissionId: string) {
  const [row] = await database(env.DB)
    .select({ outbox: submissions.outbox })
    .from(submissions)
    .where(eq(submissions.id, submissionId));
  return row?.outbox;
}

describe('C26: the outbox is written with the submission', () => {
  it('C26: an accepted submission is marked for delivery in its own row, in its one D1 round trip; its deliveries are visible at once', async () => {
    const p = await projectWithWebhook();
    const second = {
      id: newWebhookId(),
      projectId: p.projectId,
      url: `${RECEIVER}/2`,
      secret: newWebhookSecret(),
    };
    await insertTarget(database(env.DB), second);
    const { warm, writes } = await warmSubmissionTrips(p.apiKey);
    // One statement: the outbox is a column of the row, not a row of its own.
    expect(warm).toEqual([expect.stringMatching(/^insert into "submissions" .*"outbox"/)]);
    expect(writes).toHaveLength(2);
    const rows = await storedRows(p.projectId);
    for (const row of rows) expect(await marker(row.id)).toBe(1);
    // Before any consumer has run, the deliveries are listed: pending, never attempted.
    const listed = await listDeliveries(database(env.DB), p.projectId);
    expect(listed.map((d) => [d.id, d.status, d.attempts]).sort()).toEqual(
      rows.flatMap((r) => [p.webhook.id, second.id].map((w) => [deliveryId(r.id, w), 'pending', 0])).sort(),
    );
    // The queue's message writes their rows, clears the marks, and sends one message per delivery.
    const { queue, sent } = recordingQueue();
    const result = await consumeOutbox(
      rows.map((r) => r.id),
      { ...env, DELIVERIES: queue },
    );
    expect(result.explicitAcks).toEqual(['msg-1']);
    expect(
      sent
        .flat()
        .map((m) => m.body)
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual(
      listed
        .map((d) => ({ deliveryId: d.id }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );
    for (const row of rows) {
      expect(await marker(row.id)).toBeNull();
      expect(await deliveryRow(deliveryId(row.id, p.webhook.id))).toMatchObject({
        status: 'pending',
        attempts: 0,
        projectId: p.projectId,
      });
    }
    const all = await database(env.DB).select().from(deliveries).where(eq(deliveries.projectId, p.projectId));
    expect(all).toHaveLength(4);
    expect(await listDeliveries(database(env.DB), p.projectId)).toEqual(listed);
    // At least once: the same message given again writes nothing and sends nothing.
    const again = recordingQueue();
    await consumeOutbox(
      rows.map((r) => r.id),
      { ...env, DELIVERIES: again.queue },
    );
    expect(again.sent.flat()).toEqual([]);
    expect(
      await database(env.DB).select().from(deliveries).where(eq(deliveries.projectId, p.projectId)),
    ).toHaveLength(4);
  });

  it('C26: after the 201 the marked submissions go to the queue together, in one message per 50 ms', async () => {
    const p = await projectWithWebhook();
    const { queue, sent } = recordingQueue();
    // A binding of its own, so that this test's committer is made with this queue.
    const withQueue = { ...env, DB: spyD1(env.DB).db, DELIVERIES: queue };
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        submitWithEnv(withQueue, { key: p.apiKey, json: { ...VALID_BODY, message: `${i}` } }),
      ),
    );
    for (const res of replies) await expectEnvelope(res, 201);
    const rows = await storedRows(p.projectId);
    const bodies = sent.flat().map((m) => m.body as { submissionIds: string[] });
    expect(bodies.flatMap((b) => b.submissionIds).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(bodies.length).toBeLessThan(6);
  });

  it('C26 + C34: whoever starts a gathering sends it from its own request; the others are not handed its promise', async () => {
    const { enqueueStored } = await import('../src/delivery/outbox.ts');
    const { queue, sent } = recordingQueue();
    const first = enqueueStored(queue, [{ id: 'a' }]);
    // Spam too: it is delivered to nobody, but its words are indexed for the inbox's search.
    const second = enqueueStored(queue, [{ id: 'b' }, { id: 'spam' }]);
    // Settled at once, before anything is sent: a promise of its own, not the sender's.
    await second;
    expect(sent).toEqual([]);
    await first;
    expect(sent).toEqual([[{ body: { submissionIds: ['a', 'b', 'spam'] } }]]);
    // The next gathering is a new one.
    await enqueueStored(queue, [{ id: 'c' }]);
    expect(sent.at(-1)).toEqual([{ body: { submissionIds: ['c'] } }]);
  });

  it('C26: a target removed or disabled before the deliveries are written gets none', async () => {
    const p = await projectWithWebhook();
    const target = (path: string) => ({
      id: newWebhookId(),
      projectId: p.projectId,
      url: `${RECEIVER}/${path}`,
      secret: newWebhookSecret(),
    });
    const removed = target('removed');
    const disabled = target('disabled');
    await insertTarget(database(env.DB), removed);
    await insertTarget(database(env.DB), disabled);
    await expectEnvelope(await submit({ key: p.apiKey, json: VALID_BODY }), 201);
    const [row] = await storedRows(p.projectId);
    const id = row?.id ?? '';
    expect(await removeTarget(database(env.DB), p.projectId, removed.id, 'webhook')).toBe(true);
    await database(env.DB)
      .update(targets)
      .set({ disabledAt: new Date().toISOString() })
      .where(eq(targets.id, disabled.id));
    expect((await listDeliveries(database(env.DB), p.projectId)).map((d) => d.id)).toEqual([
      deliveryId(id, p.webhook.id),
    ]);
    await consumeOutbox([id]);
    const written = await database(env.DB).select().from(deliveries).where(eq(deliveries.submissionId, id));
    expect(written.map((d) => d.id)).toEqual([deliveryId(id, p.webhook.id)]);
  });

  it('C26: deliveries list gives the latest, oldest first, written or not', async () => {
    const p = await projectWithWebhook();
    const ids = [1, 2, 3].map((n) => `01a00000-0000-7000-8000-00000000c0d${n}`);
    await insertSubmissions(
      env.DB,
      ids.map((id, n) => ({
        id,
        projectId: p.projectId,
        data: '{}',
        receivedAt: `2026-11-23T10:00:0${n}.000Z`,
        outbox: 1 as const,
      })),
    );
    // The oldest and the newest written; the middle one still marked.
    await consumeOutbox([ids[0] ?? '', ids[2] ?? '']);
    const latest = await listDeliveries(database(env.DB), p.projectId, { limit: 2 });
    expect(latest.map((d) => d.submissionId)).toEqual([ids[1], ids[2]]);
    const all = await listDeliveries(database(env.DB), p.projectId);
    expect(all.map((d) => d.submissionId)).toEqual(ids);
  });

  it('C18 + C26: when D1 fails while the deliveries are written, nothing is written and the message is retried', async () => {
    const p = await projectWithWebhook();
    await expectEnvelope(await submit({ key: p.apiKey, json: VALID_BODY }), 201);
    const [row] = await storedRows(p.projectId);
    const id = row?.id ?? '';
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const failing = { ...env, DB: spyD1(env.DB, (sql) => sql.startsWith('batch')).db };
    const result = await consumeOutbox([id], failing);
    expect(result.retryMessages).toEqual([{ msgId: 'msg-1' }]);
    expect(result.delays).toEqual([30]);
    expect(await marker(id)).toBe(1);
    expect(await database(env.DB).select().from(deliveries).where(eq(deliveries.submissionId, id))).toEqual(
      [],
    );
  });

  it('C22 + C26: honeypot spam is stored but sends nothing', async () => {
    const p = await projectWithWebhook(RECEIVER, { honeypot: 'website' });
    await expectEnvelope(await submit({ key: p.apiKey, json: { ...VALID_BODY, website: 'spam' } }), 201);
    expect(await storedRows(p.projectId)).toHaveLength(1);
    expect(
      await database(env.DB).select().from(deliveries).where(eq(deliveries.projectId, p.projectId)),
    ).toEqual([]);
  });

  it('C26: a project without webhooks writes its submission alone, as before', async () => {
    const p = await seedProject();
    const spy = spyD1(env.DB);
    const spied = { ...env, DB: spy.db };
    await submitWithEnv(spied, { key: p.apiKey, json: VALID_BODY });
    const before = spy.trips.length;
    await expectEnvelope(await submitWithEnv(spied, { key: p.apiKey, json: VALID_BODY }), 201);
    expect(spy.trips.slice(before)).toEqual([expect.stringMatching(/^insert into "submissions"/)]);
  });

  it('C25 + C26: erasing a submission deletes its deliveries and their attempts', async () => {
    const p = await projectWithWebhook();
    await submit({ key: p.apiKey, json: VALID_BODY });
    const [row] = await storedRows(p.projectId);
    const id = deliveryId(row?.id ?? '', p.webhook.id);
    receiver(500);
    await consume(id);
    const { eraseSubmissions } = await import('../src/store/submissions.ts');
    expect((await eraseSubmissions(database(env.DB), p.projectId, 'name', VALID_BODY.name)).submissions).toBe(
      1,
    );
    expect(await deliveryRow(id)).toBeUndefined();
    expect(
      await database(env.DB).select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, id)),
    ).toEqual([]);
  });
});

describe('C26: sending', () => {
  it('C26: the event, its headers, and a signature that standardwebhooks verifies', async () => {
    const d = await oneDelivery();
    const calls = receiver(200);
    const result = await consume(d.id);
    expect(result.explicitAcks).toEqual(['msg-1']);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe(RECEIVER);
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.headers['webhook-id']).toBe(d.id);
    const event = new Webhook(d.webhook.secret).verify(call?.body ?? '', call?.headers ?? {});
    expect(event).toEqual({
      type: 'submission.created',
      timestamp: d.submission?.receivedAt,
      data: {
        projectId: d.projectId,
        submissionId: d.submission?.id,
        receivedAt: d.submission?.receivedAt,
        fields: VALID_BODY,
      },
    });
    // Nothing else leaves: no key, no header of the submitter.
    expect(JSON.stringify(call)).not.toContain(d.apiKey);
    expect(Object.keys(call?.headers ?? {}).sort()).toEqual(
      ['content-type', 'user-agent', 'webhook-id', 'webhook-signature', 'webhook-timestamp'].sort(),
    );
    expect(await deliveryRow(d.id)).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 200 });
  });

  it('C26: during a rotation each delivery is signed with both secrets, and either verifies', async () => {
    const d = await oneDelivery();
    const old = d.webhook.secret;
    const fresh = newWebhookSecret();
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await rotateSigningSecret(database(env.DB), d.projectId, d.webhook.id, fresh, until);
    const calls = receiver(200);
    await consume(d.id);
    const [call] = calls;
    expect(call?.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [fresh, old]) {
      expect(new Webhook(secret).verify(call?.body ?? '', call?.headers ?? {})).toMatchObject({
        type: 'submission.created',
      });
    }
    expect(() => new Webhook(newWebhookSecret()).verify(call?.body ?? '', call?.headers ?? {})).toThrow();
  });

  it('C26: a failure is retried with backoff; every attempt is recorded with its status and an excerpt', async () => {
    const d = await oneDelivery();
    receiver(500, new TypeError('Network connection lost.'), 302, 200);
    const first = await consume(d.id, 1);
    expect(first.retryMessages).toEqual([{ msgId: 'msg-1' }]);
    expect(first.delays).toEqual([RETRY_DELAYS[0]]);
    const second = await consume(d.id, 2);
    expect(second.delays).toEqual([RETRY_DELAYS[1]]);
    // A redirect is not followed: it is a failed attempt.
    const third = await consume(d.id, 3);
    expect(third.delays).toEqual([RETRY_DELAYS[2]]);
    const fourth = await consume(d.id, 4);
    expect(fourth.explicitAcks).toEqual(['msg-4']);
    const attempts = await database(env.DB)
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, d.id))
      .orderBy(deliveryAttempts.attempt);
    expect(attempts.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, null],
      [2, null, 'TypeError: Network connection lost.'],
      [3, 302, null],
      [4, 200, null],
    ]);
    expect(attempts[0]?.excerpt?.length).toBeLessThanOrEqual(200);
    expect(attempts[0]?.excerpt).toMatch(/^answer 500 x+$/);
    expect(await deliveryRow(d.id)).toMatchObject({ status: 'delivered', attempts: 4, lastStatus: 200 });
    // A message for a settled delivery sends nothing more.
    const calls = receiver(200);
    expect((await consume(d.id, 5)).explicitAcks).toEqual(['msg-5']);
    expect(calls).toEqual([]);
  });

  it('C26: after the last attempt the delivery has failed and goes to the dead-letter queue', async () => {
    const d = await oneDelivery();
    await database(env.DB)
      .update(deliveries)
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where(eq(deliveries.id, d.id));
    receiver(503);
    const dead: unknown[] = [];
    const withDlq = {
      ...env,
      DELIVERIES_DLQ: {
        send: async (body: unknown) => void dead.push(body),
        sendBatch: async () => {},
      } as unknown as Queue,
    };
    const batch = createMessageBatch<JobMessage>('edge-forms-deliveries', [
      { id: 'last', timestamp: new Date(), attempts: MAX_ATTEMPTS, body: { deliveryId: d.id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue?.(batch, withDlq, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(['last']);
    expect(result.retryMessages).toEqual([]);
    expect(dead).toEqual([{ deliveryId: d.id }]);
    expect(await deliveryRow(d.id)).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      lastStatus: 503,
    });
    expect(RETRY_DELAYS.reduce((a, b) => a + b, 0) / 3600).toBeGreaterThan(20);
  });

  it('C26: a receiver answering 410 Gone disables its webhook: no more deliveries are written for it', async () => {
    const d = await oneDelivery();
    receiver(410);
    expect((await consume(d.id)).explicitAcks).toEqual(['msg-1']);
    expect(await deliveryRow(d.id)).toMatchObject({ status: 'failed', lastStatus: 410 });
    const [hook] = await database(env.DB).select().from(targets).where(eq(targets.id, d.webhook.id));
    expect(hook?.disabledAt).not.toBeNull();
    // Once the project's cached configuration has expired, new submissions get no delivery for it.
    const { resolveProject } = await import('../src/projects/cache.ts');
    const { hashKey } = await import('../src/projects/keys.ts');
    expect((await resolveProject(env, 'default', await hashKey(d.apiKey), 0))?.hasTargets).toBe(false);
  });

  it('C26: a deployed worker sends over https only: plain http is a failed attempt, nothing sent', async () => {
    const d = await oneDelivery('http://127.0.0.1:9999/hooks');
    const calls = receiver(200);
    const result = await consume(d.id);
    expect(result.retryMessages).toHaveLength(1);
    expect(calls).toEqual([]);
    expect(await deliveryRow(d.id)).toMatchObject({
      status: 'pending',
      lastError: expect.stringMatching(/plain http is allowed only to localhost/),
    });
    // With local webhooks allowed (npm run dev), it goes.
    const local = { ...env, ALLOW_LOCAL_WEBHOOKS: 'true' } as unknown as Env;
    const batch = createMessageBatch<JobMessage>('edge-forms-deliveries', [
      { id: 'local', timestamp: new Date(), attempts: 2, body: { deliveryId: d.id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue?.(batch, local, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['local']);
    expect(calls).toHaveLength(1);
  });
});

describe('C26: the sweep', () => {
  it('C26: a submission marked for longer than two minutes has its deliveries written and sent by the sweep', async () => {
    const p = await projectWithWebhook();
    await expectEnvelope(await submit({ key: p.apiKey, json: VALID_BODY }), 201);
    const [row] = await storedRows(p.projectId);
    const id = deliveryId(row?.id ?? '', p.webhook.id);
    const { queue, sent } = recordingQueue();
    const withQueue = { ...env, DELIVERIES: queue };
    const { sweepDeliveries } = await import('../src/jobs/sweep.ts');
    const receivedAt = Date.parse(row?.receivedAt ?? '');
    await sweepDeliveries(withQueue, receivedAt + 60_000);
    expect(await marker(row?.id ?? '')).toBe(1);
    expect(sent.flat()).not.toContainEqual({ body: { deliveryId: id } });
    expect(await sweepDeliveries(withQueue, receivedAt + 3 * 60_000)).toBeGreaterThanOrEqual(1);
    expect(await marker(row?.id ?? '')).toBeNull();
    expect(await deliveryRow(id)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(sent.flat()).toContainEqual({ body: { deliveryId: id } });
  });

  it('C26: pending deliveries overdue by more than two minutes go to the queue again, once per lease', async () => {
    const d = await oneDelivery();
    const { queue, sent: batches } = recordingQueue();
    const withQueue = { ...env, DELIVERIES: queue };
    const sent = () => batches.flat().map((m) => m.body);
    const { sweepDeliveries } = await import('../src/jobs/sweep.ts');
    const createdAt = Date.parse(d.submission?.receivedAt ?? '');
    await sweepDeliveries(withQueue, createdAt + 60_000);
    expect(sent()).not.toContainEqual({ deliveryId: d.id });
    expect(await sweepDeliveries(withQueue, createdAt + 3 * 60_000)).toBeGreaterThanOrEqual(1);
    expect(sent()).toContainEqual({ deliveryId: d.id });
    // Leased: the next sweep, a minute later, does not send it again.
    await sweepDeliveries(withQueue, createdAt + 4 * 60_000);
    expect(sent().filter((s) => JSON.stringify(s) === JSON.stringify({ deliveryId: d.id }))).toHaveLength(1);
  });
});

describe('C26: signing', () => {
  it('C26: signWebhook is the HMAC-SHA256 the specification gives (its own example)', async () => {
    // The example of the Standard Webhooks specification.
    const signature = await signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('C26: WEBHOOK_RETRY_DELAYS sets the schedule; anything unusable is the default', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const retryDelays = (value: unknown) =>
      config({ ...env, WEBHOOK_RETRY_DELAYS: value } as unknown as Env).WEBHOOK_RETRY_DELAYS;
    expect(retryDelays('1,1,1')).toEqual([1, 1, 1]);
    expect(retryDelays(' 5, 60 ')).toEqual([5, 60]);
    for (const bad of ['', 'soon', '1,-1', '1.5', '50000', undefined, 7])
      expect(retryDelays(bad)).toEqual(RETRY_DELAYS);
    expect(String(env.WEBHOOK_RETRY_DELAYS)).toBe(RETRY_DELAYS.join(','));
  });
});
