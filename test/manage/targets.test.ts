// C26, C27, C32: webhooks, notifications and deliveries over the management API, as the tool's
// commands: the secret shown once, enable and disable, test from the worker, rotation, the
// delivery log by state and target, redelivery.
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { submit } from '../helpers.ts';
import { consume } from '../queue.ts';
import { api, newProject, ok, problem } from './helpers.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

type Hook = { webhookId: string; secret: string; url: string };
type Delivery = {
  id: string;
  status: string;
  webhookId: string;
  submissionId: string;
  attemptLog: { statusCode: number | null; excerpt: string | null }[];
};

function receiver(...statuses: number[]) {
  const calls: { headers: Record<string, string>; body: string }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    calls.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
    const status = statuses[Math.min(calls.length - 1, statuses.length - 1)] ?? 200;
    return new Response(status === 204 ? null : 'thanks', { status });
  });
  return calls;
}

describe('C26 + C32: webhooks over HTTP', () => {
  it('C26 + C32: added with its secret shown once; listed without it; a bad URL is the tool’s sentence', async () => {
    const p = await newProject();
    const hook = await ok<Hook>(
      await api('POST', `/projects/${p.projectId}/webhooks`, {
        body: { url: 'https://receiver.example/hooks' },
      }),
      201,
    );
    expect(hook.secret).toMatch(/^whsec_/);
    const { webhooks } = await ok<{ webhooks: { webhookId: string; state: string }[] }>(
      await api('GET', `/projects/${p.projectId}/webhooks`),
    );
    expect(webhooks).toMatchObject([{ webhookId: hook.webhookId, state: 'active' }]);
    expect(JSON.stringify(webhooks)).not.toContain(hook.secret);
    expect(
      await problem(
        await api('POST', `/projects/${p.projectId}/webhooks`, { body: { url: 'https://10.0.0.1/x' } }),
        400,
      ),
    ).toMatch(/^Invalid webhook URL 'https:\/\/10\.0\.0\.1\/x'/);
  });

  it('C26 + C32: a test is sent from the worker, signed: a verifier we did not write accepts it', async () => {
    const p = await newProject();
    const hook = await ok<Hook>(
      await api('POST', `/projects/${p.projectId}/webhooks`, {
        body: { url: 'https://receiver.example/hooks' },
      }),
      201,
    );
    const calls = receiver(204);
    const answer = await ok<{ status: number; error: string }>(
      await api('POST', `/projects/${p.projectId}/webhooks/${hook.webhookId}/test`),
    );
    expect(answer.status, answer.error).toBe(204);
    const [call] = calls;
    expect(new Webhook(hook.secret).verify(call?.body ?? '', call?.headers ?? {})).toMatchObject({
      type: 'webhook.test',
    });
  });

  it('C26 + C32: rotation gives a new secret once; PATCH disables and enables; DELETE removes', async () => {
    const p = await newProject();
    const hook = await ok<Hook>(
      await api('POST', `/projects/${p.projectId}/webhooks`, {
        body: { url: 'https://receiver.example/hooks' },
      }),
      201,
    );
    const path = `/projects/${p.projectId}/webhooks/${hook.webhookId}`;
    const rotated = await ok<{ secret: string }>(await api('POST', `${path}/rotate-secret`));
    expect(rotated.secret).not.toBe(hook.secret);
    expect(await ok(await api('PATCH', path, { body: { enabled: false } }))).toMatchObject({
      state: 'disabled',
    });
    expect(await ok(await api('PATCH', path, { body: { enabled: true } }))).toMatchObject({
      state: 'active',
    });
    await ok(await api('DELETE', path));
    expect(await problem(await api('DELETE', path), 404)).toMatch(/has no webhook/);
  });

  it('C26 + C32: deliveries by state and target, one with its attempts, redelivered now', async () => {
    const p = await newProject();
    const hook = await ok<Hook>(
      await api('POST', `/projects/${p.projectId}/webhooks`, {
        body: { url: 'https://receiver.example/hooks' },
      }),
      201,
    );
    receiver(500, 200);
    expect((await submit({ key: p.apiKey, json: { email: 'ada@example.com' } })).status).toBe(201);
    const [pending] = (
      await ok<{ deliveries: Delivery[] }>(
        await api('GET', `/projects/${p.projectId}/deliveries?state=pending`),
      )
    ).deliveries;
    expect(pending?.webhookId).toBe(hook.webhookId);
    await consume(pending?.id ?? '');
    const one = await ok<{ delivery: Delivery }>(
      await api('GET', `/projects/${p.projectId}/deliveries/${pending?.id}`),
    );
    expect(one.delivery.attemptLog.map((a) => a.statusCode)).toEqual([500]);
    expect(one.delivery.attemptLog[0]?.excerpt).toBe('thanks');
    const ofSubmission = await ok<{ deliveries: Delivery[] }>(
      await api('GET', `/projects/${p.projectId}/deliveries?submission=${one.delivery.submissionId}`),
    );
    expect(ofSubmission.deliveries.map((d) => d.id)).toEqual([pending?.id]);
    const redone = await ok<{ results: { kind: string }[] }>(
      await api('POST', `/projects/${p.projectId}/deliveries/${pending?.id}/redeliver`),
    );
    expect(redone.results).toMatchObject([{ kind: 'delivered' }]);
    const delivered = await ok<{ deliveries: Delivery[] }>(
      await api('GET', `/projects/${p.projectId}/deliveries?state=delivered&target=${hook.webhookId}`),
    );
    expect(delivered.deliveries.map((d) => d.id)).toEqual([pending?.id]);
    expect(
      (
        await ok<{ deliveries: Delivery[] }>(
          await api('GET', `/projects/${p.projectId}/deliveries?target=other`),
        )
      ).deliveries,
    ).toEqual([]);
    expect(await problem(await api('GET', `/projects/${p.projectId}/deliveries/nope`), 404)).toMatch(
      /has no delivery 'nope'/,
    );
    expect(await problem(await api('GET', `/projects/${p.projectId}/deliveries?state=lost`), 400)).toMatch(
      /^Query parameter 'state'/,
    );
  });

  it('C27 + C32: notification addresses: added, listed, removed', async () => {
    const p = await newProject();
    const added = await ok<{ notificationId: string; replyToField: string }>(
      await api('POST', `/projects/${p.projectId}/notifications`, {
        body: { address: 'owner@example.com', replyToField: 'email' },
      }),
      201,
    );
    expect(added.replyToField).toBe('email');
    const listed = await ok<{ notifications: { address: string }[] }>(
      await api('GET', `/projects/${p.projectId}/notifications`),
    );
    expect(listed.notifications.map((n) => n.address)).toEqual(['owner@example.com']);
    await problem(
      await api('POST', `/projects/${p.projectId}/notifications`, { body: { address: 'owner@example.com' } }),
      409,
    );
    await ok(await api('DELETE', `/projects/${p.projectId}/notifications/${added.notificationId}`));
    await problem(
      await api('POST', `/projects/${p.projectId}/notifications`, { body: { address: 'not an address' } }),
      400,
    );
  });
});
