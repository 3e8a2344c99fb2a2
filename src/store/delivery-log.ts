// C26, C27: what the delivery log shows: a project's deliveries, written or still marked in the
// outbox, and every attempt.
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  type DeliveryState,
  deliveries,
  deliveryAttempts,
  submissions,
  targets,
} from '../../schema/tables.ts';
import { type Db, storage } from './db.ts';
import { deliveryId } from './deliveries.ts';

/** The order of SQLite's text comparison (binary), which `order by` gave. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export type ListedDelivery = {
  id: string;
  submissionId: string;
  webhookId: string;
  kind: string;
  url: string;
  status: DeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
};

const LISTED_COLUMNS = {
  id: deliveries.id,
  submissionId: deliveries.submissionId,
  webhookId: deliveries.targetId,
  kind: targets.kind,
  url: targets.url,
  status: deliveries.status,
  attempts: deliveries.attempts,
  lastStatus: deliveries.lastStatus,
  lastError: deliveries.lastError,
  nextAttemptAt: deliveries.nextAttemptAt,
  createdAt: deliveries.createdAt,
};

/** One written delivery of the project, by its id. */
export async function findListedDelivery(
  db: Db,
  projectId: string,
  id: string,
): Promise<ListedDelivery | undefined> {
  const [row] = await storage(() =>
    db
      .select(LISTED_COLUMNS)
      .from(deliveries)
      .innerJoin(targets, eq(targets.id, deliveries.targetId))
      .where(and(eq(deliveries.projectId, projectId), eq(deliveries.id, id))),
  );
  return row;
}

/**
 * A project's latest deliveries (`limit`, 100 unless told), shown oldest first: those written as
 * rows, and (C26) those of submissions still marked in the outbox, whose rows the queue consumer
 * has yet to write: pending, never attempted.
 */
export async function listDeliveries(
  db: Db,
  projectId: string,
  options: {
    failed?: boolean;
    state?: DeliveryState;
    target?: string;
    submission?: string;
    limit?: number;
  } = {},
): Promise<ListedDelivery[]> {
  const limit = options.limit ?? 100;
  const written = await storage(() =>
    db
      .select(LISTED_COLUMNS)
      .from(deliveries)
      .innerJoin(targets, eq(targets.id, deliveries.targetId))
      .where(
        and(
          eq(deliveries.projectId, projectId),
          // Ended without being delivered: failed, or cancelled with its target (C26).
          options.failed ? inArray(deliveries.status, ['failed', 'cancelled']) : undefined,
          options.state === undefined ? undefined : eq(deliveries.status, options.state),
          options.target === undefined ? undefined : eq(deliveries.targetId, options.target),
          options.submission === undefined ? undefined : eq(deliveries.submissionId, options.submission),
        ),
      )
      .orderBy(desc(deliveries.createdAt), desc(deliveries.id))
      .limit(limit),
  );
  // The same targets as the outbox's insert: those active now.
  const unwrittenShown = !options.failed && (options.state === undefined || options.state === 'pending');
  const marked = !unwrittenShown
    ? []
    : await storage(() =>
        db
          .select({
            submissionId: submissions.id,
            webhookId: targets.id,
            kind: targets.kind,
            url: targets.url,
            receivedAt: submissions.receivedAt,
          })
          .from(submissions)
          .innerJoin(
            targets,
            and(
              eq(targets.projectId, submissions.projectId),
              isNull(targets.disabledAt),
              options.target === undefined ? undefined : eq(targets.id, options.target),
            ),
          )
          // `+project_id`: by the outbox's partial index (the few marked rows of every project),
          // never by the project's index (all of its submissions).
          .where(
            and(
              sql`+${submissions.projectId} = ${projectId}`,
              isNotNull(submissions.outbox),
              options.submission === undefined ? undefined : eq(submissions.id, options.submission),
            ),
          )
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
