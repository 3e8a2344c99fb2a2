// C34: a project's inbox: its submissions listed with their state and a search, one read, changed
// (read, starred, spam), deleted, many at once; its numbers per day; its audit log (C32); search
// indexed again. The tool and the management API both call these.
import { eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { submissions } from '../../schema/tables.ts';
import { InvalidInput, NotFound } from '../lib/faults.ts';
import { UUID } from '../lib/ids.ts';
import type { SpamReason, Verdict } from '../spam/settings.ts';
import { analyticsSince } from '../store/analytics.ts';
import { type AuditEntry, listAudit } from '../store/audit.ts';
import {
  changeState,
  deleteSubmissions,
  findSubmission,
  listSubmissionPage,
  MAX_PAGE_BYTES,
  type Order,
  type PageQuery,
  type SpamFilter,
  type StateChange,
  type StoredSubmission,
} from '../store/inbox.ts';
import { indexSubmissions, markForIndexing, matchesQuery, pendingOf } from '../store/search.ts';
import { type DayStats, dailyStats, MAX_STATS_DAYS } from '../store/stats.ts';
import { isOperator, type Manager, projectIdOf, recordChange } from './context.ts';

/** What an inbox shows of a submission. */
export type SubmissionView = {
  id: string;
  receivedAt: string;
  fields: Record<string, unknown>;
  spam: boolean;
  read: boolean;
  readAt: string | null;
  starred: boolean;
  /** C30: the names of its file fields. */
  files: string[];
  /** C39: the spam filter's verdict (`pending` until it has judged), its score 0–1 and its reason. */
  spamVerdict: Verdict | 'pending';
  spamScore: number | null;
  spamReason: SpamReason | null;
};

/** C39: a stored reason, as shown. */
export const reasonOf = (stored: string | null) =>
  stored === null ? null : (JSON.parse(stored) as SpamReason);

/** C39: a reason in one line, for a CSV cell or a terminal: `classifier: link domain bit.ly; url shortener`. */
export function reasonText(reason: SpamReason | null): string {
  if (reason === null) return '';
  return reason.signals.length === 0 ? reason.layer : `${reason.layer}: ${reason.signals.join('; ')}`;
}

export function submissionView(s: StoredSubmission): SubmissionView {
  return {
    id: s.id,
    receivedAt: s.receivedAt,
    fields: JSON.parse(s.data) as Record<string, unknown>,
    spam: s.spam,
    read: s.readAt !== null,
    readAt: s.readAt,
    starred: s.starred,
    files: s.files === null ? [] : (JSON.parse(s.files) as string[]),
    spamVerdict: s.verdict ?? 'pending',
    spamScore: s.spamScore,
    spamReason: reasonOf(s.spamReason),
  };
}

/** How a listing or an export narrows the project's submissions. */
export type InboxFilters = {
  /** Full-text: each word begins a word of the values. */
  q?: string | undefined;
  read?: boolean | undefined;
  starred?: boolean | undefined;
  spam?: SpamFilter | undefined;
  /** With files only (true), or without any (false). */
  files?: boolean | undefined;
  /** C39: with this verdict of the spam filter only. */
  verdict?: Verdict | undefined;
  since?: string | undefined;
  until?: string | undefined;
};

/** The filters as the store takes them. */
export function pageFilters(
  projectId: string,
  f: InboxFilters,
): Pick<PageQuery, 'since' | 'until' | 'spam' | 'filters'> {
  const filters: (SQL | undefined)[] = [];
  if (f.read !== undefined) filters.push(f.read ? isNotNull(submissions.readAt) : isNull(submissions.readAt));
  if (f.starred !== undefined) filters.push(eq(submissions.starred, f.starred));
  if (f.files !== undefined) filters.push(f.files ? isNotNull(submissions.files) : isNull(submissions.files));
  if (f.q !== undefined) filters.push(matchesQuery(projectId, f.q));
  if (f.verdict !== undefined) filters.push(eq(submissions.verdict, f.verdict));
  return { since: f.since, until: f.until, spam: f.spam ?? 'exclude', filters };
}

export type PageOptions = {
  filters?: InboxFilters;
  order?: Order;
  after?: string | undefined;
  limit?: number;
};

/**
 * A page of the project's submissions as stored, newest first unless asked otherwise; `more`:
 * whether rows remain after it. The key-scoped API shows these rows (their stored JSON as it is),
 * the inbox their views.
 */
export async function submissionPage(
  m: Manager,
  projectId: string,
  options: PageOptions,
): Promise<{ rows: StoredSubmission[]; more: boolean }> {
  const id = await projectIdOf(m, projectId);
  return listSubmissionPage(m.db, {
    projectId: id,
    limit: options.limit ?? INBOX_PAGE,
    maxBytes: MAX_PAGE_BYTES,
    order: options.order ?? 'desc',
    after: options.after,
    ...pageFilters(id, options.filters ?? {}),
  });
}

/** A page of the inbox, newest first unless asked otherwise; `more`: whether rows remain after it. */
export async function listInbox(
  m: Manager,
  projectId: string,
  options: PageOptions,
): Promise<{ submissions: SubmissionView[]; more: boolean }> {
  const page = await submissionPage(m, projectId, options);
  return { submissions: page.rows.map(submissionView), more: page.more };
}

const noSubmission = (projectId: string, id: string) =>
  new NotFound(`Project '${projectId}' has no submission '${id}'`);

/** One submission of a project known to exist; NotFound when it has none with this id. */
async function inProject(m: Manager, projectId: string, id: string): Promise<StoredSubmission> {
  const found = await findSubmission(m.db, projectId, id);
  if (found === undefined) throw noSubmission(projectId, id);
  return found;
}

/** One submission of the project, as stored; NotFound when the project has none with this id. */
export async function storedSubmission(m: Manager, projectId: string, id: string): Promise<StoredSubmission> {
  return inProject(m, await projectIdOf(m, projectId), id);
}

export async function getSubmission(m: Manager, projectId: string, id: string): Promise<SubmissionView> {
  return submissionView(await storedSubmission(m, projectId, id));
}

/**
 * After a change of spam mark: the submissions go to the queue, so that the rescued (taken out of
 * spam) are delivered within seconds, and the project's classifier learns every mark (C39);
 * without a queue (the tool), the minute's sweep does both.
 */
function afterMarks(m: Manager, ids: string[], change: StateChange): Promise<void> {
  if (change.spam === undefined || ids.length === 0 || m.enqueue === undefined) return Promise.resolve();
  return m.enqueue(ids);
}

/** C34: read, starred, spam; returns the submission after. */
export async function updateSubmission(
  m: Manager,
  projectId: string,
  id: string,
  change: StateChange,
): Promise<SubmissionView> {
  const p = await projectIdOf(m, projectId);
  await inProject(m, p, id);
  const changed = await changeState(m.db, p, [id], change, new Date().toISOString());
  if (changed.length > 0) {
    await recordChange(m, p, 'submission.update', { id, ...change });
    await afterMarks(m, changed, change);
  }
  return submissionView(await inProject(m, p, id));
}

export const BULK_ACTIONS = ['read', 'unread', 'star', 'unstar', 'spam', 'not-spam', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const MAX_BULK = 500;

/** C34: a page of the inbox and of the audit log, unless asked for fewer or more (at most MAX_PAGE). */
export const INBOX_PAGE = 50;
export const AUDIT_PAGE = 100;
export const MAX_PAGE = 500;

const BULK_CHANGES: Record<Exclude<BulkAction, 'delete'>, StateChange> = {
  read: { read: true },
  unread: { read: false },
  star: { starred: true },
  unstar: { starred: false },
  spam: { spam: true },
  'not-spam': { spam: false },
};

/** C34: one action on at most 500 submissions; ids not of the project are not counted. */
export async function bulkSubmissions(
  m: Manager,
  projectId: string,
  ids: readonly string[],
  action: BulkAction,
) {
  if (ids.length === 0) throw new InvalidInput('Give at least one submission id');
  if (ids.length > MAX_BULK)
    throw new InvalidInput(`At most ${MAX_BULK} submissions at once (${ids.length} given)`);
  const invalid = ids.find((id) => !UUID.test(id));
  if (invalid !== undefined) throw new InvalidInput(`'${invalid}' is not a submission id`);
  const p = await projectIdOf(m, projectId);
  const unique = [...new Set(ids)];
  let changed: string[];
  if (action === 'delete') {
    changed = await deleteSubmissions(m.db, p, unique);
  } else {
    const change = BULK_CHANGES[action];
    changed = await changeState(m.db, p, unique, change, new Date().toISOString());
    await afterMarks(m, changed, change);
  }
  if (changed.length > 0) await recordChange(m, p, `submissions.${action}`, { ids: changed });
  return { action, changed: changed.length };
}

/** Deletes one submission, with its deliveries, its search terms and (C30) its files. */
export async function deleteSubmission(
  m: Manager,
  projectId: string,
  id: string,
): Promise<{ deleted: string }> {
  const p = await projectIdOf(m, projectId);
  if ((await deleteSubmissions(m.db, p, [id])).length === 0) throw noSubmission(p, id);
  await recordChange(m, p, 'submission.delete', { id });
  return { deleted: id };
}

export { MAX_STATS_DAYS };

/** A day's numbers, with C40's form analytics: views, starts and the rates they give. */
export type DayReport = DayStats & {
  views: number;
  starts: number;
  /** accepted / starts, or null without a start. */
  completionRate: number | null;
  /** accepted / views, or null without a view. */
  conversionRate: number | null;
};

/** C40: how many visitors left a started form at each field, in the form's order, and their time there. */
export type FieldDropOff = { field: string; visitors: number; averageSeconds: number | null };

export type ProjectStats = {
  days: DayReport[];
  dropOff: FieldDropOff[];
  /** The median time from the first input to a submission, over the days (each day's median, weighted by its submissions). */
  medianSecondsToSubmit: number | null;
};

const rate = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** The median of per-day medians, each weighing as many as the submissions it was taken over. */
function weightedMedian(days: readonly { medianSubmitMs: number | null; timed: number }[]): number | null {
  const timed = days
    .filter((d): d is { medianSubmitMs: number; timed: number } => d.medianSubmitMs !== null && d.timed > 0)
    .sort((a, b) => a.medianSubmitMs - b.medianSubmitMs);
  const total = timed.reduce((n, d) => n + d.timed, 0);
  let seen = 0;
  for (const d of timed) {
    seen += d.timed;
    if (seen * 2 >= total) return d.medianSubmitMs;
  }
  return null;
}

/**
 * The last `days` days (UTC, today included): accepted, spam, delivered and failed, and (C40) views,
 * starts and their rates, per day; where visitors gave up, and the median time to a submission.
 */
export async function submissionStats(m: Manager, projectId: string, days = 30): Promise<ProjectStats> {
  if (!Number.isInteger(days) || days < 1 || days > MAX_STATS_DAYS) {
    throw new InvalidInput(`days must be a whole number from 1 to ${MAX_STATS_DAYS}`);
  }
  const p = await projectIdOf(m, projectId);
  const from = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const [daily, analytics] = await Promise.all([
    dailyStats(m.db, p, from, days),
    analyticsSince(m.db, p, from),
  ]);
  const byDay = new Map(analytics.days.map((d) => [d.day, d]));
  const report = daily.map((d): DayReport => {
    const a = byDay.get(d.day);
    const views = a?.views ?? 0;
    const starts = a?.starts ?? 0;
    return {
      ...d,
      views,
      starts,
      completionRate: rate(d.accepted, starts),
      conversionRate: rate(d.accepted, views),
    };
  });
  const left = new Map(analytics.dropOff.map((d) => [d.field, d]));
  const dropOff = analytics.fields.map((field): FieldDropOff => {
    const d = left.get(field);
    return {
      field,
      visitors: d?.visitors ?? 0,
      averageSeconds: d === undefined || d.visitors === 0 ? null : seconds(d.totalMs / d.visitors),
    };
  });
  const median = weightedMedian(analytics.days);
  return { days: report, dropOff, medianSecondsToSubmit: median === null ? null : seconds(median) };
}

/** C32: the project's audit log, newest first, `limit` entries before the entry `before`. */
export async function auditLog(
  m: Manager,
  projectId: string,
  options: { before?: string | undefined; limit?: number } = {},
): Promise<{ entries: AuditEntry[]; more: boolean }> {
  const p = await projectIdOf(m, projectId);
  const limit = options.limit ?? AUDIT_PAGE;
  const rows = await listAudit(m.db, p, { before: options.before, limit: limit + 1 });
  // C37: a project's key sees the operator's changes as the operator's, never who (an Access
  // identity is a person's address).
  const shown = isOperator(m.actor)
    ? rows
    : rows.map((r) =>
        r.actor.startsWith('access:') || r.actor === 'tool' ? { ...r, actor: 'operator' } : r,
      );
  return { entries: shown.slice(0, limit), more: rows.length > limit };
}

/**
 * C34: indexes the project's submissions again: every one is marked, then indexed here, `chunk`
 * at a time, up to `max` (the rest by the minute's sweep). Returns how many were marked and how
 * many indexed now.
 */
export async function rebuildSearch(m: Manager, projectId: string, max = Number.POSITIVE_INFINITY) {
  const p = await projectIdOf(m, projectId);
  const marked = await markForIndexing(m.db, p);
  let indexed = 0;
  const chunk = 200;
  while (indexed < max) {
    const ids = await pendingOf(m.db, p, chunk);
    if (ids.length === 0) break;
    indexed += await indexSubmissions(m.db, ids);
  }
  await recordChange(m, p, 'search.rebuild', { marked, indexed });
  return { projectId: p, marked, indexed };
}
