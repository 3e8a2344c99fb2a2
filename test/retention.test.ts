// C25: retention through the scheduled handler: the hourly job deletes what is older than each
// project's period, and logs what it deleted.
import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { uuidv7 } from '../src/lib/ids.ts';
import { database } from '../src/store/db.ts';
import { updateProjectSettings } from '../src/store/projects.ts';
import { storedRows } from './helpers.ts';
import { insertRows, withSecret } from './read-api.ts';

describe('C25: retention', () => {
  it("C25: the hourly job deletes what is older than each project's period, and only that", async () => {
    const p = await withSecret();
    const keep = await withSecret();
    await updateProjectSettings(database(env.DB), p.projectId, { retentionDays: 30 });
    const now = Date.parse('2026-03-01T00:00:00Z');
    const day = 86_400_000;
    const ages = [90, 45, 31, 29, 1];
    const rows = await insertRows(p.projectId, ages.length, (i) => {
      const at = now - (ages[i] ?? 0) * day;
      return { id: uuidv7(at), receivedAt: new Date(at).toISOString() };
    });
    await insertRows(keep.projectId, 3);
    const logs: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logs.push(String(line)));
    const { scheduled } = await import('../src/cron.ts');
    await scheduled(createScheduledController({ scheduledTime: now, cron: '7 * * * *' }), env);
    vi.restoreAllMocks();
    expect((await storedRows(p.projectId)).map((r) => r.id)).toEqual(rows.slice(3).map((r) => r.id));
    expect(await storedRows(keep.projectId)).toHaveLength(3);
    const line = logs
      .map((l) => JSON.parse(l))
      .find((l) => l.job === 'retention' && l.projectId === p.projectId);
    expect(line).toEqual({
      level: 'info',
      job: 'retention',
      projectId: p.projectId,
      before: new Date(now - 30 * day).toISOString(),
      deleted: 3,
    });
  });
});
