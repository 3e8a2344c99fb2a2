// C26, C27: a project's delivery targets (webhooks and email addresses), and the outbox of their
// deliveries with every attempt.
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import {
  type DeliveryState,
  deliveries,
  deliveryAttempts,
  projects,
  submissions,
  type TargetKind,
  webhooks,
} from '../../schema/tables.ts';
import { prefixedId } from '../lib/ids.ts';
import { type Db, storage } from './db.ts';

export type Webhook = typeof webhooks.$inferSelect;

/** A short, readable id with a prefix: `wh_` and 12 random base32 characters. */
export function newWebhookId(): string {
  return prefixedId('wh_');
}

/** C27: an email notification's id: `em_` and 12 random base32 characters. */
export function newNotificationId(): string {
  return prefixedId('em_');
}

/** C27: an email target keeps its address as a `mailto:` URL, and no secret. */
export const mailto = (address: string) => `mailto:${address}`;
export const addressOf = (url: string) => (url.startsWith('mailto:') ? url.slice('mailto:'.length) : url);

export async function insertWebhook(
  db: Db,
  row: { id: string; projectId: string; url: string; secret: string; kind?: TargetKind },
) {
  await storage(() => db.insert(webhooks).values({ ...row, createdAt: new Date().toISOString() }));
}

/** A project's targets of one kind: its webhooks, or (C27) its notification addresses. */
export function listWebhooks(db: Db, projectId: string, kind: TargetKind = 'webhook'): Promise<Webhook[]> {
  return storage(() =>
    db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.projectId, projectId), eq(webhooks.kind, kind)))
      .orderBy(asc(webhooks.createdAt)),
  );
}

export async function removeWebhook(
  db: Db,
  projectId: string,
  id: string,
  kind: TargetKind = 'webhook',
): Promise<boolean> {
  const removed = await storage(() =>
    db
      .delete(webhooks)
      .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, id), eq(webhooks.kind, kind)))
      .returning({ id: webhooks.id }),
  );
  return removed.length > 0;
}

/** The new secret signs from now on; the current one goes on signing beside it until `until`. */
export async function rotateWebhookSecret(
  db: Db,
  projectId: string,
  id: string,
  secret: string,
  until: string,
): Promise<boolean> {
  const rotated = await storage(() =>
    db
      .update(webhooks)
      .set({ previousSecret: sql`${webhooks.secret}`, previousUntil: until, secret })
      .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, id)))
      .returning({ id: webhooks.id }),
  );
  return rotated.length > 0;
}

/** D1 binds at most 100 parameters per statement: the outbox is written 100 submissions at a time. */
export const OUTBOX_IDS_PER_STATEMENT = 100;

/**
 * The delivery rows of marked submissions (C26): one per active target of the project when they
 * are written, normally within a second of the 201. (Not "the targets when it was received": that
 * would compare the worker's clock with the clock of the machine that added the target, and a
 * skewed laptop would silently lose deliveries.) `on conflict do nothing`: writing them twice (a
 * queue message given twice, the sweep beside the consumer) writes nothing the second time.
 */
function outboxInsertSql(count: number): string {
  const ids = Array.from({ length: count }, () => '?').join(', ');
  return `insert into deliveries (id, submission_id, webhook_id, project_id, status, attempts, next_attempt_at, created_at, updated_at)
select s.id || '.' || w.id, s.id, w.id, s.project_id, 'pending', 0, s.received_at, s.received_at, s.received_at
from submissions s join webhooks w on w.project_id = s.project_id and w.disabled_at is null
where s.outbox is not null and s.id in (${ids})
on conflict do nothing
returning id`;
}

/**
 * Writes the delivery rows of these submissions and clears their outbox marker, in one D1 batch (a
 * transaction): the marker is cleared only with its rows written. Returns the ids of the deliveries
 * written now (those written before are not returned again).
 */
