// C40: form analytics in D1: the day's salt, visitors' rows written in batches (never a write per
// event), the roll-up of a day that is over, and what the stats read. No address, user agent or
// identifier outlives its day: a visitor is a hash made with the day's salt, and both are deleted
// once the day is over.
import { sql } from 'drizzle-orm';
import { type Db, storage } from './db.ts';

/** One visitor's day on one project's form, as an isolate has gathered it since its last flush. */
export type Visit = {
  projectId: string;
  day: string;
  visitor: string;
  viewed: boolean;
  started: boolean;
  submitted: boolean;
  submitMs: number | null;
  /** The last leave: the field (one of the project's, or null) and the time from the first input. */
  left: { field: string | null; ms: number } | null;
};

/**
 * The salt of a day: the one stored, or a new one stored if there is none. One round trip: the
 * insert (ignored when another isolate made it first) and the read, in one batch.
 */
export async function saltOf(db: Db, day: string, fresh: string): Promise<string> {
  const d1 = db.$client;
  const [, read] = await storage(() =>
    d1.batch<{ salt: string }>([
      d1
        .prepare('insert into analytics_salts (day, salt) values (?, ?) on conflict (day) do nothing')
        .bind(day, fresh),
      d1.prepare('select salt from analytics_salts where day = ?').bind(day),
    ]),
  );
  const salt = read?.results[0]?.salt;
  if (salt === undefined) throw new Error('the salt of the day was not stored');
  return salt;
}

/**
 * Writes what an isolate gathered, one D1 batch (one round trip) for many visitors: a new visitor
 * is inserted, a known one's row takes what is new (a view, a start, a submission, its latest
 * leave). A visit to a project that is not settled here (deleted, moved, being moved: C41) is left
 * out, so it never fails the others' batch nor lands in a copy a move is reading; those visits are
 * returned.
 */
export async function writeVisits(db: Db, visits: readonly Visit[]): Promise<Visit[]> {
  if (visits.length === 0) return [];
  const d1 = db.$client;
  const results = await storage(() =>
    d1.batch(
      visits.map((v) =>
        d1
          .prepare(
            `insert into analytics_visitors
               (project_id, day, visitor, viewed, started, submitted, submit_ms, left_field, left_ms)
             select ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9
             where exists (select 1 from projects where id = ?1 and moving_since is null)
             on conflict (project_id, day, visitor) do update set
               viewed = max(viewed, excluded.viewed),
               started = max(started, excluded.started),
               submitted = max(submitted, excluded.submitted),
               submit_ms = coalesce(excluded.submit_ms, submit_ms),
               left_field = case when excluded.left_ms is null then left_field else excluded.left_field end,
               left_ms = coalesce(excluded.left_ms, left_ms)`,
          )
          .bind(
            v.projectId,
            v.day,
            v.visitor,
            v.viewed ? 1 : 0,
            v.started ? 1 : 0,
            v.submitted ? 1 : 0,
            v.submitMs,
            v.left?.field ?? null,
            v.left?.ms ?? null,
          ),
      ),
    ),
  );
  return visits.filter((_, i) => (results[i]?.meta.changes ?? 0) === 0);
}

/** C41: where a project is, seen from one place: being moved from here, or moved to another place. */
export type Whereabouts = { moving: true } | { movedTo: string };

/**
 * C41: of these projects, those being moved from this place, and those moved to another (its
 * forwarding entries, or the default database's directory, name where); a project neither here nor
 * moved is absent (deleted).
 */
export async function whereaboutsOf(
  db: Db,
  projectIds: readonly string[],
  here: string,
): Promise<Map<string, Whereabouts>> {
  const ids = JSON.stringify([...new Set(projectIds)]);
  const { results } = await storage(() =>
    db.$client
      .prepare(
        `select value as project_id,
           (select place from directory where project_id = value and place <> ?2 limit 1) as moved_to,
           exists (select 1 from projects where id = value and moving_since is not null) as moving
         from json_each(?1)`,
      )
      .bind(ids, here)
      .all<{ project_id: string; moved_to: string | null; moving: number }>(),
  );
  const found = new Map<string, Whereabouts>();
  for (const r of results) {
    if (r.moved_to !== null) found.set(r.project_id, { movedTo: r.moved_to });
    else if (r.moving === 1) found.set(r.project_id, { moving: true });
  }
  return found;
}

// A visitor who started, left and never submitted that day gave up at the field they left.
const GAVE_UP = 'started = 1 and submitted = 0 and left_ms is not null';

// The median of the timed submissions of each project's day, among the visitors' rows chosen.
const medians = (where: string) => `
  with timed as (
    select project_id, day, submit_ms,
      row_number() over (partition by project_id, day order by submit_ms) as n,
      count(*) over (partition by project_id, day) as total
    from analytics_visitors where submit_ms is not null and submitted = 1 and ${where})
  select project_id, day, cast(avg(submit_ms) as integer) as median
  from timed where n in ((total + 1) / 2, (total + 2) / 2) group by project_id, day`;

