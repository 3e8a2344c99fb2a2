// C21: rate limits with the Workers Rate Limiting binding (the tight limiters of vitest.config.ts:
// 3 requests per key, 2 per address, 2 failed authentications per address, per 60 s window).
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StatusCode } from '../src/http/envelope.ts';
import { createKey } from '../src/ops/keys.ts';
import { spyD1 } from './d1-spy.ts';
import {
  asTool,
  expectEnvelope,
  ONE_WINDOW,
  type SubmitOptions,
  seedProject,
  storedRows,
  submitWithEnv,
  VALID_BODY,
  withinOneWindow,
} from './helpers.ts';

const tight = {
  ...env,
  KEY_RATE_LIMIT: env.TIGHT_KEY_RATE_LIMIT,
  ADDRESS_RATE_LIMIT: env.TIGHT_ADDRESS_RATE_LIMIT,
  AUTH_FAILURE_RATE_LIMIT: env.TIGHT_AUTH_FAILURE_RATE_LIMIT,
};

const TOO_MANY = {
  message: 'Too many requests',
  error: { message: 'Rate limit exceeded: retry after 10 seconds' },
};

describe('C21: rate limits', () => {
  beforeEach(() => withinOneWindow(), ONE_WINDOW.timeout);

  it('C21: per API key: over the limit is 429 with Retry-After in seconds, and nothing is stored', async () => {
    const p = await seedProject();
    for (let i = 0; i < 3; i++)
      await expectEnvelope(await submitWithEnv(tight, { key: p.apiKey, json: VALID_BODY }), 201);
    const res = await submitWithEnv(tight, { key: p.apiKey, json: VALID_BODY });
    await expectEnvelope(res, 429, TOO_MANY);
    expect(res.headers.get('Retry-After')).toBe('10');
    expect(await storedRows(p.projectId)).toHaveLength(3);
  });

  it('C21: each key has its own budget, even within one project', async () => {
    const p = await seedProject();
    const second = await createKey(asTool(), p.projectId, 'publishable');
    for (let i = 0; i < 3; i++) await submitWithEnv(tight, { key: p.apiKey, json: VALID_BODY });
    await expectEnvelope(await submitWithEnv(tight, { key: p.apiKey, json: VALID_BODY }), 429);
    await expectEnvelope(await submitWithEnv(tight, { key: second, json: VALID_BODY }), 201);
  });

  it('C5 + C21: the per-address check runs right after authentication: before the origin, fields and body checks', async () => {
    const p = await seedProject({ origins: ['https://allowed.example'] });
    const from = { 'CF-Connecting-IP': '203.0.113.30' };
    for (let i = 0; i < 2; i++)
      await submitWithEnv(tight, { key: p.apiKey, json: VALID_BODY, headers: from });
    // Refused origin, wrong media type, invalid body: the address's limit answers first.
    const res = await submitWithEnv(tight, {
      key: p.apiKey,
      contentType: 'text/plain',
      body: 'not json',
      headers: { ...from, Origin: 'https://evil.example' },
    });
    await expectEnvelope(res, 429, TOO_MANY);
  });

  it('C21: requests refused for their own sake never spend the budget every visitor shares', async () => {
    const p = await seedProject({ origins: ['https://allowed.example'] });
    // More refused requests than the key's whole budget (3), each from an address of its own: a
    // wrong media type, an oversized or broken body, a refused origin, invalid fields.
    const refused: [SubmitOptions, StatusCode][] = [
      [{ contentType: 'text/plain', body: 'x' }, 415],
      [{ body: '{"name": "x", ' }, 400],
      [{ body: JSON.stringify({ message: 'x'.repeat(70_000) }) }, 413],
      [{ json: VALID_BODY, headers: { Origin: 'https://evil.example' } }, 403],
      [{ json: { phone: 'not a number' } }, 400],
      [{ json: {} }, 400],
    ];
    for (const [i, [options, status]] of refused.entries()) {
      const headers = { ...options.headers, 'CF-Connecting-IP': `198.51.100.${100 + i}` };
      await expectEnvelope(await submitWithEnv(tight, { key: p.apiKey, ...options, headers }), status);
    }
    // A visitor from a fresh address is served: the key's budget is whole.
    for (let i = 0; i < 3; i++) {
      const visitor = { 'CF-Connecting-IP': `198.51.100.${200 + i}` };
      await expectEnvelope(
        await submitWithEnv(tight, { key: p.apiKey, json: VALID_BODY, headers: visitor }),
        201,
      );
    }
    // The shared budget still bounds the valid submissions.
    const fourth = { 'CF-Connecting-IP': '198.51.100.210' };
    await expectEnvelope(
      await submitWithEnv(tight, { key: p.apiKey, json: VALID_BODY, headers: fourth }),
      429,
    );
  });

  it('C21: one IPv6 /64 is one client for the per-address limit; another /64 is another', async () => {
    const p = await seedProject();
    const second = await createKey(asTool(), p.projectId, 'publishable');
    const at = (address: string, key = p.apiKey) =>
      submitWithEnv(tight, { key, json: VALID_BODY, headers: { 'CF-Connecting-IP': address } });
    await expectEnvelope(await at('2001:db8:1:2::1'), 201);
    await expectEnvelope(await at('2001:db8:1:2:ffff:ffff:ffff:fffe'), 201);
    await expectEnvelope(await at('2001:0db8:0001:0002:abcd::9', second), 429, TOO_MANY);
    await expectEnvelope(await at('2001:db8:1:3::1', second), 201);
  });

  it('C5 + C21: a bad key is 401: authentication comes before the limit', async () => {
    const res = await submitWithEnv(tight, {
      key: 'edgeform_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      json: VALID_BODY,
    });
    await expectEnvelope(res, 401);
  });

  it('C21: per client address for browser requests (with Origin), across the keys of a project', async () => {
    const p = await seedProject();
    const second = await createKey(asTool(), p.projectId, 'publishable');
    const browser = { Origin: 'https://site.example', 'CF-Connecting-IP': '203.0.113.7' };
    await expectEnvelope(
      await submitWithEnv(tight, { key: p.apiKey, json: VALID_BODY, headers: browser }),
      201,
    );
    await expectEnvelope(
      await submitWithEnv(tight, { key: second, json: VALID_BODY, headers: browser }),
      201,
    );
    const third = await submitWithEnv(tight, { key: second, json: VALID_BODY, headers: browser });
    await expectEnvelope(third, 429, TOO_MANY);
    expect(third.headers.get('Retry-After')).toBe('10');
    // The 429 is readable by the page (C14).
    expect(third.headers.get('Access-Control-Allow-Origin')).toBe('https://site.example');
    // Another address has its own budget.
    const other = { ...browser, 'CF-Connecting-IP': '198.51.100.9' };
    await expectEnvelope(await submitWithEnv(tight, { key: second, json: VALID_BODY, headers: other }), 201);
  });

  it('C21: requests without Origin are limited per address too (a key in a page is public)', async () => {
    const p = await seedProject();
    const script = { 'CF-Connecting-IP': '203.0.113.8' };
    for (let i = 0; i < 2; i++) {
      await expectEnvelope(
        await submitWithEnv(tight, { key: p.apiKey, json: VALID_BODY, headers: script }),
        201,
      );
    }
    await expectEnvelope(
      await submitWithEnv(tight, { key: p.apiKey, json: VALID_BODY, headers: script }),
      429,
      TOO_MANY,
    );
    // A visitor at another address still gets through: the script used up its own budget only.
    // (With the project's other key: this one has spent its per-key budget of 3.)
    const second = await createKey(asTool(), p.projectId, 'publishable');
    const visitor = { Origin: 'https://site.example', 'CF-Connecting-IP': '198.51.100.20' };
    await expectEnvelope(
      await submitWithEnv(tight, { key: second, json: VALID_BODY, headers: visitor }),
      201,
    );
  });

  it('C21: the check costs no D1 query', async () => {
    const p = await seedProject();
    const spy = spyD1(env.DB);
    const testEnv = { ...tight, DB: spy.db };
    for (let i = 0; i < 3; i++) await submitWithEnv(testEnv, { key: p.apiKey, json: VALID_BODY });
    spy.trips.length = 0;
    await expectEnvelope(await submitWithEnv(testEnv, { key: p.apiKey, json: VALID_BODY }), 429);
    expect(spy.trips).toEqual([]);
  });

  it('C21: failed authentications are limited per address; past the limit, unknown keys cost no D1 query', async () => {
    const p = await seedProject();
    const spy = spyD1(env.DB);
    const spied = { ...tight, DB: spy.db };
    const attacker = { 'CF-Connecting-IP': '192.0.2.66' };
    // The valid key is cached first, from this same address.
    await expectEnvelope(
      await submitWithEnv(spied, {
        key: p.apiKey,
        json: VALID_BODY,
        headers: { 'CF-Connecting-IP': '192.0.2.67' },
      }),
      201,
    );
    const randomKey = () => `edgeform_${crypto.randomUUID().replaceAll('-', '')}`;
    for (let i = 0; i < 2; i++) {
      await expectEnvelope(
        await submitWithEnv(spied, { key: randomKey(), json: VALID_BODY, headers: attacker }),
        401,
      );
    }
    await expectEnvelope(
      await submitWithEnv(spied, { key: randomKey(), json: VALID_BODY, headers: attacker }),
      429,
      TOO_MANY,
    );
    // Refused now: a flood of fresh random keys costs no D1 read at all.
    const before = spy.trips.length;
    for (let i = 0; i < 20; i++) {
      await expectEnvelope(
        await submitWithEnv(spied, { key: randomKey(), json: VALID_BODY, headers: attacker }),
        429,
      );
    }
    await expectEnvelope(
      await submitWithEnv(spied, { authorization: 'Basic x', json: VALID_BODY, headers: attacker }),
      429,
    );
    expect(spy.trips.length).toBe(before);
    // Another address is not affected, and gets its 401 from D1.
    await expectEnvelope(
      await submitWithEnv(spied, {
        key: randomKey(),
        json: VALID_BODY,
        headers: { 'CF-Connecting-IP': '192.0.2.99' },
      }),
      401,
    );
    expect(spy.trips.length).toBe(before + 1);
  });

  it('C21: a failing Rate Limiting binding lets requests through (fail open) and is logged, without the key', async () => {
    const p = await seedProject();
    const warnings: string[] = [];
    const spyWarn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      warnings.push(args.map(String).join(' '));
    });
    const broken = {
      limit: () => Promise.reject(new Error('rate limiter unreachable')),
    } as unknown as RateLimit;
    const failing = { ...env, KEY_RATE_LIMIT: broken, ADDRESS_RATE_LIMIT: broken };
    const res = await submitWithEnv(failing, {
      key: p.apiKey,
      json: VALID_BODY,
      headers: { 'CF-Connecting-IP': '192.0.2.70' },
    });
    await expectEnvelope(res, 201);
    expect(await storedRows(p.projectId)).toHaveLength(1);
    expect(warnings).toHaveLength(2);
    for (const line of warnings) {
      expect(JSON.parse(line)).toMatchObject({ level: 'warn', event: 'rate-limit-unavailable' });
      expect(line).not.toContain(p.apiKey);
    }
    spyWarn.mockRestore();
  });

  it('C21: loopback addresses (only `wrangler dev` sees them) are not limited per address', async () => {
    const p = await seedProject();
    const second = await createKey(asTool(), p.projectId, 'publishable');
    for (const address of ['127.0.0.1', '::1']) {
      for (let i = 0; i < 3; i++) {
        const key = i % 2 === 0 ? p.apiKey : second;
        await expectEnvelope(
          await submitWithEnv(
            { ...tight, KEY_RATE_LIMIT: env.KEY_RATE_LIMIT },
            { key, json: VALID_BODY, headers: { 'CF-Connecting-IP': address } },
          ),
          201,
        );
      }
      for (let i = 0; i < 3; i++) {
        await expectEnvelope(
          await submitWithEnv(tight, {
            key: 'edgeform_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
            json: VALID_BODY,
            headers: { 'CF-Connecting-IP': address },
          }),
          401,
        );
      }
    }
  });
});

describe('C21: the client an address is', () => {
  it('C21 (property): every address of an IPv6 /64 is one client; an IPv4-mapped address is its IPv4 address', async () => {
    const { clientOf } = await import('../src/auth/rate-limit.ts');
    const hextet = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    const hextets = (n: number) => fc.array(hextet, { minLength: n, maxLength: n });
    await fc.assert(
      fc.property(hextets(4), hextets(4), hextets(4), (prefix, a, b) => {
        const one = clientOf([...prefix, ...a].join(':'));
        expect(clientOf([...prefix, ...b].join(':'))).toBe(one);
        expect(one.endsWith('::/64')).toBe(true);
      }),
    );
    await fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(clientOf(`::ffff:${v4}`)).toBe(clientOf(v4));
        expect(clientOf(v4)).toBe(v4.split('.').map(Number).join('.'));
      }),
    );
    expect(clientOf('2001:db8::1')).not.toBe(clientOf('2001:db8:0:1::1'));
  });
});
