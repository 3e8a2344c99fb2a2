// `forms notify …`: email notifications (C27), against a temporary local database.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries } from '../../schema/tables.ts';
import { insertSubmissions } from '../../src/store/intake.ts';
import { consumeStored, toolOnTemp } from './helpers.ts';

const tool = toolOnTemp('notify');
const { forms, json, expectRefused } = tool;

describe('forms notify', () => {
  async function contactProject() {
    return json<{ projectId: string }>(
      'project',
      'create',
      'Mail',
      '--field',
      'name:string',
      '--field',
      'email:string',
      '--field',
      'age:integer',
    );
  }

  it('C27: add, list and remove (by id or address); the Reply-To field is one of the string fields', async () => {
    const p = await contactProject();
    const added = await json<{ notificationId: string; address: string; replyToField: string | null }>(
      'notify',
      'add',
      p.projectId,
      'owner@example.com',
      '--reply-to-field',
      'email',
    );
    // C37: the tool speaks for the operator: the address is active at once.
    expect(added).toEqual({
      notificationId: expect.stringMatching(/^em_[a-z2-7]{12}$/),
      address: 'owner@example.com',
      replyToField: 'email',
      state: 'active',
    });
    const text = await forms('notify', 'add', p.projectId, 'second@example.com');
    expect(text.stdout).toBe(
      `Added email notification ${/em_\w+/.exec(text.stdout)?.[0]} → second@example.com\nReply-To: the address in field 'email', when it holds one\n`,
    );
    const listed = await json<{ replyToField: string; notifications: { address: string }[] }>(
      'notify',
      'list',
      p.projectId,
    );
    expect(listed.replyToField).toBe('email');
    expect(listed.notifications.map((n) => n.address)).toEqual(['owner@example.com', 'second@example.com']);
    // An email address is not a webhook.
    expect((await json<{ webhooks: unknown[] }>('webhook', 'list', p.projectId)).webhooks).toEqual([]);
    await expectRefused(
      ['notify', 'add', p.projectId, 'owner@example.com'],
      /already emails owner@example\.com/,
    );
    await expectRefused(['notify', 'add', p.projectId, 'not an address'], /Invalid email address/);
    await expectRefused(
      ['notify', 'add', p.projectId, 'x@example.com', '--reply-to-field', 'age'],
      /must be one of the project's string fields \(name, email\)/,
    );
    await expectRefused(['webhook', 'remove', p.projectId, added.notificationId], /has no webhook/);
    expect(
      await json<{ removed: string }>('notify', 'remove', p.projectId, 'second@example.com'),
    ).toMatchObject({ address: 'second@example.com' });
    expect(
      await json<{ removed: string }>('notify', 'remove', p.projectId, added.notificationId),
    ).toMatchObject({
      removed: added.notificationId,
    });
    expect((await json<{ notifications: unknown[] }>('notify', 'list', p.projectId)).notifications).toEqual(
      [],
    );
    await expectRefused(['notify', 'remove', p.projectId, 'owner@example.com'], /has no email notification/);
    const set = await json<{ replyToField: string | null }>(
      'project',
      'set',
      p.projectId,
      '--no-reply-to-field',
    );
    expect(set.replyToField).toBeNull();
  });

  it('C27: deliveries list names the address; redeliver gives a failed email back to the worker’s queue', async () => {
    const p = await contactProject();
    const added = await json<{ notificationId: string }>('notify', 'add', p.projectId, 'owner@example.com');
    const row = {
      id: '01a00000-0000-7000-8000-0000000000e1',
      projectId: p.projectId,
      data: '{"name":"Ada"}',
      receivedAt: '2026-11-22T10:00:00.000Z',
      outbox: 1 as const,
    };
    await insertSubmissions(tool.database.db.$client, [row]);
    const id = `${row.id}.${added.notificationId}`;
    const text = await forms('deliveries', 'list', p.projectId);
    expect(text.stdout).toContain('email owner@example.com');
    await consumeStored(tool.database.db, [row.id]);
    await tool.database.db
      .update(deliveries)
      .set({ status: 'failed', attempts: 11, nextAttemptAt: null })
      .where(eq(deliveries.id, id));
    const redelivered = await json<{ redelivered: { deliveryId: string; kind: string }[] }>(
      'deliveries',
      'redeliver',
      p.projectId,
      '--failed',
    );
    expect(redelivered.redelivered).toEqual([{ deliveryId: id, kind: 'queued' }]);
    const [after] = await tool.database.db.select().from(deliveries).where(eq(deliveries.id, id));
    // Pending and long overdue: the worker's next sweep sends it.
    expect(after).toMatchObject({ status: 'pending', nextAttemptAt: new Date(0).toISOString() });
  });
});
