// C26, C27, C35, C36, C38: a project's delivery targets, of every kind (src/delivery/channels/): its
// webhooks and chats, its notification addresses, its confirmation and its integrations, with their
// secrets and whether they are on.
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { type DisabledReason, deliveries, targets } from '../../schema/tables.ts';
import { prefixedId } from '../lib/ids.ts';
import { type Db, storage } from './db.ts';

export type Target = typeof targets.$inferSelect;

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

export async function insertTarget(
  db: Db,
  row: {
    id: string;
    projectId: string;
    url: string;
    secret: string;
    kind?: string;
    /** C38: an integration's settings, as JSON. */
    config?: string;
    /** C37: an address waiting for its owner's agreement: off, with its link's token hash. */
    waiting?: { verifyHash: string; verifyUntil: string };
  },
) {
  const { waiting, ...target } = row;
  const createdAt = new Date().toISOString();
  await storage(() =>
    db.insert(targets).values({
      ...target,
      createdAt,
      ...(waiting === undefined ? {} : { ...waiting, disabledAt: createdAt, disabledReason: 'unverified' }),
    }),
  );
}

/**
 * C37: the address whose verification link carries this token's hash, if the link still works at
 * `now`: turned on, its link spent. Returns the project and address it was, or undefined.
 */
export async function verifyAddress(
  db: Db,
  verifyHash: string,
  now: string,
): Promise<{ id: string; projectId: string; url: string } | undefined> {
  const [row] = await storage(() =>
    db
      .update(targets)
      .set({ disabledAt: null, disabledReason: null, verifyHash: null, verifyUntil: null })
      .where(
        and(
          eq(targets.verifyHash, verifyHash),
          eq(targets.kind, 'email'),
          eq(targets.disabledReason, 'unverified'),
          gt(targets.verifyUntil, now),
        ),
      )
      .returning({ id: targets.id, projectId: targets.projectId, url: targets.url }),
  );
  return row;
}

/** C37: the address a still-working verification link is for, without spending it. */
export async function addressAwaiting(
  db: Db,
  verifyHash: string,
  now: string,
): Promise<{ projectId: string; url: string } | undefined> {
  const [row] = await storage(() =>
    db
      .select({ projectId: targets.projectId, url: targets.url })
      .from(targets)
      .where(
        and(eq(targets.verifyHash, verifyHash), eq(targets.kind, 'email'), gt(targets.verifyUntil, now)),
      ),
  );
  return row;
}

/**
 * A project's targets of some kinds: its webhooks (with C36's Slack and Discord hooks), or (C27)
 * its notification addresses, or (C35) its confirmation, or (C38) its integrations.
 */
export function listTargets(db: Db, projectId: string, kinds: string | readonly string[]): Promise<Target[]> {
  return storage(() =>
    db
      .select()
      .from(targets)
      .where(and(eq(targets.projectId, projectId), inArray(targets.kind, [kinds].flat())))
      .orderBy(asc(targets.createdAt)),
  );
}

/** C38: an integration's id: `in_` and 12 random base32 characters. */
export function newIntegrationId(): string {
  return prefixedId('in_');
}

/** C35: a confirmation target's id: `cf_` and 12 random base32 characters. */
export function newConfirmationId(): string {
  return prefixedId('cf_');
}

export async function removeTarget(db: Db, projectId: string, id: string, kind: string): Promise<boolean> {
  const removed = await storage(() =>
    db
      .delete(targets)
      .where(and(eq(targets.projectId, projectId), eq(targets.id, id), eq(targets.kind, kind)))
      .returning({ id: targets.id }),
  );
  return removed.length > 0;
}

/** The new secret signs from now on; the current one goes on signing beside it until `until`. */
export async function rotateSigningSecret(
  db: Db,
  projectId: string,
  id: string,
  secret: string,
  until: string,
): Promise<boolean> {
  const rotated = await storage(() =>
    db
      .update(targets)
      .set({ previousSecret: sql`${targets.secret}`, previousUntil: until, secret })
      .where(and(eq(targets.projectId, projectId), eq(targets.id, id)))
      .returning({ id: targets.id }),
  );
  return rotated.length > 0;
}

/** What the last error of a delivery cancelled with its target says (C26, C37). */
export function cancelledBecause(reason: DisabledReason | null): string {
  if (reason === 'manual') return 'cancelled: the target was disabled';
  if (reason === 'unverified') return 'cancelled: the address has not agreed to receive submissions (C37)';
  if (reason === 'refused')
    return 'cancelled: the service refused the integration (its credentials or destination)';
  return 'cancelled: the target was disabled after answering 410 Gone';
}

/**
 * The statements that disable a target and cancel its pending deliveries that no attempt holds
 * (C26): a final state that says why, instead of pending for ever. One attempt in flight records
 * its own outcome; the sweep cancels it afterwards if it is left pending.
 */
export function disableStatements(db: Db, id: string, reason: DisabledReason, at: string) {
  return [
    db.update(targets).set({ disabledAt: at, disabledReason: reason }).where(eq(targets.id, id)),
    db
      .update(deliveries)
      .set({
        status: 'cancelled',
        lastError: cancelledBecause(reason),
        nextAttemptAt: null,
        updatedAt: at,
      })
      .where(
        and(
          eq(deliveries.targetId, id),
          eq(deliveries.status, 'pending'),
          sql`(${deliveries.leaseUntil} is null or ${deliveries.leaseUntil} <= ${at})`,
        ),
      ),
  ] as const;
}

/**
 * Turns a target of the project on or off; returns whether it exists. Off cancels its pending
 * deliveries (C26); on sends to it again from the next submission, and its cancelled deliveries
 * can be sent again with `deliveries redeliver --failed`.
 */
export async function setTargetEnabled(
  db: Db,
  projectId: string,
  id: string,
  enabled: boolean,
): Promise<boolean> {
  const [hook] = await storage(() =>
    db
      .select({ id: targets.id, disabledAt: targets.disabledAt })
      .from(targets)
      .where(and(eq(targets.projectId, projectId), eq(targets.id, id))),
  );
  if (hook === undefined) return false;
  if (enabled) {
    await storage(() =>
      db.update(targets).set({ disabledAt: null, disabledReason: null }).where(eq(targets.id, id)),
    );
  } else if (hook.disabledAt === null) {
    const [disable, cancel] = disableStatements(db, id, 'manual', new Date().toISOString());
    await storage(() => db.batch([disable, cancel]));
  }
  return true;
}
