// Reading a project's submissions (C24, C34): pages in arrival order with their filters (an
// inbox's state, a search), one submission, every submission a page at a time; and changing an
// inbox's state: read, starred, spam.
import { and, desc, eq, gt, gte, lt, type SQL, sql } from 'drizzle-orm';
import { submissions } from '../../schema/tables.ts';
import { idFloor } from '../lib/ids.ts';
import type { Verdict } from '../spam/settings.ts';
import { type Db, storage } from './db.ts';

/** A page of submissions holds at most this much stored JSON, however many rows were asked for. */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;

/** What an export, the read API and an inbox show of a stored submission. */
const STORED_COLUMNS = {
  id: submissions.id,
  receivedAt: submissions.receivedAt,
  data: submissions.data,
  spam: submissions.spam,
  readAt: submissions.readAt,
  starred: submissions.starred,
  files: submissions.files,
  verdict: submissions.verdict,
  spamScore: submissions.spamScore,
  spamReason: submissions.spamReason,
};

export type Order = 'asc' | 'desc';
export type SpamFilter = 'include' | 'exclude' | 'only';

export type PageQuery = {
  projectId: string;
  /** At most this many rows. */
  limit: number;
  /** At most about this many bytes of stored JSON (always at least one row). */
  maxBytes: number;
  order: Order;
  /** Rows after this id, in the order asked for (the cursor). */
  after?: string | undefined;
  /** Received at or after this ISO time. */
  since?: string | undefined;
  /** Received before this ISO time. */
  until?: string | undefined;
  spam: SpamFilter;
  /** C34: further conditions on the submissions (`read`, `starred`, with files, a search). */
  filters?: (SQL | undefined)[];
};

export type StoredSubmission = {
  id: string;
  receivedAt: string;
  data: string;
  spam: boolean;
  /** C34: when it was first read (null: unread), whether it is starred. */
  readAt: string | null;
  starred: boolean;
  /** C30: the names of its file fields (JSON), or null. */
  files: string | null;
  /** C39: the spam filter's verdict (null: not judged yet), its score and its reason (JSON). */
  verdict: Verdict | null;
  spamScore: number | null;
  spamReason: string | null;
};

// An id is made a moment before its row's received_at, from the same clock, and never earlier
// than that clock (C17: ids only move forward), so a row received at or after `since` has an id at
// or after the first id of a minute before it: the bound narrows the index scan and drops no row.
// (No such bound for `until`: an id may run ahead of the clock, never behind it.)
const ID_MARGIN_MS = 60_000;

/**
 * One page of a project's submissions in id order (time order), in one query: the rows after the
 * cursor, at most `limit`, cut once their stored JSON passes `maxBytes`, so that a page of large
 * rows is never read whole into the worker. `more`: whether rows remain after this page.
 */
export async function listSubmissionPage(
  db: Db,
  q: PageQuery,
): Promise<{ rows: StoredSubmission[]; more: boolean }> {
  const asc = q.order === 'asc';
  const direction = sql.raw(asc ? 'asc' : 'desc');
  const conditions = [eq(submissions.projectId, q.projectId)];
  if (q.after !== undefined) conditions.push(asc ? gt(submissions.id, q.after) : lt(submissions.id, q.after));
  if (q.since !== undefined) {
    conditions.push(gte(submissions.receivedAt, q.since));
    conditions.push(gte(submissions.id, idFloor(Date.parse(q.since) - ID_MARGIN_MS)));
  }
  if (q.until !== undefined) conditions.push(lt(submissions.receivedAt, q.until));
  if (q.spam !== 'include') conditions.push(eq(submissions.spam, q.spam === 'only'));
  for (const filter of q.filters ?? []) if (filter !== undefined) conditions.push(filter);
  const candidates = db
    .select(STORED_COLUMNS)
    .from(submissions)
    .where(and(...conditions))
    .orderBy(asc ? submissions.id : desc(submissions.id))
    .limit(q.limit + 1);
  const rows = await storage(() =>
    db.all<{
      id: string;
      received_at: string;
      data: string;
      spam: number;
      read_at: string | null;
      starred: number;
      files: string | null;
      verdict: Verdict | null;
      spam_score: number | null;
      spam_reason: string | null;
      candidates: number;
    }>(sql`
      select id, received_at, data, spam, read_at, starred, files, verdict, spam_score, spam_reason, candidates from (
        select *,
          row_number() over w as n,
          sum(length(cast(data as blob))) over w as running,
          count(*) over () as candidates
        from (${candidates}) as page
        window w as (order by id ${direction} rows unbounded preceding)
      )
      where n = 1 or running <= ${q.maxBytes}
      order by n`),
  );
  const page = rows.slice(0, q.limit);
  return {
    rows: page.map((r) => ({
      id: r.id,
      receivedAt: r.received_at,
      data: r.data,
      spam: r.spam === 1,
      readAt: r.read_at,
      starred: r.starred === 1,
      files: r.files,
      verdict: r.verdict,
      spamScore: r.spam_score,
      spamReason: r.spam_reason,
    })),
    more: (rows[0]?.candidates ?? 0) > page.length,
  };
}

