import type { D1Migration } from '@cloudflare/vitest-plugin';

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      TIGHT_KEY_RATE_LIMIT: RateLimit;
      TIGHT_ADDRESS_RATE_LIMIT: RateLimit;
      TIGHT_EVENT_RATE_LIMIT: RateLimit;
      TIGHT_AUTH_FAILURE_RATE_LIMIT: RateLimit;
      RESTRICTED_EMAIL: SendEmail;
    }
  }
}
