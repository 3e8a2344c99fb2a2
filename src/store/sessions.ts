// C32: the dashboard's sessions. Only the SHA-256 of a session's id is stored, with who it is and
// what made it: a session ends when it expires, when it is ended, or when its credential does.
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { sessions } from '../../schema/tables.ts';
import { type Db, storage } from './db.ts';

export type SessionRow = typeof sessions.$inferSelect;

/**
 * Stores a new session, and (C37) ends the oldest of the same credential beyond `max`, in the same
 * write: a credential has at most `max` sessions alive.
 */
export async function insertSession(db: Db, row: SessionRow, max: number): Promise<void> {
  const sameKey = row.keyHash === null ? sql`key_hash is null` : sql`key_hash = ${row.keyHash}`;
  await storage(() =>
    db.batch([
      db.insert(sessions).values(row),
      // (SQL of its own: Drizzle's query builder drops SQLite's `limit -1`, which `offset` needs.)
      db.delete(sessions).where(sql`id_hash in (
          select id_hash from sessions
          where actor = ${row.actor} and ${sameKey} and id_hash <> ${row.idHash}
          order by created_at desc, id_hash desc limit -1 offset ${max - 1})`),
    ]),
  );
}

/** C37: an Access session checked again: the next check, and its end (never past the token's). */
export async function recheckSession(
  db: Db,
  idHash: string,
  recheckAt: string,
  expiresAt: string,
): Promise<void> {
  await storage(() => db.update(sessions).set({ recheckAt, expiresAt }).where(eq(sessions.idHash, idHash)));
}

/** The session whose id hashes to `idHash`, if it has not expired at `now`. */
export async function findSession(db: Db, idHash: string, now: string): Promise<SessionRow | undefined> {
  const [row] = await storage(() =>
    db
      .select()
      .from(sessions)
      .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now))),
  );
  return row;
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await storage(() => db.delete(sessions).where(eq(sessions.idHash, idHash)));
}

/** Forgets the sessions expired before `now`; returns how many. */
export async function purgeSessions(db: Db, now: string): Promise<number> {
  const result = await storage(() => db.delete(sessions).where(lt(sessions.expiresAt, now)).run());
  return result.meta.changes;
}
