// C42: a release from before 0019_targets serves on today's schema (0025_webhooks_beside_targets):
// its statements, as it wrote them, read and write the same targets and deliveries today's code
// does. The whole of it runs in `npm run test:upgrade 25a656f`; these are its SQL, one by one.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { seedProject } from './helpers.ts';

const db = env.DB;
const now = '2026-11-28T10:00:00.000Z';

/** The older release's outbox write, word for word but for the ids. */
const OLD_OUTBOX = `insert into deliveries (id, submission_id, webhook_id, project_id, status, attempts, next_attempt_at, created_at, updated_at)
select s.id || '.' || w.id, s.id, w.id, s.project_id, 'pending', 0, s.received_at, s.received_at, s.received_at
from submissions s join webhooks w on w.project_id = s.project_id and w.disabled_at is null
where s.outbox is not null and s.verdict is not null and s.id in (?)
on conflict do nothing
returning id`;

async function oldWebhook(projectId: string, id: string) {
  return db
    .prepare(
      'insert into webhooks (id, project_id, url, secret, created_at) values (?, ?, ?, ?, ?) returning id',
    )
    .bind(id, projectId, 'https://hooks.example/in', 'whsec_x', now)
    .all<{ id: string }>();
}

async function submission(projectId: string, id: string) {
  await db
    .prepare(
      "insert into submissions (id, project_id, received_at, data, outbox, verdict) values (?, ?, ?, '{}', 1, 'ham')",
    )
    .bind(id, projectId, now)
    .run();
}

describe('the release before 0019 on this schema (C42)', () => {
  it('adds, reads, changes and removes its webhooks: the targets today reads', async () => {
    const { projectId } = await seedProject();
    const project = { id: projectId };
    const added = await oldWebhook(project.id, 'wh_old_1');
    expect(added.results).toEqual([{ id: 'wh_old_1' }]);
    const target = await db.prepare('select url, kind from targets where id = ?').bind('wh_old_1').first();
    expect(target).toEqual({ url: 'https://hooks.example/in', kind: 'webhook' });
    const disabled = await db
      .prepare("update webhooks set disabled_at = ?, disabled_reason = 'gone' where id = ? returning id")
      .bind(now, 'wh_old_1')
      .all();
    expect(disabled.results).toEqual([{ id: 'wh_old_1' }]);
    expect(
      await db.prepare('select disabled_at, url from targets where id = ?').bind('wh_old_1').first(),
    ).toEqual({ disabled_at: now, url: 'https://hooks.example/in' });
    const removed = await db.prepare('delete from webhooks where id = ? returning id').bind('wh_old_1').all();
    expect(removed.results).toEqual([{ id: 'wh_old_1' }]);
    expect(await db.prepare('select id from targets where id = ?').bind('wh_old_1').first()).toBeNull();
  });

  it("writes its deliveries with webhook_id alone: today's code finds them by target_id, once", async () => {
    const { projectId } = await seedProject();
    const project = { id: projectId };
    await oldWebhook(project.id, 'wh_old_2');
    await submission(project.id, 'sub_old_2');
    await db.prepare(OLD_OUTBOX).bind('sub_old_2').all();
    await db.prepare(OLD_OUTBOX).bind('sub_old_2').all();
    const rows = await db
      .prepare('select id, target_id, webhook_id, status from deliveries where submission_id = ?')
      .bind('sub_old_2')
      .all();
    expect(rows.results).toEqual([
      { id: 'sub_old_2.wh_old_2', target_id: 'wh_old_2', webhook_id: 'wh_old_2', status: 'pending' },
    ]);
    // The older release's consumer reads them back through its join.
    const joined = await db
      .prepare('select w.url from deliveries d join webhooks w on w.id = d.webhook_id where d.id = ?')
      .bind('sub_old_2.wh_old_2')
      .first();
    expect(joined).toEqual({ url: 'https://hooks.example/in' });
  });

  it("today's deliveries go in as before (target_id given), the trigger untouched", async () => {
    const { projectId } = await seedProject();
    const project = { id: projectId };
    await oldWebhook(project.id, 'wh_new_3');
    await submission(project.id, 'sub_new_3');
    const inserted = await db
      .prepare(
        "insert into deliveries (id, submission_id, target_id, project_id, status, attempts, created_at, updated_at) values ('d3', 'sub_new_3', 'wh_new_3', ?, 'pending', 0, ?, ?) returning id",
      )
      .bind(project.id, now, now)
      .all();
    expect(inserted.results).toEqual([{ id: 'd3' }]);
    expect(await db.prepare("select webhook_id from deliveries where id = 'd3'").first()).toEqual({
      webhook_id: null,
    });
  });
});
