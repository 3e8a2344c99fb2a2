// The Drizzle handle on a D1 binding, for every statement but the submission path's (intake.ts).
import type { D1Database } from '@cloudflare/workers-types';
import { type DrizzleD1Database, drizzle } from 'drizzle-orm/d1';
import { type FenceOptions, fenced } from './fence.ts';
import { places } from './places.ts';

export { MAX_PARAMETERS, storage } from './d1.ts';

export type Db = DrizzleD1Database & { $client: D1Database };

const databases = new WeakMap<D1Database, Db>();

/** C41: every place's handle, by the place's name (the default's first). */
export const placeDatabases = (env: object): Map<string, Db> =>
  new Map(places(env).map((p) => [p.name, database(p.d1)]));

/** One Drizzle instance per binding: building the relational config on every request is waste. */
export function database(d1: D1Database): Db {
  let db = databases.get(d1);
  if (db === undefined) {
    db = drizzle(d1);
    databases.set(d1, db);
  }
  return db;
}

/**
 * C24: a handle on a D1 session (`withSession`), so that reads may be served by the nearest read
 * replica once replication is on. `bookmark` is what a client sent back from an earlier reply
 * (reads then see at least that write), else `first-unconstrained` (any replica), or
 * `first-primary` for a request that writes. `bookmark()` is the session's latest, for the reply.
 * C41: its statements are held to the fence of the request's project.
 */
export function sessionDatabase(
  d1: D1Database,
  start: string,
  fence: FenceOptions,
): { db: Db; bookmark: () => string | null } {
  const session = d1.withSession(start);
  // A session has the binding's prepare() and batch(), which is all Drizzle's D1 driver uses.
  const db = drizzle(fenced(session, fence)) as Db;
  return { db, bookmark: () => session.getBookmark() };
}

/** C41: a handle whose statements are held to the fence of one project (src/store/fence.ts). */
export const fencedDatabase = (d1: D1Database, fence: FenceOptions): Db => drizzle(fenced(d1, fence)) as Db;