export async function writeOutbox(db: Db, submissionIds: readonly string[]): Promise<string[]> {
  const d1 = db.$client;
  const written: string[] = [];
  for (let i = 0; i < submissionIds.length; i += OUTBOX_IDS_PER_STATEMENT) {
    const ids = submissionIds.slice(i, i + OUTBOX_IDS_PER_STATEMENT);
    const marks = ids.map(() => '?').join(', ');
    const [inserted] = await storage(() =>
      d1.batch<{ id: string }>([
        d1.prepare(outboxInsertSql(ids.length)).bind(...ids),
        d1
          .prepare(`update submissions set outbox = null where outbox is not null and id in (${marks})`)
          .bind(...ids),
      ]),
    );
    for (const row of inserted?.results ?? []) written.push(row.id);
  }
  return written;
}

/**
 * The sweep's share of the outbox (C26): the marked submissions received before `before`, whose
 * queue message never came or was never consumed, oldest first.
 */
export async function markedBefore(db: Db, before: string, limit: number): Promise<string[]> {
  const rows = await storage(() =>
    db
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(isNotNull(submissions.outbox), lt(submissions.receivedAt, before)))
      .orderBy(asc(submissions.receivedAt))
      .limit(limit),
  );
  return rows.map((r) => r.id);
}

/** The id of the delivery of a submission to a webhook: the `webhook-id` of its every attempt. */
export const deliveryId = (submissionId: string, webhookId: string) => `${submissionId}.${webhookId}`;

export type DeliveryToSend = {
  id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  projectId: string;
  submissionId: string;
  receivedAt: string;
  data: string;
  /** C30: the names of the submission's file fields (JSON), or null. */
  files: string | null;
  webhookId: string;
  kind: TargetKind;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousUntil: string | null;
  disabledAt: string | null;
  /** C27: what an email needs of its project. */
  projectName: string;
  replyToField: string | null;
};

/** A delivery with what sending it needs: its target, its submission and project, in one query. */
export async function findDeliveryToSend(db: Db, id: string): Promise<DeliveryToSend | undefined> {
  const [row] = await storage(() =>
    db
      .select({
        id: deliveries.id,
        status: deliveries.status,
        attempts: deliveries.attempts,
        projectId: deliveries.projectId,
        submissionId: deliveries.submissionId,
        receivedAt: submissions.receivedAt,
        data: submissions.data,
        files: submissions.files,
        webhookId: webhooks.id,
        kind: webhooks.kind,
        url: webhooks.url,
        secret: webhooks.secret,
        previousSecret: webhooks.previousSecret,
        previousUntil: webhooks.previousUntil,
        disabledAt: webhooks.disabledAt,
        projectName: projects.name,
        replyToField: projects.replyToField,
      })
      .from(deliveries)
      .innerJoin(webhooks, eq(webhooks.id, deliveries.webhookId))
      .innerJoin(submissions, eq(submissions.id, deliveries.submissionId))
      .innerJoin(projects, eq(projects.id, deliveries.projectId))
      .where(eq(deliveries.id, id)),
  );
  return row;
}

export type Attempt = {
  deliveryId: string;
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  excerpt: string | null;
};

/**
 * Records an attempt and the delivery's new state in one D1 batch; `disableWebhook` when the
 * receiver answered 410 Gone.
 */
export async function recordAttempt(
  db: Db,
  attempt: Attempt,
  state: { status: 'pending' | 'delivered' | 'failed'; nextAttemptAt: string | null },
  disableWebhook?: string,
): Promise<void> {
  await storage(() =>
    db.batch([
      db.insert(deliveryAttempts).values(attempt),
      db
        .update(deliveries)
        .set({
          status: state.status,
          attempts: attempt.attempt,
          lastStatus: attempt.statusCode,
          lastError: attempt.error,
          nextAttemptAt: state.nextAttemptAt,
          updatedAt: attempt.at,
        })
        .where(eq(deliveries.id, attempt.deliveryId)),
      ...(disableWebhook === undefined
        ? []
        : [db.update(webhooks).set({ disabledAt: attempt.at }).where(eq(webhooks.id, disableWebhook))]),
    ]),
  );
}

/**
 * Pending deliveries whose next attempt was due before `before` and never came (their message never
 * reached the queue, or was lost): the sweep sends them again, leasing each until `leaseUntil` so
 * that the next sweep does not send it twice while it is in flight.
 */
