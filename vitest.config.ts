import { randomBytes } from 'node:crypto';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// The one binding that refuses on purpose (RESTRICTED_EMAIL, below) throws inside Miniflare's own
// email service, which workerd reports on its log as an uncaught exception with its stack, although
// the worker catches the refusal and records it (test/email.test.ts checks that it does). That
// report alone is left out of the run's output: a passing run prints no stack trace.
const REFUSED_EMAIL_REPORT =
  /uncaught exception; source = Uncaught \(in promise\); stack = Error: email to \S+ not allowed\r?\n(?:\s+at .*\r?\n?)*/g;
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (!text.includes('email to ')) return write(chunk, ...rest);
    return write(text.replace(REFUSED_EMAIL_REPORT, ''), ...rest);
  }) as typeof stream.write;
}

export default defineConfig(async () => {
  // STYLE 8: the real drizzle-kit migrations, applied by test/apply-migrations.ts.
  const migrations = await readD1Migrations(new URL('./schema/migrations', import.meta.url).pathname);
  return {
    test: {
      // Two files at a time: the tool's tests mostly wait on the processes they start (a dev server,
      // a deploy's stand-in), so on two cores one file at a time leaves a core idle for most of a run.
      maxWorkers: 2,
      projects: [
        {
          // The worker, inside workerd, against a real local D1.
          plugins: [
            cloudflareTest({
              wrangler: { configPath: './wrangler.toml' },
              miniflare: {
                // C32: an operator token made for this run, and a Cloudflare Access team whose keys
                // the tests serve themselves (test/manage/auth.test.ts).
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  ADMIN_TOKEN: randomBytes(32).toString('base64url'),
                  ACCESS_TEAM_DOMAIN: 'forms-test.cloudflareaccess.com',
                  ACCESS_AUD: 'aud-forms-test',
                  // C40: analytics' batches written soon after their events, so that tests wait little.
                  ANALYTICS_FLUSH_MS: '50',
                },
                // C26: the tests run the queue consumer themselves (createMessageBatch), so the
                // producers point at queues nobody consumes: no delivery runs behind a test's back.
                queueProducers: {
                  DELIVERIES: 'test-deliveries-unconsumed',
                  DELIVERIES_DLQ: 'test-deliveries-dlq-unconsumed',
                },
                queueConsumers: {},
                // C27: the binding of wrangler.toml, and one that refuses every address but one,
                // so that a refused email is tested with a real binding.
                email: {
                  send_email: [
                    { name: 'EMAIL' },
                    { name: 'RESTRICTED_EMAIL', allowed_destination_addresses: ['only@example.com'] },
                  ],
                },
                // C21: the suite sends thousands of requests with a few keys, so the limiters of
                // wrangler.toml are widened here; test/rate-limit.test.ts swaps in the tight ones.
                ratelimits: {
                  KEY_RATE_LIMIT: { namespace_id: '1001', simple: { limit: 1_000_000, period: 10 } },
                  ADDRESS_RATE_LIMIT: { namespace_id: '1002', simple: { limit: 1_000_000, period: 10 } },
                  AUTH_FAILURE_RATE_LIMIT: { namespace_id: '1003', simple: { limit: 1_000_000, period: 10 } },
                  EVENT_RATE_LIMIT: { namespace_id: '1004', simple: { limit: 1_000_000, period: 10 } },
                  // C39: as wrangler.toml sizes it (test/widget-token-limits.test.ts sends 50 from one address).
                  TOKEN_RATE_LIMIT: { namespace_id: '1005', simple: { limit: 100, period: 10 } },
                  DRAFT_RATE_LIMIT: { namespace_id: '1006', simple: { limit: 100, period: 10 } },
                  TIGHT_KEY_RATE_LIMIT: { namespace_id: '9001', simple: { limit: 3, period: 60 } },
                  TIGHT_ADDRESS_RATE_LIMIT: { namespace_id: '9002', simple: { limit: 2, period: 60 } },
                  TIGHT_AUTH_FAILURE_RATE_LIMIT: { namespace_id: '9003', simple: { limit: 2, period: 60 } },
                  TIGHT_EVENT_RATE_LIMIT: { namespace_id: '9004', simple: { limit: 3, period: 60 } },
                },
              },
            }),
          ],
          test: {
            name: 'worker',
            // A property test sends a hundred cases through the worker and D1; beside `npm run dev`
            // and a browser on two cores one took 5.6 s, over vitest's 5 s. Every test's budget is
            // set here, once, to what the slowest needs on a busy machine: never a flake.
            testTimeout: 30_000,
            hookTimeout: 60_000,
            include: ['test/**/*.test.ts'],
            exclude: ['test/cli/**', 'test/e2e/**', 'test/node/**'],
            setupFiles: ['./test/apply-migrations.ts'],
          },
        },
        {
          // The command-line tools, in Node, against temporary local databases.
          test: {
            name: 'node',
            include: ['test/cli/**/*.test.ts', 'test/node/**/*.test.ts'],
            environment: 'node',
            testTimeout: 60_000,
            hookTimeout: 120_000,
          },
        },
      ],
    },
  };
});