export async function findSubmission(
  db: Db,
  projectId: string,
  id: string,
): Promise<StoredSubmission | undefined> {
  const [row] = await storage(() =>
    db
      .select(STORED_COLUMNS)
      .from(submissions)
      .where(and(eq(submissions.projectId, projectId), eq(submissions.id, id))),
  );
  return row;
}

/**
 * Every page of a listing, one after another (keyset pagination on the time-ordered id), so that an
 * export of any size holds one page in memory.
 */
export async function* pagesOf(db: Db, q: Omit<PageQuery, 'after'>): AsyncGenerator<StoredSubmission[]> {
  let after: string | undefined;
  for (;;) {
    const page = await listSubmissionPage(db, { ...q, after });
    if (page.rows.length > 0) yield page.rows;
    if (!page.more) return;
    after = page.rows.at(-1)?.id;
  }
}

/** Submissions oldest first, a page at a time: spam (C22) only when asked for. */
export function submissionPages(
  db: Db,
  projectId: string,
  options: { since?: string; pageSize?: number; includeSpam?: boolean } = {},
) {
  return pagesOf(db, {
    projectId,
    limit: options.pageSize ?? 1000,
    maxBytes: MAX_PAGE_BYTES,
    order: 'asc',
    since: options.since,
    spam: options.includeSpam ? 'include' : 'exclude',
  });
}

/** C34: a change to the state of some of a project's submissions. */
export type StateChange = {
  read?: boolean | undefined;
  starred?: boolean | undefined;
  spam?: boolean | undefined;
};

/**
 * C34: changes the state of the project's submissions among `ids` in one statement; returns the
 * ids it changed. Taking one out of spam marks it for delivery (the outbox, C26) in the same
 * write, when its project has an active target; the queue or the sweep writes its deliveries, each
 * at most once per submission and target.
 */
export async function changeState(
  db: Db,
  projectId: string,
  ids: readonly string[],
  change: StateChange,
  now: string,
  /** C39: the operator marks (trusted by every project), not the project's owner. */
  byOperator = false,
): Promise<string[]> {
  const sets: SQL[] = [];
  const differs: SQL[] = [];
  if (change.read !== undefined) {
    sets.push(change.read ? sql`read_at = coalesce(read_at, ${now})` : sql`read_at = null`);
    differs.push(change.read ? sql`read_at is null` : sql`read_at is not null`);
  }
  if (change.starred !== undefined) {
    sets.push(sql`starred = ${change.starred ? 1 : 0}`);
    differs.push(sql`starred = ${change.starred ? 0 : 1}`);
  }
  if (change.spam !== undefined) {
    sets.push(sql`spam = ${change.spam ? 1 : 0}`);
    // C39: the owner's mark, which the project's classifier learns (the consumer makes `trained`
    // follow it): marking not spam what is in the inbox teaches it too.
    const label = change.spam ? 'spam' : 'ham';
    // Who marked changes only with the mark itself: the same mark again, by anyone, changes
    // nothing that was learnt (every expression of SET sees the row as it was).
    sets.push(
      sql`label = ${label}`,
      sql`label_operator = case when coalesce(label, '') <> ${label} then ${byOperator ? 1 : 0} else label_operator end`,
    );
    differs.push(sql`spam = ${change.spam ? 0 : 1}`, sql`coalesce(label, '') <> ${label}`);
    if (change.spam) {
      // Spam is never delivered (C39): deliveries not yet written never will be.
      sets.push(sql`outbox = null`);
    } else {
      // Every expression of SET sees the row as it was: `spam = 1` is before this change.
      sets.push(sql`outbox = case when spam = 1 and exists (select 1 from targets w
        where w.project_id = submissions.project_id and w.disabled_at is null) then 1 else outbox end`);
    }
  }
  if (sets.length === 0 || ids.length === 0) return [];
  const rows = await storage(() =>
    db.all<{ id: string }>(sql`
      update submissions set ${sql.join(sets, sql`, `)}
      where project_id = ${projectId}
        and id in (select value from json_each(${JSON.stringify(ids)}))
        and (${sql.join(differs, sql` or `)})
      returning id`),
  );
  // Asked again after a failure here, the mark has changed nothing but the cancelling still runs.
  if (change.spam === true) await cancelDeliveriesOfSpam(db, ids, now);
  return rows.map((r) => r.id);
}

/**
 * C39: the pending deliveries of those of `ids` that are spam, that no attempt holds, are cancelled
 * (one in flight records its own outcome).
 */
async function cancelDeliveriesOfSpam(db: Db, ids: readonly string[], now: string): Promise<void> {
  await storage(() =>
    db.run(sql`
      update deliveries set status = 'cancelled', next_attempt_at = null, updated_at = ${now},
        last_error = 'cancelled: the submission was marked as spam'
      where status = 'pending' and (lease_until is null or lease_until <= ${now})
        and submission_id in (select id from submissions
          where spam = 1 and id in (select value from json_each(${JSON.stringify(ids)})))`),
  );
}

/** C34: deletes the project's submissions among `ids`; returns the ids deleted. */
export async function deleteSubmissions(
  db: Db,
  projectId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await storage(() =>
    db.all<{ id: string }>(sql`
      delete from submissions
      where project_id = ${projectId} and id in (select value from json_each(${JSON.stringify(ids)}))
      returning id`),
  );
  return rows.map((r) => r.id);
}
