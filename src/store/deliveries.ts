// C26, C27: a project's deliveries (to its targets, store/targets.ts; written by outbox.ts), with
// every attempt, and the claim that lets one attempt at a time run per delivery.
import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import {
  type DeliveryState,
  type DisabledReason,
  deliveries,
  deliveryAttempts,
  fields,
  projects,
  submissions,
  targets,
} from '../../schema/tables.ts';
import { type Db, storage } from './db.ts';
import { cancelledBecause, disableStatements } from './targets.ts';

/** The id of the delivery of a submission to a target: the `webhook-id` of its every attempt. */
export const deliveryId = (submissionId: string, targetId: string) => `${submissionId}.${targetId}`;

/** The submission a delivery's id names (C26: `<submission id>.<target id>`). */
export const submissionOf = (id: string) => id.slice(0, Math.max(0, id.lastIndexOf('.')));

export type DeliveryToSend = {
  id: string;
  status: DeliveryState;
  /** Once claimed: the number of the attempt the claim allocated. */
  attempts: number;
  projectId: string;
  submissionId: string;
  receivedAt: string;
  data: string;
  /** C30: the names of the submission's file fields (JSON), or null. */
  files: string | null;
  targetId: string;
  kind: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousUntil: string | null;
  disabledAt: string | null;
  disabledReason: DisabledReason | null;
  leaseUntil: string | null;
  /** C27: what an email needs of its project. */
  projectName: string;
  replyToField: string | null;
  /**
   * C35: the project's confirmation; the challenge the submission passed (null: none); and the
   * choices (`oneOf`) of the project's fields, as a JSON object by field name, or null.
   */
  confirmField: string | null;
  confirmSubject: string | null;
  confirmBody: string | null;
  confirmReplyTo: string | null;
  confirmOpen: boolean;
  challenge: string | null;
  choices: string | null;
  /** C38: an integration's settings (JSON), and the project's fields in order (JSON: name, type). */
  config: string | null;
  fieldSpecs: string | null;
};

/**
 * A delivery with what sending it needs: its target, its submission and project, in one query. No
 * two columns share a name: in a D1 batch Drizzle maps a row by its column names.
 */
function selectToSend(db: Db, id: string) {
  return db
    .select({
      id: deliveries.id,
      status: deliveries.status,
      attempts: deliveries.attempts,
      projectId: deliveries.projectId,
      submissionId: deliveries.submissionId,
      receivedAt: submissions.receivedAt,
      data: submissions.data,
      files: submissions.files,
      targetId: deliveries.targetId,
      kind: targets.kind,
      url: targets.url,
      secret: targets.secret,
      previousSecret: targets.previousSecret,
      previousUntil: targets.previousUntil,
      disabledAt: targets.disabledAt,
      disabledReason: targets.disabledReason,
      leaseUntil: deliveries.leaseUntil,
      projectName: projects.name,
      replyToField: projects.replyToField,
      confirmField: projects.confirmField,
      confirmSubject: projects.confirmSubject,
      confirmBody: projects.confirmBody,
      confirmReplyTo: projects.confirmReplyTo,
      confirmOpen: projects.confirmOpen,
      challenge: submissions.challenge,
      choices: sql<
        string | null
      >`(select json_group_object(${fields.name}, json_extract(${fields.rules}, '$.oneOf')) from ${fields} where ${fields.projectId} = ${projects.id} and json_extract(${fields.rules}, '$.oneOf') is not null)`.as(
        'field_choices',
      ),
      config: targets.config,
      fieldSpecs: sql<
        string | null
      >`(select json_group_array(json_object('name', name, 'type', type)) from (select ${fields.name} as name, ${fields.type} as type from ${fields} where ${fields.projectId} = ${projects.id} order by ${fields.position}))`.as(
        'field_specs',
      ),
    })
    .from(deliveries)
    .innerJoin(targets, eq(targets.id, deliveries.targetId))
    .innerJoin(submissions, eq(submissions.id, deliveries.submissionId))
    .innerJoin(projects, eq(projects.id, deliveries.projectId))
    .where(eq(deliveries.id, id));
}

export async function findDeliveryToSend(db: Db, id: string): Promise<DeliveryToSend | undefined> {
  const [row] = await storage(() => selectToSend(db, id));
  return row;
}

/**
 * What a claim found: the delivery, now held for one attempt; or why there is nothing to attempt:
 * it is gone (its submission or target deleted), settled (delivered, failed or cancelled, unless
 * `again`), busy (another attempt holds it), or its target is disabled.
 */
export type Claim =
  | { kind: 'claimed'; delivery: DeliveryToSend }
  | { kind: 'gone' }
  | { kind: 'settled'; status: DeliveryState }
  | { kind: 'busy'; until: string }
  | { kind: 'disabled'; reason: DisabledReason | null };

/**
 * C26: one attempt at a time per delivery, whoever makes it (the queue consumer, the sweep's
 * message, the tool). The claim is one D1 transaction: the delivery is held until `leaseUntil` and
 * its attempt number allocated (`attempts` + 1) only if no other attempt holds it, it is pending
 * (or, with `again`, in any state, for a redelivery) and its target is on; the delivery is read
 * back in the same batch. A pending delivery found with its target disabled is cancelled.
 */
