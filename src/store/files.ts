// C30: the R2 prefixes whose files are to be deleted. A trigger (schema/migrations) writes one in
// the same D1 write that deletes a submission with files; the worker's sweep empties them. An
// upload is written here before its files are put, due an hour later: the insert of its
// submission removes it (another trigger), so only the files of a submission never stored remain
// due (intake.ts writes that row, on the submission path).
import { inArray, isNull, lte, or } from 'drizzle-orm';
import { fileDeletions } from '../../schema/tables.ts';
import { type Db, storage } from './db.ts';

/** The prefixes due for deletion at `now` (an ISO time). */
export function pendingFileDeletions(db: Db, limit: number, now: string): Promise<string[]> {
  return storage(async () =>
    (
      await db
        .select({ prefix: fileDeletions.prefix })
        .from(fileDeletions)
        .where(or(isNull(fileDeletions.notBefore), lte(fileDeletions.notBefore, now)))
        .limit(limit)
    ).map((r) => r.prefix),
  );
}

export async function clearFileDeletions(db: Db, prefixes: readonly string[]): Promise<void> {
  if (prefixes.length === 0) return;
  await storage(() => db.delete(fileDeletions).where(inArray(fileDeletions.prefix, [...prefixes])));
}
