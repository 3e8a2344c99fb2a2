// C30: the sweep of R2 (every minute, from the Cron Trigger): loaded with the cron jobs, never by a
// form post (docs/layout.md).
import type { Db } from '../store/db.ts';
import { clearFileDeletions, pendingFileDeletions } from '../store/files.ts';
import { deletePrefix } from './objects.ts';

const SWEEP_LIMIT = 100;

/**
 * C30: the sweep (every minute): the files of deleted submissions leave R2, and those of uploads
 * whose submission was never stored, an hour on (`now`: the sweep's time).
 */
export async function sweepFileDeletions(db: Db, bucket: R2Bucket | undefined, now: number): Promise<number> {
  if (bucket === undefined) return 0;
  const prefixes = await pendingFileDeletions(db, SWEEP_LIMIT, new Date(now).toISOString());
  const done: string[] = [];
  for (const prefix of prefixes) {
    try {
      await deletePrefix(bucket, prefix);
      done.push(prefix);
    } catch {
      // Left for the next sweep.
    }
  }
  await clearFileDeletions(db, done);
  return done.length;
}
