// C32: the dashboard's sessions. Only the SHA-256 of a session's id is stored, with who it is and
// what made it: a session ends when it expires, when it is ended, or when its credential does.
import { and, eq, gt, lt } from 'drizzle-orm';
import { sessions } from '../../schema/tables.ts';
import { type Db, storage } from './db.ts';

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(db: Db, row: SessionRow): Promise<void> {
  await storage(() => db.insert(sessions).values(row));
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
