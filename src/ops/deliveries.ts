// C26, C27, C19: a project's deliveries with their attempts, and redelivery.
import type { DeliveryState } from '../../schema/tables.ts';
import { type AttemptOutcome, attemptDelivery, type SendOptions } from '../delivery/attempt.ts';
import { channelOf } from '../delivery/channels/index.ts';
import { judgeSubmissions } from '../jobs/verdicts.ts';
import { NotFound } from '../lib/faults.ts';
import { findDeliveryToSend, requeueDelivery, submissionOf } from '../store/deliveries.ts';
import {
  findListedDelivery,
  type ListedDelivery,
  listDeliveries as listAll,
  listAttempts,
} from '../store/delivery-log.ts';
import { findSubmission } from '../store/inbox.ts';
import { writeOutbox } from '../store/outbox.ts';
import { type Manager, recordChange, requireProject } from './context.ts';
import { shownUrl } from './targets.ts';

export type DeliveryFilters = {
  /** Those that ended undelivered: failed, or cancelled with their target. */
  failed?: boolean | undefined;
  state?: DeliveryState | undefined;
  /** A webhook's or a notification's id. */
  target?: string | undefined;
  /** The deliveries of one submission. */
  submission?: string | undefined;
};

/** The latest deliveries (100), oldest first, each with its attempts. */
export async function listDeliveries(m: Manager, projectId: string, options: DeliveryFilters = {}) {
  const p = await requireProject(m, projectId);
  const rows = await listAll(m.db, p.id, {
    failed: options.failed === true,
    ...(options.state === undefined ? {} : { state: options.state }),
    ...(options.target === undefined ? {} : { target: options.target }),
    ...(options.submission === undefined ? {} : { submission: options.submission }),
  });
  return withAttempts(m, rows);
}

/** One delivery of the project, with its attempts. */
export async function getDelivery(m: Manager, projectId: string, deliveryId: string) {
  const p = await requireProject(m, projectId);
  const row = await findListedDelivery(m.db, p.id, deliveryId);
  if (row === undefined) throw noDelivery(p.id, deliveryId);
  const [one] = await withAttempts(m, [row]);
  return one as NonNullable<typeof one>;
}

const noDelivery = (projectId: string, id: string) =>
  new NotFound(`Project '${projectId}' has no delivery '${id}'`, 'see: forms deliveries list');

async function withAttempts(m: Manager, rows: ListedDelivery[]) {
  const attempts = await listAttempts(
    m.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    ...r,
    // C36: a chat hook's URL is a secret.
    url: shownUrl(r.kind, r.url),
    attemptLog: attempts
      .filter((a) => a.deliveryId === r.id)
      .map(({ attempt, at, statusCode, error, durationMs, excerpt }) => ({
        attempt,
        at,
        statusCode,
        error,
        durationMs,
        excerpt,
      })),
  }));
}

export type Redelivery = { deliveryId: string } & (AttemptOutcome | { kind: 'queued' });

/**
 * Whether a redelivery is attempted where it is asked for (the tool, or the worker's request): an
 * HTTP channel is; an email (C27, C35) is queued, since only the worker's queue has the binding.
 */
function sentFromHere(kind: string): boolean {
  const family = channelOf(kind)?.family;
  switch (family) {
    case 'webhook':
    case 'integration':
      return true;
    case 'notification':
    case 'confirmation':
    case undefined:
      return false;
    default:
      return family satisfies never;
  }
}

/**
 * Attempts deliveries again now, from wherever this runs (one id, or every failed and cancelled one
 * of the project), claimed first as every attempt is (C26). An email goes back to the worker's
 * queue instead: only the worker can send it (C27).
 */
export async function redeliver(
  m: Manager,
  projectId: string,
  which: { id: string } | { failed: true },
  options: Pick<SendOptions, 'allowLocalHttp' | 'fetch' | 'publicUrl' | 'integrationsApiBase'>,
): Promise<Redelivery[]> {
  const p = await requireProject(m, projectId);
  const ids =
    'id' in which ? [which.id] : (await listAll(m.db, p.id, { failed: true, limit: 1000 })).map((d) => d.id);
  const results: Redelivery[] = [];
  for (const deliveryId of ids) {
    let delivery = await findDeliveryToSend(m.db, deliveryId);
    // C26: a delivery of a submission still marked in the outbox has no row yet: it is written
    // here, as the queue consumer would: judged first (C39), so that held spam is never sent.
    const submissionId = submissionOf(deliveryId);
    if (delivery === undefined && (await findSubmission(m.db, p.id, submissionId)) !== undefined) {
      if (m.assets !== undefined) await judgeSubmissions(m.db, m.assets, [submissionId], Date.now());
      await writeOutbox(m.db, [submissionId]);
      delivery = await findDeliveryToSend(m.db, deliveryId);
    }
    if (delivery === undefined || delivery.projectId !== p.id) {
      throw noDelivery(p.id, deliveryId);
    }
    if (!sentFromHere(delivery.kind)) {
      // C27: only the worker has the send_email binding; the next sweep sends it.
      await requeueDelivery(m.db, p.id, deliveryId);
      results.push({ deliveryId, kind: 'queued' });
      continue;
    }
    const outcome = await attemptDelivery(m.db, deliveryId, { ...options, again: true });
    results.push({ deliveryId, ...outcome });
  }
  if (results.length > 0) {
    await recordChange(m, p.id, 'delivery.redeliver', { deliveries: results.map((r) => r.deliveryId) });
  }
  return results;
}