export async function claimDelivery(
  db: Db,
  id: string,
  options: { now: Date; leaseUntil: Date; again?: boolean },
): Promise<Claim> {
  const now = options.now.toISOString();
  const [claimed, [found]] = await storage(() =>
    db.batch([
      db
        .update(deliveries)
        .set({
          attempts: sql`${deliveries.attempts} + 1`,
          leaseUntil: options.leaseUntil.toISOString(),
          status: 'pending',
          updatedAt: now,
        })
        .where(
          and(
            eq(deliveries.id, id),
            sql`(${deliveries.leaseUntil} is null or ${deliveries.leaseUntil} <= ${now})`,
            options.again ? undefined : eq(deliveries.status, 'pending'),
            sql`exists (select 1 from ${targets} where ${targets.id} = ${deliveries.targetId} and ${targets.disabledAt} is null)`,
          ),
        )
        .returning({ attempts: deliveries.attempts }),
      selectToSend(db, id),
    ]),
  );
  if (found === undefined) return { kind: 'gone' };
  if (claimed.length > 0) return { kind: 'claimed', delivery: found };
  if (found.disabledAt !== null) {
    if (found.status === 'pending' && (found.leaseUntil === null || found.leaseUntil <= now)) {
      await cancelDelivery(db, id, cancelledBecause(found.disabledReason), now);
    }
    return { kind: 'disabled', reason: found.disabledReason };
  }
  if (found.status !== 'pending' && !options.again) return { kind: 'settled', status: found.status };
  return { kind: 'busy', until: found.leaseUntil ?? now };
}

/**
 * C38: other deliveries to the same target that are due now and held by no attempt (oldest
 * first), which an attempt may send with its own (Airtable takes 10 records a request).
 */
export async function dueBeside(db: Db, targetId: string, exceptId: string, now: Date, limit: number) {
  const at = now.toISOString();
  const rows = await storage(() =>
    db
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(
        and(
          eq(deliveries.targetId, targetId),
          eq(deliveries.status, 'pending'),
          sql`${deliveries.id} <> ${exceptId}`,
          sql`(${deliveries.nextAttemptAt} is null or ${deliveries.nextAttemptAt} <= ${at})`,
          sql`(${deliveries.leaseUntil} is null or ${deliveries.leaseUntil} <= ${at})`,
        ),
      )
      .orderBy(asc(deliveries.createdAt))
      .limit(limit),
  );
  return rows.map((r) => r.id);
}

async function cancelDelivery(db: Db, id: string, reason: string, at: string): Promise<void> {
  await storage(() =>
    db
      .update(deliveries)
      .set({ status: 'cancelled', lastError: reason, nextAttemptAt: null, updatedAt: at })
      .where(and(eq(deliveries.id, id), eq(deliveries.status, 'pending'))),
  );
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
 * Records a claimed attempt and the delivery's new state in one D1 batch, and lets go of the claim;
 * `disable` when the receiver answered 410 Gone: the target is disabled and its other pending
 * deliveries cancelled (C26). The attempt's number was allocated by its claim, so no two attempts
 * share one; a record whose claim was overtaken (it outlived its lease) leaves the newer claim's
 * state alone.
 */
export async function recordAttempt(
  db: Db,
  attempt: Attempt,
  state: { status: 'pending' | 'delivered' | 'failed'; nextAttemptAt: string | null },
  disable?: { targetId: string; reason: DisabledReason },
): Promise<void> {
  await storage(() =>
    db.batch([
      db.insert(deliveryAttempts).values(attempt),
      db
        .update(deliveries)
        .set({
          status: state.status,
          lastStatus: attempt.statusCode,
          lastError: attempt.error,
          nextAttemptAt: state.nextAttemptAt,
          leaseUntil: null,
          updatedAt: attempt.at,
        })
        .where(and(eq(deliveries.id, attempt.deliveryId), eq(deliveries.attempts, attempt.attempt))),
      ...(disable === undefined ? [] : disableStatements(db, disable.targetId, disable.reason, attempt.at)),
    ]),
  );
}

/**
 * Pending deliveries whose next attempt was due before `before` and never came (their message never
 * reached the queue, or was lost), most overdue first, none whose target is off or that an attempt
 * holds: the sweep sends them again, pushing each one's due time to `leaseUntil` so that the next
 * sweep does not send it twice while its message is in flight.
 */
export async function claimOverdue(
  db: Db,
  now: string,
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
            .innerJoin(targets, and(eq(targets.id, deliveries.targetId), isNull(targets.disabledAt)))
            .where(
              and(
                eq(deliveries.status, 'pending'),
                lt(deliveries.nextAttemptAt, before),
                sql`(${deliveries.leaseUntil} is null or ${deliveries.leaseUntil} <= ${now})`,
              ),
            )
            .orderBy(asc(deliveries.nextAttemptAt))
            .limit(limit),
        ),
      )
      .returning({ id: deliveries.id }),
  );
  return rows.map((r) => r.id);
}

/**
 * The sweep's catch-all (C26): pending deliveries of disabled targets that no attempt holds (an
 * attempt that was in flight when its target was disabled left one pending) are cancelled.
 */
export async function cancelOfDisabledTargets(db: Db, now: string): Promise<number> {
  const rows = await storage(() =>
    db.all<{ id: string }>(sql`
      update ${deliveries} set status = 'cancelled', next_attempt_at = null, updated_at = ${now},
        last_error = case (select ${targets.disabledReason} from ${targets} where ${targets.id} = ${deliveries.targetId})
          when 'manual' then ${cancelledBecause('manual')}
          when 'unverified' then ${cancelledBecause('unverified')}
          else ${cancelledBecause('gone')} end
      where ${deliveries.status} = 'pending'
        and (${deliveries.leaseUntil} is null or ${deliveries.leaseUntil} <= ${now})
        and ${deliveries.targetId} in (select ${targets.id} from ${targets} where ${targets.disabledAt} is not null)
      returning ${deliveries.id}`),
  );
  return rows.length;
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
