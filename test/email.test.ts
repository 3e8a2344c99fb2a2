import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveries, deliveryAttempts } from '../schema/tables.ts';
import type { NotificationEmail } from '../src/delivery/mail.ts';
import { newWebhookSecret } from '../src/lib/webhook-signature.ts';
import { database } from '../src/store/db.ts';
import { deliveryId } from '../src/store/deliveries.ts';
import { updateProjectSettings } from '../src/store/projects.ts';
import { insertTarget, mailto, newNotificationId, newWebhookId } from '../src/store/targets.ts';
import { expectEnvelope, seedProject, storedRows, submit, VALID_BODY } from './helpers.ts';
import { consume, consumeOutbox, deliveryRow, warmSubmissionTrips } from './queue.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

async function projectWithEmail(address = 'owner@example.com', spec: Parameters<typeof seedProject>[0] = {}) {
  const p = await seedProject(spec);
  const target = {
    id: newNotificationId(),
    projectId: p.projectId,
    kind: 'email' as const,
    url: mailto(address),
    secret: '',
  };
  await insertTarget(database(env.DB), target);
  return { ...p, target };
}

/** The real binding, with a record of what it was given. */
function recording(binding: SendEmail) {
  const sent: NotificationEmail[] = [];
  return {
    sent,
    binding: {
      send: (message: NotificationEmail) => {
        sent.push(message);
        return binding.send(message);
      },
    } as unknown as SendEmail,
  };
}

async function attemptsOf(id: string) {
  return database(env.DB).select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, id));
}

describe('C27: email notifications', () => {
  it('C27: the delivery is marked in the submission’s one D1 round trip, and written beside a webhook’s', async () => {
    const p = await projectWithEmail();
    const hook = {
      id: newWebhookId(),
      projectId: p.projectId,
      url: 'https://receiver.example/',
      secret: newWebhookSecret(),
    };
    await insertTarget(database(env.DB), hook);
    const { warm, writes } = await warmSubmissionTrips(p.apiKey);
    expect(warm).toEqual([expect.stringMatching(/^insert into "submissions" .*"outbox"/)]);
    expect(writes).toHaveLength(2);
    const rows = await storedRows(p.projectId);
    await consumeOutbox(rows.map((r) => r.id));
    for (const row of rows) {
      expect(await deliveryRow(deliveryId(row.id, p.target.id))).toMatchObject({ status: 'pending' });
      expect(await deliveryRow(deliveryId(row.id, hook.id))).toMatchObject({ status: 'pending' });
    }
  });

  it('C27: the binding sends the fields as plain text, Reply-To from the named field; the attempt is recorded', async () => {
    const p = await projectWithEmail('owner@example.com', { name: 'Contact form' });
    await updateProjectSettings(database(env.DB), p.projectId, { replyToField: 'email' });
    await expectEnvelope(
      await submit({ key: p.apiKey, json: { ...VALID_BODY, message: 'line one\nline two' } }),
      201,
    );
    const [row] = await storedRows(p.projectId);
    const id = deliveryId(row?.id ?? '', p.target.id);
    const email = recording(env.EMAIL);
    const result = await consume(id, 1, { ...env, EMAIL: email.binding });
    expect(result.explicitAcks).toEqual(['msg-1']);
    expect(email.sent).toEqual([
      {
        from: env.EMAIL_FROM,
        to: 'owner@example.com',
        subject: 'New submission: Contact form',
        replyTo: 'ada@example.com',
        text: expect.stringContaining(
          'name: Ada Lovelace\nemail: ada@example.com\nphone: 2025550123\nenquiry: true\nmessage: line one\n  line two\n',
        ),
      },
    ]);
    expect(email.sent[0]?.text).toContain(`Submission ${row?.id}`);
    expect(await deliveryRow(id)).toMatchObject({ status: 'delivered', attempts: 1, lastError: null });
    const [attempt] = await attemptsOf(id);
    expect(attempt).toMatchObject({
      attempt: 1,
      statusCode: null,
      error: null,
      excerpt: expect.stringMatching(/^sent .+@/),
    });
  });

  it('C27: a Reply-To field that holds no valid address gives no Reply-To', async () => {
    const p = await projectWithEmail();
    await updateProjectSettings(database(env.DB), p.projectId, { replyToField: 'name' });
    await expectEnvelope(await submit({ key: p.apiKey, json: VALID_BODY }), 201);
    const [row] = await storedRows(p.projectId);
    const email = recording(env.EMAIL);
    await consume(deliveryId(row?.id ?? '', p.target.id), 1, { ...env, EMAIL: email.binding });
    expect(email.sent).toHaveLength(1);
    expect(email.sent[0]).not.toHaveProperty('replyTo');
  });

  it('C27: an email the binding refuses is recorded with its error and retried with backoff', async () => {
    const p = await projectWithEmail('not-verified@example.com');
    await expectEnvelope(await submit({ key: p.apiKey, json: VALID_BODY }), 201);
    const [row] = await storedRows(p.projectId);
    const id = deliveryId(row?.id ?? '', p.target.id);
    const result = await consume(id, 1, { ...env, EMAIL: env.RESTRICTED_EMAIL });
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(['msg-1']);
    expect(result.delays).toEqual([5]);
    expect(await deliveryRow(id)).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null });
    const [attempt] = await attemptsOf(id);
    expect(attempt?.error).toMatch(/not allowed/);
  });

  it('C27: without a send_email binding an email is a recorded, retried failure; webhooks are unaffected', async () => {
    const p = await projectWithEmail();
    await expectEnvelope(await submit({ key: p.apiKey, json: VALID_BODY }), 201);
    const [row] = await storedRows(p.projectId);
    const id = deliveryId(row?.id ?? '', p.target.id);
    const { EMAIL: _, ...withoutEmail } = env;
    const result = await consume(id, 1, withoutEmail as unknown as Env);
    expect(result.delays).toEqual([5]);
    expect(await deliveryRow(id)).toMatchObject({
      status: 'pending',
      lastError: expect.stringMatching(/no send_email binding/),
    });
  });

  it('C22 + C27: honeypot spam sends no email', async () => {
    const p = await projectWithEmail('owner@example.com', { honeypot: 'website' });
    await expectEnvelope(await submit({ key: p.apiKey, json: { ...VALID_BODY, website: 'spam' } }), 201);
    expect(
      await database(env.DB).select().from(deliveries).where(eq(deliveries.projectId, p.projectId)),
    ).toEqual([]);
  });
});
