// C35, C37: mail counted per day (UTC) for the caps: one mailbox's confirmations from one project,
// a project's confirmations, the confirmations a cap stopped (for the owner's stats), and
// verification mails to one mailbox. A mailbox is only ever the SHA-256 of its normalised address.
import { and, like, lt, not, or, sql } from 'drizzle-orm';
import { mailCounts } from '../../schema/tables.ts';
import { type Db, storage } from './db.ts';

/** What is counted: the scope of a count. */
export const scopes = {
  /** One mailbox's confirmations from one project. */
  mailbox: (projectId: string, mailboxHash: string) => `confirm:${projectId}:${mailboxHash}`,
  /** A project's confirmations. */
  project: (projectId: string) => `confirm:${projectId}`,
  /** Confirmations a cap stopped, shown to the owner. */
  capped: (projectId: string) => `capped:${projectId}`,
  /** Verification mails to one mailbox, across projects. */
  verify: (mailboxHash: string) => `verify:${mailboxHash}`,
  /** Verification mails a project sent. */
  verifyProject: (projectId: string) => `verify-project:${projectId}`,
};

/**
 * Counts one more under `scope` today, unless it has `cap` already: whether it may be sent. One
 * statement: two attempts at once cannot both take the last place.
 */
export async function take(db: Db, scope: string, day: string, cap: number): Promise<boolean> {
  return (await taken(db, scope, day, cap)) !== undefined;
}

/** As `take`: the count with this one, or undefined when the cap was reached. */
async function taken(db: Db, scope: string, day: string, cap: number): Promise<number | undefined> {
  if (cap < 1) return undefined;
  const rows = await storage(() =>
    db.all<{ count: number }>(sql`
      insert into mail_counts (scope, day, count) values (${scope}, ${day}, 1)
      on conflict (scope, day) do update set count = count + 1 where count < ${cap}
      returning count`),
  );
  return rows[0]?.count;
}

/** The count under `scope` today in one database. */
async function countIn(db: Db, scope: string, day: string): Promise<number> {
  const rows = await storage(() =>
    db.all<{ count: number }>(sql`select count from mail_counts where scope = ${scope} and day = ${day}`),
  );
  return rows[0]?.count ?? 0;
}

/**
 * C37, C41: as `take`, for a count of the whole deployment kept in each place (a mailbox's hash is
 * written only in the place of the project that asks): counted here within what the other places
 * have left of the cap, then checked against them again, and given back if they took the last
 * places meanwhile. Of two places taking at once, at least one sees the other's count: together
 * they never pass the cap (at worst, both give back).
 */
export async function takeAcross(
  own: Db,
  others: readonly Db[],
  scope: string,
  day: string,
  cap: number,
): Promise<boolean> {
  const elsewhere = async () =>
    (await Promise.all(others.map((db) => countIn(db, scope, day)))).reduce((a, b) => a + b, 0);
  const mine = await taken(own, scope, day, cap - (await elsewhere()));
  if (mine === undefined) return false;
  if (others.length === 0 || mine + (await elsewhere()) <= cap) return true;
  await storage(() =>
    own.run(
      sql`update mail_counts set count = count - 1 where scope = ${scope} and day = ${day} and count > 0`,
    ),
  );
  return false;
}

/** Counts one more under `scope` today, with no cap. */
export async function count(db: Db, scope: string, day: string): Promise<void> {
  await storage(() =>
    db.run(sql`
      insert into mail_counts (scope, day, count) values (${scope}, ${day}, 1)
      on conflict (scope, day) do update set count = count + 1`),
  );
}

/**
 * Forgets the counts of days before `day` (every mailbox's hash with them), and the stats' counts
 * of capped confirmations once older than `keepStatsFrom`.
 */
export async function purgeMailCounts(db: Db, day: string, keepStatsFrom: string): Promise<number> {
  const result = await storage(() =>
    db
      .delete(mailCounts)
      .where(
        or(
          and(lt(mailCounts.day, day), not(like(mailCounts.scope, 'capped:%'))),
          lt(mailCounts.day, keepStatsFrom),
        ),
      )
      .run(),
  );
  return result.meta.changes;
}
