// wrangler.toml against the code that relies on it (C20, C21).

import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import { RATE_LIMIT_PERIOD_SECONDS } from '../../src/http/replies.ts';

const config = unstable_readConfig({ config: 'wrangler.toml' });

describe('wrangler.toml', () => {
  it('C21: the three rate limiters exist, and their period is what a 429 tells the client to wait', () => {
    const limiters = Object.fromEntries(
      config.ratelimits.map((r: { name: string; simple: { limit: number; period: number } }) => [
        r.name,
        r.simple,
      ]),
    );
    expect(Object.keys(limiters).sort()).toEqual([
      'ADDRESS_RATE_LIMIT',
      'AUTH_FAILURE_RATE_LIMIT',
      'KEY_RATE_LIMIT',
    ]);
    for (const simple of Object.values(limiters)) {
      expect(simple.period).toBe(RATE_LIMIT_PERIOD_SECONDS);
      expect(simple.limit).toBeGreaterThan(0);
    }
  });

  it('C20 + C26: Cron Triggers run the hourly jobs and the minutely sweep of the outbox', () => {
    expect(config.triggers.crons).toEqual(['7 * * * *', '* * * * *']);
  });

  it('C26: the delivery queue is produced and consumed by this worker, with a dead-letter queue', () => {
    expect(
      config.queues.producers?.map((p: { binding: string; queue: string }) => [p.binding, p.queue]),
    ).toEqual([
      ['DELIVERIES', 'edge-forms-deliveries'],
      ['DELIVERIES_DLQ', 'edge-forms-deliveries-dlq'],
    ]);
    expect(config.queues.consumers).toEqual([
      expect.objectContaining({
        queue: 'edge-forms-deliveries',
        dead_letter_queue: 'edge-forms-deliveries-dlq',
        max_retries: 100,
      }),
    ]);
    // A deployed worker delivers over https only.
    expect(config.vars.ALLOW_LOCAL_WEBHOOKS).toBe('false');
  });
});
