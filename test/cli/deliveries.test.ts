// `forms deliveries …`: the deliveries with their attempts, and redelivery (C26), against a temporary local database, with a real HTTP receiver on 127.0.0.1.
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { deliveries } from '../../schema/tables.ts';
import { insertSubmissions } from '../../src/store/intake.ts';
import { consumeStored, receiverOnLoopback, toolOnTemp } from './helpers.ts';

const tool = toolOnTemp('deliveries');
const { json, expectRefused } = tool;
const hook = receiverOnLoopback();

async function project() {
  return json<{ projectId: string }>('project', 'create', 'Hooks', '--field', 'name:string');
}

describe('forms deliveries', () => {
  it('C26: list shows each delivery; redeliver attempts again now, one id or every failed one', async () => {
    const p = await project();
    const added = await json<{ webhookId: string; secret: string }>('webhook', 'add', p.projectId, hook.url);
    const rows = ['01a00000-0000-7000-8000-000000000001', '01a00000-0000-7000-8000-000000000002'].map(
      (id) => ({
        id,
        projectId: p.projectId,
        data: '{"name":"Ada"}',
        receivedAt: '2026-11-22T10:00:00.000Z',
        outbox: 1 as const,
      }),
    );
    await insertSubmissions(tool.database.db.$client, rows);
    const listed = await json<{ deliveries: { id: string; status: string; attempts: number }[] }>(
      'deliveries',
      'list',
      p.projectId,
    );
    expect(listed.deliveries.map((d) => [d.id, d.status, d.attempts])).toEqual(
      rows.map((r) => [`${r.id}.${added.webhookId}`, 'pending', 0]),
    );
    // A delivery whose row the worker has yet to write is written, then attempted, from here.
    hook.answer = 200;
    const one = await json<{ redelivered: { deliveryId: string; kind: string }[] }>(
      'deliveries',
      'redeliver',
      p.projectId,
      `${rows[0]?.id}.${added.webhookId}`,
    );
    expect(one.redelivered).toEqual([
      { deliveryId: `${rows[0]?.id}.${added.webhookId}`, kind: 'delivered', status: 200 },
    ]);
    expect(
      new Webhook(added.secret).verify(hook.received.at(-1)?.body ?? '', hook.received.at(-1)?.headers ?? {}),
    ).toMatchObject({
      type: 'submission.created',
    });
    // The other, written by the worker, has failed for good.
    await consumeStored(tool.database.db, [rows[1]?.id ?? '']);
    await tool.database.db
      .update(deliveries)
      .set({ status: 'failed', attempts: 11 })
      .where(eq(deliveries.id, `${rows[1]?.id}.${added.webhookId}`));
    expect(
      (await json<{ deliveries: unknown[] }>('deliveries', 'list', p.projectId, '--failed')).deliveries,
    ).toHaveLength(1);
    const rest = await json<{ redelivered: { kind: string }[] }>(
      'deliveries',
      'redeliver',
      p.projectId,
      '--failed',
    );
    expect(rest.redelivered.map((r) => r.kind)).toEqual(['delivered']);
    expect(
      (await json<{ deliveries: unknown[] }>('deliveries', 'list', p.projectId, '--failed')).deliveries,
    ).toEqual([]);
    await expectRefused(['deliveries', 'redeliver', p.projectId], /a delivery id or --failed/);
    await expectRefused(
      ['deliveries', 'redeliver', p.projectId, 'x', '--failed'],
      /a delivery id or --failed/,
    );
    await expectRefused(['deliveries', 'redeliver', p.projectId, 'nope'], /has no delivery 'nope'/);
  });
});
