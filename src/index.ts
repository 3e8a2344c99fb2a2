// The whole service on one screen: middleware in the order of C5 (docs/behaviour.md), the routes, the errors.
import { HonoBase as Hono } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import { IDEMPOTENCY_WINDOW_MS } from './accept/idempotency.ts';
import type { AppEnv } from './auth/authenticate.ts';
import { consumeDeliveries, type DeliveryMessage, sweepDeliveries } from './delivery/queue.ts';
import { sweepFileDeletions } from './files/r2.ts';
import { FORM_PREFIX, formRoutes } from './form/routes.ts';
import { preflight } from './http/cors.ts';
import { ApiError } from './http/envelope.ts';
import { internalError, notFound, SUBMIT_PATH, unavailable } from './http/replies.ts';
import { clientRequestIdOf, requestIdOf } from './http/request-id.ts';
import { send } from './http/send.ts';
import { causeText, UnavailableError } from './lib/faults.ts';
import { readRoutes } from './read/routes.ts';
import { database } from './store/db.ts';
import { projectsWithRetention } from './store/projects.ts';
import { deleteReceivedBefore, purgeIdempotencyKeys } from './store/submissions.ts';
import { submitRoutes } from './submit/routes.ts';

// The trie router alone: exact paths (no trailing-slash leniency, C16) at a third of the default's size.
const app = new Hono<AppEnv>({ router: new TrieRouter() });

app.use(preflight(SUBMIT_PATH, FORM_PREFIX));

// C5: the JSON endpoint, through the acceptance pipeline (src/accept/pipeline.ts) both endpoints run.
submitRoutes(app);

// C24: the read API (secret keys only, no CORS).
readRoutes(app);

// C29: plain HTML forms, at each project's form address.
formRoutes(app);

// C16: every other path is 404.
app.notFound((c) => send(c, notFound().toEnvelope()));

// C3, C4, C18: errors are shaped once, here. Unknown faults are logged with the request id only:
// never the key, the body, or anything the reply would leak.
app.onError((err, c) => {
  if (err instanceof ApiError) return send(c, err.toEnvelope(), err.headers);
  const requestId = requestIdOf(c);
  console.error(
    JSON.stringify({
      level: 'error',
      requestId,
      clientRequestId: clientRequestIdOf(c),
      method: c.req.method,
      path: c.req.path,
      error: err.name,
      cause: causeText(err, 500),
    }),
  );
  const reply = err instanceof UnavailableError ? unavailable() : internalError(requestId);
  return send(c, reply.toEnvelope(), reply.headers);
});

/** Chunks of deletions one run may make per project (C25): the next hourly run goes on. */
const RETENTION_CHUNKS_PER_RUN = 20;

/** C26: the Cron Trigger that runs every minute sweeps the outbox; the others are hourly. */
const SWEEP_CRON = '* * * * *';

/**
 * The Cron Triggers. Every minute (C26): deliveries whose queue message never came go to the
 * queue again; C30, the files of deleted submissions are deleted from R2. Hourly: C20, Idempotency-Keys older than 24 hours are forgotten; C25, each project
 * with a retention period loses its submissions older than that, in bounded chunks.
 */
export async function scheduled(controller: ScheduledController, env: Env): Promise<void> {
  if (controller.cron === SWEEP_CRON) {
    const sent = await sweepDeliveries(env, controller.scheduledTime);
    if (sent > 0) console.log(JSON.stringify({ level: 'info', job: 'sweep-deliveries', sent }));
    // C30: the files of submissions deleted since (by any path: the trigger queued them) leave R2.
    const removed = await sweepFileDeletions(database(env.DB), env.FILES, controller.scheduledTime);
    if (removed > 0) console.log(JSON.stringify({ level: 'info', job: 'sweep-files', removed }));
    return;
  }
  const db = database(env.DB);
  const before = new Date(controller.scheduledTime - IDEMPOTENCY_WINDOW_MS).toISOString();
  const purged = await purgeIdempotencyKeys(db, before);
  console.log(JSON.stringify({ level: 'info', job: 'purge-idempotency-keys', before, purged }));
  for (const project of await projectsWithRetention(db)) {
    const cutoff = new Date(controller.scheduledTime - project.retentionDays * 86_400_000).toISOString();
    // C31: one project's failure is logged and the others go on; its rows wait for the next run.
    try {
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

export default {
  fetch: app.fetch,
  scheduled,
  queue: (batch: MessageBatch, env: Env, _ctx: ExecutionContext) =>
    consumeDeliveries(batch as MessageBatch<DeliveryMessage>, env),
} satisfies ExportedHandler<Env>;
