// C26: the outbox's second step, in the queue consumer (and the sweep): the delivery rows of the
// submissions marked in `submissions.outbox`, one per active target, written with the marker
// cleared in one D1 batch.
import { isNotNull } from 'drizzle-orm';
import { submissions } from '../../schema/tables.ts';
import { type Db, MAX_PARAMETERS, storage } from './db.ts';
import { waitingBefore } from './submissions.ts';

/** D1 binds at most 100 parameters per statement: the outbox is written 100 submissions at a time. */
export const OUTBOX_IDS_PER_STATEMENT = MAX_PARAMETERS;

/**
 * The delivery rows of marked submissions (C26): one per active target of the project when they
 * are written, normally within a second of the 201. (Not "the targets when it was received": that
 * would compare the worker's clock with the clock of the machine that added the target, and a
 * skewed laptop would silently lose deliveries.) `on conflict do nothing`: writing them twice (a
 * queue message given twice, the sweep beside the consumer) writes nothing the second time.
 */
function outboxInsertSql(count: number): string {
  const ids = Array.from({ length: count }, () => '?').join(', ');
  return `insert into deliveries (id, submission_id, target_id, project_id, status, attempts, next_attempt_at, created_at, updated_at)
select s.id || '.' || w.id, s.id, w.id, s.project_id, 'pending', 0, s.received_at, s.received_at, s.received_at
from submissions s join targets w on w.project_id = s.project_id and w.disabled_at is null
where s.outbox is not null and s.verdict is not null and s.id in (${ids})
  and not (w.kind = 'confirmation' and s.verdict = 'spam' and s.label is null)
on conflict do nothing
returning id`;
}

/**
 * Writes the delivery rows of these submissions and clears their outbox marker, in one D1 batch (a
 * transaction): the marker is cleared only with its rows written. C39: only once the spam filter
 * has judged a submission (held spam has no marker left by then), and never a confirmation to the
 * sender of one it judged spam, whatever the project's filter does with it. Returns the ids of the deliveries
 * written now (those written before are not returned again).
 */
export async function writeOutbox(db: Db, submissionIds: readonly string[]): Promise<string[]> {
  const d1 = db.$client;
  const written: string[] = [];
  for (let i = 0; i < submissionIds.length; i += OUTBOX_IDS_PER_STATEMENT) {
    const ids = submissionIds.slice(i, i + OUTBOX_IDS_PER_STATEMENT);
    const marks = ids.map(() => '?').join(', ');
    const [inserted] = await storage(() =>
      d1.batch<{ id: string }>([
        d1.prepare(outboxInsertSql(ids.length)).bind(...ids),
        d1
          .prepare(
            `update submissions set outbox = null where outbox is not null and verdict is not null and id in (${marks})`,
          )
          .bind(...ids),
      ]),
    );
    for (const row of inserted?.results ?? []) written.push(row.id);
  }
  return written;
}

/**
 * The sweep's share of the outbox (C26): the marked submissions received before `before`, whose
 * queue message never came or was never consumed, oldest first.
 */
export function markedBefore(db: Db, before: string, limit: number): Promise<string[]> {
  return waitingBefore(db, isNotNull(submissions.outbox), before, limit);
}
