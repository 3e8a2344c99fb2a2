// C34: a project's numbers per day (UTC): submissions accepted and marked spam, by the day they
// were received; deliveries delivered and failed, by the day they ended.
import { sql } from 'drizzle-orm';
import { idFloor } from '../lib/ids.ts';
import { type Db, storage } from './db.ts';
import { scopes } from './mail-counts.ts';

/** The furthest back a project's numbers reach, in days. */
export const MAX_STATS_DAYS = 365;

export type DayStats = {
  day: string;
  accepted: number;
  spam: number;
  delivered: number;
  failed: number;
  /** C35: confirmations that a daily cap stopped. */
  confirmationsCapped: number;
};

/** Every day from `from` (YYYY-MM-DD) for `days` days, each with its numbers (0 when none). */
export async function dailyStats(db: Db, projectId: string, from: string, days: number): Promise<DayStats[]> {
  const start = `${from}T00:00:00.000Z`;
  // C17: an id is made from the clock that stamps received_at, so the bound narrows the scan of
  // the project's index; a minute's margin drops no row.
  const floor = idFloor(Date.parse(start) - 60_000);
  const [received, ended, capped] = await storage(() =>
    Promise.all([
      db.all<{ day: string; accepted: number; spam: number }>(sql`
        select substr(received_at, 1, 10) as day,
          sum(case when spam = 0 then 1 else 0 end) as accepted,
          sum(case when spam = 1 then 1 else 0 end) as spam
        from submissions
        where project_id = ${projectId} and id >= ${floor} and received_at >= ${start}
        group by day`),
      db.all<{ day: string; delivered: number; failed: number }>(sql`
        select substr(updated_at, 1, 10) as day,
          sum(case when status = 'delivered' then 1 else 0 end) as delivered,
          sum(case when status = 'failed' then 1 else 0 end) as failed
        from deliveries
        where project_id = ${projectId} and status in ('delivered', 'failed') and updated_at >= ${start}
        group by day`),
      db.all<{ day: string; count: number }>(
        sql`select day, count from mail_counts where scope = ${scopes.capped(projectId)} and day >= ${from}`,
      ),
    ]),
  );
  const byDay = new Map<string, DayStats>();
  const first = Date.parse(start);
  for (let i = 0; i < days; i++) {
    const day = new Date(first + i * 86_400_000).toISOString().slice(0, 10);
    byDay.set(day, { day, accepted: 0, spam: 0, delivered: 0, failed: 0, confirmationsCapped: 0 });
  }
  for (const r of received) {
    const d = byDay.get(r.day);
    if (d !== undefined) Object.assign(d, { accepted: r.accepted, spam: r.spam });
  }
  for (const r of ended) {
    const d = byDay.get(r.day);
    if (d !== undefined) Object.assign(d, { delivered: r.delivered, failed: r.failed });
  }
  for (const r of capped) {
    const d = byDay.get(r.day);
    if (d !== undefined) d.confirmationsCapped = r.count;
  }
  return [...byDay.values()];
}
