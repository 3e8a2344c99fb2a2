// C30: the R2 prefixes whose files are to be deleted. A trigger (schema/migrations) writes one in
// the same D1 write that deletes a submission with files; the worker's sweep empties them.
import { inArray } from 'drizzle-orm';
import { fileDeletions } from '../../schema/tables.ts';
import { type Db, storage } from './db.ts';

export function pendingFileDeletions(db: Db, limit: number): Promise<string[]> {
  return storage(async () =>
    (await db.select({ prefix: fileDeletions.prefix }).from(fileDeletions).limit(limit)).map((r) => r.prefix),
  );
}

export async function clearFileDeletions(db: Db, prefixes: readonly string[]): Promise<void> {
  if (prefixes.length === 0) return;
  await storage(() => db.delete(fileDeletions).where(inArray(fileDeletions.prefix, [...prefixes])));
}