/**
 * C40: every day before `today` is rolled up (its counts, its drop-off, its median) and its
 * visitors' rows and salt deleted, in one transaction: a day's hashes never outlive it. A row that
 * arrives late (an isolate's flush just after midnight) is added by the next roll-up.
 */
export async function rollUp(db: Db, today: string): Promise<number> {
  const d1 = db.$client;
  const [, , , deleted] = await storage(() =>
    d1.batch([
      d1
        .prepare(
          `insert into analytics_days (project_id, day, views, starts, timed, median_submit_ms)
           select v.project_id, v.day, sum(v.viewed), sum(v.started),
             sum(case when v.submitted = 1 and v.submit_ms is not null then 1 else 0 end), m.median
           from analytics_visitors v left join (${medians('day < ?1')}) m
             on m.project_id = v.project_id and m.day = v.day
           where v.day < ?1 group by v.project_id, v.day
           on conflict (project_id, day) do update set
             views = views + excluded.views, starts = starts + excluded.starts,
             median_submit_ms = case when timed = 0 then excluded.median_submit_ms
               when excluded.timed = 0 then median_submit_ms
               else (median_submit_ms * timed + excluded.median_submit_ms * excluded.timed) / (timed + excluded.timed) end,
             timed = timed + excluded.timed`,
        )
        .bind(today),
      d1
        .prepare(
          `insert into analytics_drop_off (project_id, day, field, visitors, total_ms)
           select project_id, day, left_field, count(*), sum(left_ms) from analytics_visitors
           where day < ?1 and left_field is not null and ${GAVE_UP} group by project_id, day, left_field
           on conflict (project_id, day, field) do update set
             visitors = visitors + excluded.visitors, total_ms = total_ms + excluded.total_ms`,
        )
        .bind(today),
      d1.prepare('delete from analytics_salts where day < ?').bind(today),
      d1.prepare('delete from analytics_visitors where day < ?').bind(today),
    ]),
  );
  return deleted?.meta.changes ?? 0;
}

export type AnalyticsDay = {
  day: string;
  views: number;
  starts: number;
  timed: number;
  medianSubmitMs: number | null;
};
export type DropOff = { field: string; visitors: number; totalMs: number };

/**
 * A project's analytics from `from` (YYYY-MM-DD) on: each day's views, starts and timed
 * submissions (rolled up, or today's from its visitors' rows), its drop-off by field, and its
 * fields in order.
 */
export async function analyticsSince(
  db: Db,
  projectId: string,
  from: string,
): Promise<{ days: AnalyticsDay[]; dropOff: DropOff[]; fields: { name: string; step: number }[] }> {
  const [days, live, median, dropped, fields] = await storage(() =>
    Promise.all([
      db.all<AnalyticsDay>(sql`
        select day, views, starts, timed, median_submit_ms as medianSubmitMs from analytics_days
        where project_id = ${projectId} and day >= ${from}`),
      db.all<{ day: string; views: number; starts: number; timed: number }>(sql`
        select day, sum(viewed) as views, sum(started) as starts,
          sum(case when submitted = 1 and submit_ms is not null then 1 else 0 end) as timed
        from analytics_visitors where project_id = ${projectId} and day >= ${from} group by day`),
      db.$client
        .prepare(medians('project_id = ?1 and day >= ?2'))
        .bind(projectId, from)
        .all<{ day: string; median: number }>()
        .then((r) => r.results),
      db.all<DropOff>(sql`
        select field, sum(visitors) as visitors, sum(total_ms) as totalMs from (
          select field, visitors, total_ms from analytics_drop_off where project_id = ${projectId} and day >= ${from}
          union all
          select left_field as field, 1 as visitors, left_ms as total_ms from analytics_visitors
          where project_id = ${projectId} and day >= ${from} and left_field is not null
            and ${sql.raw(GAVE_UP)})
        group by field`),
      db.all<{ name: string; step: number | null }>(
        sql`select name, step from fields where project_id = ${projectId} order by position`,
      ),
    ]),
  );
  const medianOf = new Map(median.map((m) => [m.day, m.median]));
  const out = new Map<string, AnalyticsDay>();
  for (const d of days) out.set(d.day, { ...d });
  for (const d of live) {
    const known = out.get(d.day);
    const medianSubmitMs = medianOf.get(d.day) ?? null;
    if (known === undefined) out.set(d.day, { ...d, medianSubmitMs });
    else
      out.set(d.day, {
        day: d.day,
        views: known.views + d.views,
        starts: known.starts + d.starts,
        timed: known.timed + d.timed,
        medianSubmitMs: known.medianSubmitMs ?? medianSubmitMs,
      });
  }
  return {
    days: [...out.values()],
    dropOff: dropped,
    fields: fields.map((f) => ({ name: f.name, step: f.step ?? 1 })),
  };
}
