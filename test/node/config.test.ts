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

  it('C20: a Cron Trigger runs the purge of Idempotency-Keys at least hourly', () => {
    expect(config.triggers.crons).toEqual(['7 * * * *']);
  });
});
