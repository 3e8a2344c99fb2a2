// C35: how many confirmations went to each address each day (UTC), across every project, by the
// SHA-256 of the address: the daily cap's count.
import { lt, sql } from 'drizzle-orm';
import { confirmationCounts } from '../../schema/tables.ts';
import { type Db, storage } from './db.ts';

/**
 * Counts one more confirmation to the address today, unless it has had `cap` already: whether it
 * may be sent. One statement: two attempts at once cannot both take the last place.
 */
export async function takeConfirmation(
  db: Db,
  addressHash: string,
  day: string,
  cap: number,
): Promise<boolean> {
  const rows = await storage(() =>
    db.all<{ count: number }>(sql`
      insert into confirmation_counts (address_hash, day, count) values (${addressHash}, ${day}, 1)
      on conflict (address_hash, day) do update set count = count + 1 where count < ${cap}
      returning count`),
  );
  return rows.length > 0;
}

/** Forgets the counts of days before `day`. */
export async function purgeConfirmationCounts(db: Db, day: string): Promise<number> {
  const result = await storage(() =>
    db.delete(confirmationCounts).where(lt(confirmationCounts.day, day)).run(),
  );
  return result.meta.changes;
}
