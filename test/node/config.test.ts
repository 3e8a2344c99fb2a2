// wrangler.toml against the code that relies on it (C20, C21).

import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import { MAX_BODY_BYTES_LIMIT, parseConfig, RETRY_DELAYS } from '../../src/config.ts';
import { parseMailSettings } from '../../src/delivery/mail-settings.ts';
import { RATE_LIMIT_PERIOD_SECONDS } from '../../src/http/replies.ts';

const config = unstable_readConfig({ config: 'wrangler.toml' });

describe('wrangler.toml', () => {
  it('C21: the six rate limiters exist, and their period is what a 429 tells the client to wait', () => {
    const limiters = Object.fromEntries(
      config.ratelimits.map((r: { name: string; simple: { limit: number; period: number } }) => [
        r.name,
        r.simple,
      ]),
    );
    expect(Object.keys(limiters).sort()).toEqual([
      'ADDRESS_RATE_LIMIT',
      'AUTH_FAILURE_RATE_LIMIT',
      'DRAFT_RATE_LIMIT',
      'EVENT_RATE_LIMIT',
      'KEY_RATE_LIMIT',
      'TOKEN_RATE_LIMIT',
    ]);
    // C39: 50 people behind one address, each asking for a token and renewing it in one period.
    expect(limiters.TOKEN_RATE_LIMIT?.limit).toBeGreaterThanOrEqual(100);
    // C46: a draft saved after each step by 50 people behind one address.
    expect(limiters.DRAFT_RATE_LIMIT?.limit).toBeGreaterThanOrEqual(100);
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

describe('the settings (src/config.ts)', () => {
  it('every [vars] value of wrangler.toml passes the one schema, with no warning', () => {
    const warnings: string[] = [];
    const parsed = parseConfig(config.vars, (line) => warnings.push(line));
    expect(warnings).toEqual([]);
    expect(parsed).toEqual({
      MAX_BODY_BYTES: 65536,
      CONFIG_CACHE_SECONDS: 10,
      ALLOW_LOCAL_WEBHOOKS: false,
      WEBHOOK_RETRY_DELAYS: RETRY_DELAYS,
      MAX_UPLOAD_BYTES: 10_000_000,
      EMAIL_FROM: 'forms@example.com',
      LOST_WRITE_SECONDS: 30,
      ANALYTICS_FLUSH_MS: 2000,
      CONFIRMATIONS_PER_ADDRESS_PER_DAY: 1,
      CONFIRMATIONS_PER_PROJECT_PER_DAY: 200,
      PUBLIC_URL: undefined,
      INTEGRATIONS_API_BASE: undefined,
      HOSTED_PAGES: true,
    });
  });

  it('C44: HOSTED_PAGES is on unless "false" turns every hosted page off; anything else is one warning, and off', () => {
    const read = (value: unknown) => {
      const warnings: string[] = [];
      const { HOSTED_PAGES } = parseConfig({ HOSTED_PAGES: value }, (line) => warnings.push(line));
      return { on: HOSTED_PAGES, warnings: warnings.map((w) => JSON.parse(w) as Record<string, unknown>) };
    };
    expect(read(undefined)).toEqual({ on: true, warnings: [] });
    expect(read('')).toEqual({ on: true, warnings: [] });
    expect(read('true')).toEqual({ on: true, warnings: [] });
    expect(read(true)).toEqual({ on: true, warnings: [] });
    expect(read('false')).toEqual({ on: false, warnings: [] });
    expect(read(false)).toEqual({ on: false, warnings: [] });
    for (const typo of ['off', 'False', 'no', 0, 'yes']) {
      expect(read(typo)).toEqual({
        on: false,
        warnings: [
          {
            level: 'warn',
            event: 'setting-out-of-bounds',
            setting: 'HOSTED_PAGES',
            expected: '"true" or "false"',
            using: false,
          },
        ],
      });
    }
  });

  it('a value out of bounds is one warning line naming the setting and the fallback used; never the value', () => {
    const warnings: string[] = [];
    const parsed = parseConfig(
      {
        MAX_BODY_BYTES: 50 * 1024 * 1024,
        CONFIG_CACHE_SECONDS: 'soon',
        ALLOW_LOCAL_WEBHOOKS: 'yes',
        WEBHOOK_RETRY_DELAYS: '5,oops',
        MAX_UPLOAD_BYTES: 0,
        EMAIL_FROM: 'not an address hunter2',
        LOST_WRITE_SECONDS: 600,
        ANALYTICS_FLUSH_MS: 60_000,
        CONFIRMATIONS_PER_ADDRESS_PER_DAY: 500,
        CONFIRMATIONS_PER_PROJECT_PER_DAY: -1,
        PUBLIC_URL: 'ftp://forms.example/hunter2',
      },
      (line) => warnings.push(line),
    );
    expect(parsed).toEqual({
      MAX_BODY_BYTES: MAX_BODY_BYTES_LIMIT,
      CONFIG_CACHE_SECONDS: 10,
      ALLOW_LOCAL_WEBHOOKS: false,
      WEBHOOK_RETRY_DELAYS: RETRY_DELAYS,
      MAX_UPLOAD_BYTES: 10_000_000,
      EMAIL_FROM: undefined,
      LOST_WRITE_SECONDS: 30,
      ANALYTICS_FLUSH_MS: 2000,
      CONFIRMATIONS_PER_ADDRESS_PER_DAY: 10,
      CONFIRMATIONS_PER_PROJECT_PER_DAY: 200,
      PUBLIC_URL: undefined,
      INTEGRATIONS_API_BASE: undefined,
      HOSTED_PAGES: true,
    });
    const lines = warnings.map((w) => JSON.parse(w) as { setting: string; using: unknown; level: string });
    expect(lines.map((l) => [l.setting, l.using])).toEqual([
      ['MAX_BODY_BYTES', MAX_BODY_BYTES_LIMIT],
      ['CONFIG_CACHE_SECONDS', 10],
      ['ALLOW_LOCAL_WEBHOOKS', false],
      ['WEBHOOK_RETRY_DELAYS', RETRY_DELAYS],
      ['MAX_UPLOAD_BYTES', 10_000_000],
      ['EMAIL_FROM', null],
      ['LOST_WRITE_SECONDS', 30],
      ['ANALYTICS_FLUSH_MS', 2000],
      ['CONFIRMATIONS_PER_ADDRESS_PER_DAY', 10],
      ['CONFIRMATIONS_PER_PROJECT_PER_DAY', 200],
      ['PUBLIC_URL', null],
    ]);
    expect(lines.every((l) => l.level === 'warn')).toBe(true);
    expect(warnings.join('\n')).not.toContain('hunter2');
  });
});

describe('C47: the mail settings (src/delivery/mail-settings.ts), parsed as every setting is', () => {
  const read = (raw: Record<string, unknown>) => {
    const warnings: string[] = [];
    const settings = parseMailSettings(raw, (line) => warnings.push(line));
    return { settings, warnings: warnings.map((w) => JSON.parse(w) as Record<string, unknown>) };
  };

  it("wrangler.toml's [vars] choose Cloudflare's send_email, with no warning", () => {
    expect(read(config.vars)).toEqual({
      settings: {
        EMAIL_PROVIDER: 'cloudflare',
        EMAIL_API_BASE: undefined,
        EMAIL_REGION: undefined,
        EMAIL_API_KEY: undefined,
        EMAIL_API_SECRET: undefined,
      },
      warnings: [],
    });
  });

  it('a provider with its key (SES: its secret and region) is one with no warning; a name in capitals is the same', () => {
    expect(read({ EMAIL_PROVIDER: 'Resend', EMAIL_API_KEY: 're_123456789' })).toMatchObject({
      settings: { EMAIL_PROVIDER: 'resend', EMAIL_API_KEY: 're_123456789' },
      warnings: [],
    });
    expect(
      read({
        EMAIL_PROVIDER: 'ses',
        EMAIL_API_KEY: 'AKIA0000',
        EMAIL_API_SECRET: 's3cr3t',
        EMAIL_REGION: 'eu-west-1',
        EMAIL_API_BASE: 'https://email.eu-west-1.amazonaws.com/ignored/path',
      }),
    ).toMatchObject({
      settings: {
        EMAIL_PROVIDER: 'ses',
        EMAIL_REGION: 'eu-west-1',
        EMAIL_API_BASE: 'https://email.eu-west-1.amazonaws.com',
      },
      warnings: [],
    });
  });

  it('an unknown provider is one warning, and Cloudflare; a provider without its key is one warning per missing setting; never a value', () => {
    expect(read({ EMAIL_PROVIDER: 'sendgrid', EMAIL_API_KEY: 'hunter2hunter2' }).warnings).toEqual([
      {
        level: 'warn',
        event: 'setting-out-of-bounds',
        setting: 'EMAIL_PROVIDER',
        expected: '"cloudflare", "resend", "postmark", "mailgun" or "ses"',
        using: 'cloudflare',
      },
    ]);
    expect(read({ EMAIL_PROVIDER: 'postmark', EMAIL_API_KEY: '  ' }).warnings).toEqual([
      expect.objectContaining({ event: 'setting-out-of-bounds', setting: 'EMAIL_API_KEY', using: null }),
      {
        level: 'warn',
        event: 'setting-missing',
        setting: 'EMAIL_API_KEY',
        expected: 'set for EMAIL_PROVIDER "postmark": its mail is not sent without it (docs/delivery.md)',
        using: null,
      },
    ]);
    const ses = read({
      EMAIL_PROVIDER: 'ses',
      EMAIL_API_KEY: 'AKIAhunter2',
      EMAIL_REGION: 'Frankfurt hunter2',
    });
    expect(ses.warnings.map((w) => [w.event, w.setting])).toEqual([
      ['setting-out-of-bounds', 'EMAIL_REGION'],
      ['setting-missing', 'EMAIL_API_SECRET'],
      ['setting-missing', 'EMAIL_REGION'],
    ]);
    expect(JSON.stringify(ses.warnings)).not.toContain('hunter2');
  });
});