export async function claimOverdue(
  db: Db,
  before: string,
  leaseUntil: string,
  limit: number,
): Promise<string[]> {
  const rows = await storage(() =>
    db
      .update(deliveries)
      .set({ nextAttemptAt: leaseUntil })
      .where(
        inArray(
          deliveries.id,
          db
            .select({ id: deliveries.id })
            .from(deliveries)
            .where(and(eq(deliveries.status, 'pending'), lt(deliveries.nextAttemptAt, before)))
            .limit(limit),
        ),
      )
      .returning({ id: deliveries.id }),
  );
  return rows.map((r) => r.id);
}

/**
 * C27: a delivery the worker sends again (an email, which only the worker can send): pending, and
 * due long ago, so that the next sweep (every minute) sends it through the queue.
 */
export async function requeueDelivery(db: Db, projectId: string, id: string): Promise<boolean> {
  const updated = await storage(() =>
    db
      .update(deliveries)
      .set({ status: 'pending', nextAttemptAt: new Date(0).toISOString() })
      .where(and(eq(deliveries.projectId, projectId), eq(deliveries.id, id)))
      .returning({ id: deliveries.id }),
  );
  return updated.length > 0;
}

/** The order of SQLite's text comparison (binary), which `order by` gave. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export type ListedDelivery = {
  id: string;
  submissionId: string;
  webhookId: string;
  kind: TargetKind;
  url: string;
  status: DeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
};

/**
 * A project's latest deliveries (`limit`, 100 unless told), shown oldest first: those written as
 * rows, and (C26) those of submissions still marked in the outbox, whose rows the queue consumer
 * has yet to write: pending, never attempted.
 */
export async function listDeliveries(
  db: Db,
  projectId: string,
  options: { failed?: boolean; limit?: number } = {},
): Promise<ListedDelivery[]> {
  const limit = options.limit ?? 100;
  const written = await storage(() =>
    db
      .select({
        id: deliveries.id,
        submissionId: deliveries.submissionId,
        webhookId: deliveries.webhookId,
        kind: webhooks.kind,
        url: webhooks.url,
        status: deliveries.status,
        attempts: deliveries.attempts,
        lastStatus: deliveries.lastStatus,
        lastError: deliveries.lastError,
        nextAttemptAt: deliveries.nextAttemptAt,
        createdAt: deliveries.createdAt,
      })
      .from(deliveries)
      .innerJoin(webhooks, eq(webhooks.id, deliveries.webhookId))
      .where(
        and(
          eq(deliveries.projectId, projectId),
          options.failed ? eq(deliveries.status, 'failed') : undefined,
        ),
      )
      .orderBy(desc(deliveries.createdAt), desc(deliveries.id))
      .limit(limit),
  );
  // The same targets as the outbox's insert: those active now.
  const marked = options.failed
    ? []
    : await storage(() =>
        db
          .select({
            submissionId: submissions.id,
            webhookId: webhooks.id,
            kind: webhooks.kind,
            url: webhooks.url,
            receivedAt: submissions.receivedAt,
          })
          .from(submissions)
          .innerJoin(
            webhooks,
            and(eq(webhooks.projectId, submissions.projectId), isNull(webhooks.disabledAt)),
          )
          // `+project_id`: by the outbox's partial index (the few marked rows of every project),
          // never by the project's index (all of its submissions).
          .where(and(sql`+${submissions.projectId} = ${projectId}`, isNotNull(submissions.outbox)))
          .orderBy(desc(submissions.receivedAt))
          .limit(limit),
      );
  const unwritten: ListedDelivery[] = marked.map((m) => ({
    id: deliveryId(m.submissionId, m.webhookId),
    submissionId: m.submissionId,
    webhookId: m.webhookId,
    kind: m.kind,
    url: m.url,
    status: 'pending',
    attempts: 0,
    lastStatus: null,
    lastError: null,
    nextAttemptAt: m.receivedAt,
    createdAt: m.receivedAt,
  }));
  return [...written, ...unwritten]
    .sort((a, b) => byText(a.createdAt, b.createdAt) || byText(a.id, b.id))
    .slice(-limit);
}

export function listAttempts(db: Db, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return storage(() =>
    db
      .select()
      .from(deliveryAttempts)
      .where(inArray(deliveryAttempts.deliveryId, deliveryIds))
      .orderBy(asc(deliveryAttempts.deliveryId), asc(deliveryAttempts.attempt)),
  );
}
