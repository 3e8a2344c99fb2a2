// C34: a project's inbox: its submissions listed with their state and a search, one read, changed
// (read, starred, spam), deleted, many at once. Its numbers per day are `stats.ts`, its audit log
// `audit.ts`, its search index rebuilt `search.ts`. The tool and the management API both call these.
import { eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { submissions } from '../../schema/tables.ts';
import { InvalidInput, NotFound } from '../lib/faults.ts';
import { UUID } from '../lib/ids.ts';
import type { SpamReason, Verdict } from '../spam/settings.ts';
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
import { matchesQuery } from '../store/search.ts';
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

/** C39: a reason in one line, for a CSV cell or a terminal: `prior: link domain bit.ly; url shortener`. */
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
  const changed = await changeState(m.db, p, [id], change, new Date().toISOString(), isOperator(m.actor));
  if (changed.length > 0) {
    await recordChange(m, p, 'submission.update', { id, ...change });
    await afterMarks(m, changed, change);
  }
  return submissionView(await inProject(m, p, id));
}

export const BULK_ACTIONS = ['read', 'unread', 'star', 'unstar', 'spam', 'not-spam', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const MAX_BULK = 500;

/** C34: a page of the inbox, unless asked for fewer or more (at most MAX_PAGE, the audit log's too). */
export const INBOX_PAGE = 50;
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
    changed = await changeState(m.db, p, unique, change, new Date().toISOString(), isOperator(m.actor));
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
