// C46: the drafts of a hosted page in steps. A save is one statement (an upsert by the token's
// hash, within its project), so a page's save costs one D1 round trip and a retry of it the same;
// opening one reads it by the same hash, within its project, while its days last. The rest (the
// owner's listing, the cron's expiry, erasure by value and retention) goes through Drizzle.
import type { D1Database } from '@cloudflare/workers-types';
import { and, desc, eq, lt, lte, sql } from 'drizzle-orm';
import { drafts } from '../../schema/tables.ts';
import { storage } from './d1.ts';
import type { Db } from './db.ts';

export type DraftSave = {
  id: string;
  projectId: string;
  tokenHash: string;
  data: string;
  step: number;
  now: string;
  expiresAt: string;
};

/**
 * Saves a draft: new, or the one of this token in this project made anew (its values, its step, its
 * days from now). A token whose hash another project's draft holds changes nothing: false.
 */
export async function saveDraft(d1: D1Database, d: DraftSave): Promise<boolean> {
  const result = await storage(() =>
    d1
      .prepare(
        `insert into "drafts" ("id", "project_id", "token_hash", "data", "step", "created_at", "updated_at", "expires_at")
         values (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)
         on conflict ("token_hash") do update set "data" = excluded."data", "step" = excluded."step",
           "updated_at" = excluded."updated_at", "expires_at" = excluded."expires_at"
         where "drafts"."project_id" = excluded."project_id"`,
      )
      .bind(d.id, d.projectId, d.tokenHash, d.data, d.step, d.now, d.expiresAt)
      .run(),
  );
  return (result.meta.changes ?? 0) > 0;
}

/** The draft of this token in this project while its days last; none otherwise. */
export async function openDraft(
  d1: D1Database,
  projectId: string,
  tokenHash: string,
  now: string,
): Promise<{ data: string; step: number; expiresAt: string } | undefined> {
  const row = await storage(() =>
    d1
      .prepare(
        `select "data", "step", "expires_at" from "drafts"
         where "token_hash" = ?1 and "project_id" = ?2 and "expires_at" > ?3`,
      )
      .bind(tokenHash, projectId, now)
      .first<{ data: string; step: number; expires_at: string }>(),
  );
  return row === null ? undefined : { data: row.data, step: row.step, expiresAt: row.expires_at };
}

export type DraftRow = {
  id: string;
  data: string;
  step: number;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
};

/** A project's drafts while their days last, newest first, a page at a time (before an update time). */
export function listDrafts(
  db: Db,
  projectId: string,
  now: string,
  limit: number,
  before?: string,
): Promise<DraftRow[]> {
  return storage(() =>
    db
      .select({
        id: drafts.id,
        data: drafts.data,
        step: drafts.step,
        createdAt: drafts.createdAt,
        updatedAt: drafts.updatedAt,
        expiresAt: drafts.expiresAt,
      })
      .from(drafts)
      .where(
        and(
          eq(drafts.projectId, projectId),
          sql`${drafts.expiresAt} > ${now}`,
          ...(before === undefined ? [] : [lt(drafts.updatedAt, before)]),
        ),
      )
      .orderBy(desc(drafts.updatedAt), desc(drafts.id))
      .limit(limit),
  );
}

/** The cron: every draft whose days ended. Returns how many. */
export async function deleteExpiredDrafts(db: Db, now: string): Promise<number> {
  const rows = await storage(() =>
    db.delete(drafts).where(lte(drafts.expiresAt, now)).returning({ id: drafts.id }),
  );
  return rows.length;
}

/** C25: retention: the project's drafts last saved before `before`. */
export async function deleteDraftsBefore(db: Db, projectId: string, before: string): Promise<number> {
  const rows = await storage(() =>
    db
      .delete(drafts)
      .where(and(eq(drafts.projectId, projectId), lt(drafts.updatedAt, before)))
      .returning({ id: drafts.id }),
  );
  return rows.length;
}
