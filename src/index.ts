// The worker: its fetch handler (the app of src/app.ts), its Cron Triggers and its queue consumer.
// Only the submission paths are evaluated when an isolate starts (docs/layout.md): the cron jobs
// and the consumer are loaded on their first run, in the isolate that runs them.
import { app } from './app.ts';
import type { JobMessage } from './delivery/outbox.ts';

export default {
  fetch: app.fetch,
  scheduled: async (controller: ScheduledController, env: Env) =>
    (await import('./cron.ts')).scheduled(controller, env),
  queue: async (batch: MessageBatch, env: Env, _ctx: ExecutionContext) =>
    (await import('./jobs/consumer.ts')).consumeJobs(batch as MessageBatch<JobMessage>, env),
} satisfies ExportedHandler<Env>;
