// The Cron Triggers (C20, C25, C26, C30, C32, C35): loaded on their first run, never by a form post.
import { IDEMPOTENCY_WINDOW_MS } from './accept/idempotency.ts';
import { sweepFileDeletions } from './files/sweep.ts';
import { sweepDeliveries } from './jobs/sweep.ts';
import { causeText } from './lib/faults.ts';
import { rollUp } from './store/analytics.ts';
import { database } from './store/db.ts';
import { deleteDraftsBefore, deleteExpiredDrafts } from './store/drafts.ts';
import { purgeMailCounts } from './store/mail-counts.ts';
import { type Place, places } from './store/places.ts';
import { projectsWithRetention } from './store/projects.ts';
import { purgeSessions } from './store/sessions.ts';
import { MAX_STATS_DAYS } from './store/stats.ts';
import { deleteReceivedBefore, purgeIdempotencyKeys } from './store/submissions.ts';

/** Chunks of deletions one run may make per project (C25): the next hourly run goes on. */
const RETENTION_CHUNKS_PER_RUN = 20;

/** C26: the Cron Trigger that runs every minute sweeps the outbox; the others are hourly. */
const SWEEP_CRON = '* * * * *';

/**
 * The Cron Triggers. Every minute (C26): deliveries whose queue message never came go to the
 * queue again; C30, the files of deleted submissions are deleted from R2. Hourly: C20, Idempotency-Keys older than 24 hours are forgotten; C32, ended sessions; C40, the
 * analytics of days gone rolled up (their visitors' hashes and salt deleted); C25, each project
 * with a retention period loses its submissions older than that, in bounded chunks; C46, drafts
 * whose days ended, and a retained project's drafts older than its period.
 */
export async function scheduled(controller: ScheduledController, env: Env): Promise<void> {
  if (controller.cron === SWEEP_CRON) {
    const sent = await sweepDeliveries(env, controller.scheduledTime);
    if (sent > 0) console.log(JSON.stringify({ level: 'info', job: 'sweep-deliveries', sent }));
    // C30: the files of submissions deleted since (by any path: the trigger queued them) leave R2;
    // C41: each place's from its own bucket.
    for (const place of places(env)) {
      await eachPlace('sweep-files', place, async () => {
        const removed = await sweepFileDeletions(database(place.d1), place.files, controller.scheduledTime);
        if (removed > 0)
          console.log(JSON.stringify({ level: 'info', job: 'sweep-files', place: place.name, removed }));
      });
    }
    return;
  }
  // C41: every place's hourly jobs, one place after the other.
  for (const place of places(env)) await eachPlace('hourly', place, () => hourly(controller, place));
}

/** C31, C41: one place's failure is logged, and the other places' jobs run. */
async function eachPlace(job: string, place: Place, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', job, place: place.name, cause: causeText(error, 500) }));
  }
}

async function hourly(controller: ScheduledController, place: Place): Promise<void> {
  const db = database(place.d1);
  const before = new Date(controller.scheduledTime - IDEMPOTENCY_WINDOW_MS).toISOString();
  const purged = await purgeIdempotencyKeys(db, before);
  console.log(
    JSON.stringify({ level: 'info', job: 'purge-idempotency-keys', place: place.name, before, purged }),
  );
  // C35, C37: the caps' counts of days gone (each mailbox's hash with them); the owner's count of
  // capped confirmations is kept as long as the stats reach back.
  const today = new Date(controller.scheduledTime).toISOString().slice(0, 10);
  const statsFrom = new Date(controller.scheduledTime - MAX_STATS_DAYS * 86_400_000)
    .toISOString()
    .slice(0, 10);
  await purgeMailCounts(db, today, statsFrom);
  // C40: form analytics of days gone are rolled up, and their visitors' hashes and salt deleted.
  const rolled = await rollUp(db, today);
  if (rolled > 0)
    console.log(
      JSON.stringify({ level: 'info', job: 'analytics-roll-up', place: place.name, visitors: rolled }),
    );
  // C32: sessions past their end are forgotten (they were refused already).
  const ended = await purgeSessions(db, new Date(controller.scheduledTime).toISOString());
  if (ended > 0)
    console.log(JSON.stringify({ level: 'info', job: 'purge-sessions', place: place.name, ended }));
  // C46: drafts whose days ended.
  const expired = await deleteExpiredDrafts(db, new Date(controller.scheduledTime).toISOString());
  if (expired > 0)
    console.log(JSON.stringify({ level: 'info', job: 'expire-drafts', place: place.name, expired }));
  for (const project of await projectsWithRetention(db)) {
    const cutoff = new Date(controller.scheduledTime - project.retentionDays * 86_400_000).toISOString();
    // C31: one project's failure is logged and the others go on; its rows wait for the next run.
    try {
      // C46: a draft is kept no longer than a submission would be.
      await deleteDraftsBefore(db, project.id, cutoff);
      const deleted = await deleteReceivedBefore(db, project.id, cutoff, RETENTION_CHUNKS_PER_RUN);
      console.log(
        JSON.stringify({ level: 'info', job: 'retention', projectId: project.id, before: cutoff, deleted }),
      );
    } catch (error) {
      console.error(
        JSON.stringify({
          level: 'error',
          job: 'retention',
          projectId: project.id,
          cause: causeText(error, 500),
        }),
      );
    }
  }
}
