// C22: the honeypot and Turnstile. Siteverify is mocked at the worker's outbound fetch.
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SITEVERIFY_URL, siteverifyIdempotencyKey } from '../src/accept/turnstile.ts';
import { database } from '../src/store/db.ts';
import { submissionPages } from '../src/store/inbox.ts';
import { isWrite, spyD1 } from './d1-spy.ts';
import {
  expectEnvelope,
  fetchWorker,
  seedProject,
  storedRows,
  submit,
  submitWithEnv,
  VALID_BODY,
} from './helpers.ts';
import { mockSiteverify, verdict } from './siteverify.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const SPAM_CHECK_FAILED = { message: 'Request refused', error: { message: 'Spam check failed' } };
const SECRET = '0x4AAAAAAA-test-secret';

describe('C22: honeypot', () => {
  it('C22: a filled honeypot gets the normal 201, and is stored marked as spam, without the honeypot', async () => {
    const p = await seedProject({ honeypot: 'website' });
    const normal = await submit({ key: p.apiKey, json: VALID_BODY });
    const trap = await submit({ key: p.apiKey, json: { ...VALID_BODY, website: 'http://spam.example' } });
    await expectEnvelope(trap, 201, { message: 'Submission received' });
    // Nothing tells a bot apart from a person: same status, same headers, same body.
    expect([...trap.headers.keys()].sort()).toEqual([...normal.headers.keys()].sort());
    const rows = await storedRows(p.projectId);
    expect(rows.map((r) => [r.spam, JSON.parse(r.data)])).toEqual([
      [false, VALID_BODY],
      [true, VALID_BODY],
    ]);
  });

  it.each([
    ['left empty', { website: '' }],
    ['null', { website: null }],
    ['false', { website: false }],
    ['absent', {}],
  ])('C22: a honeypot %s is not spam, and is not stored', async (_, extra) => {
    const p = await seedProject({ honeypot: 'website' });
    await expectEnvelope(await submit({ key: p.apiKey, json: { ...VALID_BODY, ...extra } }), 201);
    const rows = await storedRows(p.projectId);
    expect(rows.map((r) => [r.spam, JSON.parse(r.data)])).toEqual([[false, VALID_BODY]]);
  });

  it('C22 + C13: the honeypot is not an unknown field under the reject policy', async () => {
    const p = await seedProject({ honeypot: 'website', unknownFields: 'reject' });
    await expectEnvelope(await submit({ key: p.apiKey, json: { name: 'Ada', website: '' } }), 201);
  });

  it('C22: a honeypot alone leaves no fields: 400 like `{}`', async () => {
    const p = await seedProject({ honeypot: 'website' });
    await expectEnvelope(await submit({ key: p.apiKey, json: { website: 'x' } }), 400, {
      message: 'Invalid request body',
      error: { message: 'Submission has no fields' },
    });
  });

  it('C22 (property): the honeypot is never stored, and a row is spam exactly when it was filled', async () => {
    const p = await seedProject({ honeypot: 'website' });
    let expected = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.oneof(fc.string(), fc.constantFrom('', null, false, true, 0)), { nil: undefined }),
        fc.string(),
        async (website, name) => {
          const body: Record<string, unknown> = { name };
          if (website !== undefined) body.website = website;
          const res = await submit({ key: p.apiKey, json: body });
          await expectEnvelope(res, 201);
          expected++;
          const rows = await storedRows(p.projectId);
          expect(rows).toHaveLength(expected);
          const last = rows.at(-1);
          expect(JSON.parse(last?.data ?? '{}')).toEqual({ name });
          expect(last?.spam).toBe(
            website !== undefined && website !== '' && website !== null && website !== false,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('C22: spam is left out of exports unless asked for', async () => {
    const p = await seedProject({ honeypot: 'website' });
    await submit({ key: p.apiKey, json: { name: 'person' } });
    await submit({ key: p.apiKey, json: { name: 'bot', website: 'x' } });
    const pages = async (includeSpam: boolean) => {
      const rows = [];
      for await (const page of submissionPages(database(env.DB), p.projectId, { includeSpam }))
        rows.push(...page);
      return rows.map((r) => [JSON.parse(r.data).name, r.spam]);
    };
    expect(await pages(false)).toEqual([['person', false]]);
    expect(await pages(true)).toEqual([
      ['person', false],
      ['bot', true],
    ]);
  });
});

/** Siteverify that passes each token once, and calls it spent after (no idempotency_key kept). */
function redeemOnce() {
  const redeemed = new Set<string>();
  return mockSiteverify((form) => {
    const token = String(form.get('response'));
    if (redeemed.has(token)) return verdict(false, ['timeout-or-duplicate']);
    redeemed.add(token);
    return verdict(true);
  });
}

describe('C22: Turnstile', () => {
  it('C22: a token siteverify accepts is stored without the token; siteverify gets the secret, token and address', async () => {
    const p = await seedProject({ turnstileSecret: SECRET });
    const { calls } = mockSiteverify(() => verdict(true));
    const res = await submit({
      key: p.apiKey,
      json: { ...VALID_BODY, 'cf-turnstile-response': 'token-ok' },
      headers: { 'CF-Connecting-IP': '203.0.113.7' },
    });
    await expectEnvelope(res, 201);
    expect(calls.map((f) => Object.fromEntries(f))).toEqual([
      { secret: SECRET, response: 'token-ok', remoteip: '203.0.113.7' },
    ]);
    expect((await storedRows(p.projectId)).map((r) => JSON.parse(r.data))).toEqual([VALID_BODY]);
  });

  it('C22: the token may come in the CF-Turnstile-Response header instead', async () => {
    const p = await seedProject({ turnstileSecret: SECRET });
    const { calls } = mockSiteverify(() => verdict(true));
    const res = await submit({
      key: p.apiKey,
      json: VALID_BODY,
      headers: { 'CF-Turnstile-Response': 'from-header' },
    });
    await expectEnvelope(res, 201);
    expect(calls.map((f) => f.get('response'))).toEqual(['from-header']);
  });

  it('C22: a missing token is 403 "Spam check failed", siteverify is not asked, nothing is stored', async () => {
    const p = await seedProject({ turnstileSecret: SECRET });
    const { calls } = mockSiteverify(() => verdict(true));
    await expectEnvelope(await submit({ key: p.apiKey, json: VALID_BODY }), 403, SPAM_CHECK_FAILED);
    await expectEnvelope(
      await submit({ key: p.apiKey, json: { ...VALID_BODY, 'cf-turnstile-response': '' } }),
      403,
      SPAM_CHECK_FAILED,
    );
    expect(calls).toEqual([]);
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C22: a token siteverify refuses is 403 "Spam check failed", and nothing is stored', async () => {
    const p = await seedProject({ turnstileSecret: SECRET });
    mockSiteverify(() => verdict(false, ['invalid-input-response']));
    const res = await submit({ key: p.apiKey, json: { ...VALID_BODY, 'cf-turnstile-response': 'forged' } });
    await expectEnvelope(res, 403, SPAM_CHECK_FAILED);
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C22: siteverify timing out is 503 with Retry-After, and nothing is stored', async () => {
    const p = await seedProject({ turnstileSecret: SECRET });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // Never answers; gives up only when the worker's own timeout aborts the request.
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (_input, init) =>
        new Promise((_, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const res = await submit({ key: p.apiKey, json: { ...VALID_BODY, 'cf-turnstile-response': 'slow' } });
    await expectEnvelope(res, 503, {
      message: 'Submission not saved',
      error: { message: 'Service temporarily unavailable' },
    });
    expect(res.headers.get('Retry-After')).toBe('5');
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it.each([
    ['answers 500', () => new Response('oops', { status: 500 })],
    ['answers something that is not JSON', () => new Response('<html>')],
    ['reports an internal error', () => verdict(false, ['internal-error'])],
  ])('C22: siteverify that %s is 503, and nothing is stored', async (_, answer) => {
    const p = await seedProject({ turnstileSecret: SECRET });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockSiteverify(answer);
    const res = await submit({ key: p.apiKey, json: { ...VALID_BODY, 'cf-turnstile-response': 't' } });
    await expectEnvelope(res, 503);
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C5 + C22: the check runs after field validation: an invalid body is 400 and siteverify is not asked', async () => {
    const p = await seedProject({ turnstileSecret: SECRET });
    const { calls } = mockSiteverify(() => verdict(true));
    const res = await submit({ key: p.apiKey, json: { phone: 'x' } });
    await expectEnvelope(res, 400, {
      message: 'Validation failed',
      errors: ["Field 'phone' is not of type integer"],
    });
    expect(calls).toEqual([]);
  });

  it('C22: the token field is never stored, even for a project without Turnstile', async () => {
    const p = await seedProject();
    const res = await submit({ key: p.apiKey, json: { ...VALID_BODY, 'cf-turnstile-response': 'x' } });
    await expectEnvelope(res, 201);
    expect((await storedRows(p.projectId)).map((r) => JSON.parse(r.data))).toEqual([VALID_BODY]);
  });

  it('C20 + C22: the retry of a saved request (its token now spent) is replayed; a spent token otherwise is 403', async () => {
    const p = await seedProject({ turnstileSecret: SECRET });
    redeemOnce();
    const body = { ...VALID_BODY, 'cf-turnstile-response': 'once' };
    const headers = { 'Idempotency-Key': 'turnstile-retry' };
    await expectEnvelope(await submit({ key: p.apiKey, json: body, headers }), 201);
    const retry = await submit({ key: p.apiKey, json: body, headers });
    await expectEnvelope(retry, 201);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    // The same spent token with another key, or without one, is refused.
    await expectEnvelope(
      await submit({ key: p.apiKey, json: body, headers: { 'Idempotency-Key': 'other' } }),
      403,
      SPAM_CHECK_FAILED,
    );
    await expectEnvelope(await submit({ key: p.apiKey, json: body }), 403, SPAM_CHECK_FAILED);
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('C20 + C22 + C29: at the form address too, the retry of a saved request (its token now spent) is replayed', async () => {
    const p = await seedProject({ turnstileSecret: SECRET });
    redeemOnce();
    const post = (name: string, key?: string) =>
      fetchWorker(
        new Request(`https://forms.test/f/${p.formId}`, {
          method: 'POST',
          body: new URLSearchParams({ name, 'cf-turnstile-response': 'once' }),
          headers: { Accept: 'application/json', ...(key === undefined ? {} : { 'Idempotency-Key': key }) },
        }),
      );
    await expectEnvelope(await post('Ada', 'form-retry'), 201);
    const retry = await post('Ada', 'form-retry');
    await expectEnvelope(retry, 201);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    // The spent token with another submission, another key, or none, is refused.
    await expectEnvelope(await post('Eve', 'form-retry'), 403, SPAM_CHECK_FAILED);
    await expectEnvelope(await post('Ada', 'other'), 403, SPAM_CHECK_FAILED);
    await expectEnvelope(await post('Ada'), 403, SPAM_CHECK_FAILED);
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it.each(['invalid-input-secret', 'missing-input-secret'])(
    "C22: siteverify refusing the project's own secret (%s) is 503, logged without the secret, not a 403 for the visitor",
    async (code) => {
      const p = await seedProject({ turnstileSecret: SECRET });
      const lines: string[] = [];
      vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
      });
      mockSiteverify(() => verdict(false, [code]));
      const res = await submit({
        key: p.apiKey,
        json: { ...VALID_BODY, 'cf-turnstile-response': 'fine-token' },
      });
      await expectEnvelope(res, 503);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(code);
      expect(lines[0]).not.toContain(SECRET);
      expect(lines[0]).not.toContain('fine-token');
      expect(await storedRows(p.projectId)).toEqual([]);
    },
  );
});

/**
 * Siteverify as Cloudflare documents it: a token is redeemed once; asked again with the same
 * idempotency_key and token, it answers what it answered the first time; otherwise the token is spent.
 */
function idempotentSiteverify(options: { hangFirst?: boolean } = {}) {
  const redeemed = new Map<string, string | null>(); // token → idempotency_key of its redemption
  let calls = 0;
  const idempotencyKeys: (string | null)[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (request.url !== SITEVERIFY_URL) throw new Error(`unexpected fetch ${request.url}`);
    const form = await request.formData();
    const token = String(form.get('response'));
    const key = form.get('idempotency_key') as string | null;
    idempotencyKeys.push(key);
    calls++;
    let answer: Response;
    if (!redeemed.has(token)) {
      redeemed.set(token, key);
      answer = verdict(true);
    } else {
      answer =
        key !== null && redeemed.get(token) === key
          ? verdict(true)
          : verdict(false, ['timeout-or-duplicate']);
    }
    if (options.hangFirst && calls === 1) {
      // Redeemed, but the answer comes after the worker has given up.
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    }
    return answer;
  });
  return { idempotencyKeys };
}

describe("C20 + C22: a token this service redeemed lets that request's retries through", () => {
  const body = { ...VALID_BODY, 'cf-turnstile-response': 'redeemed-once' };

  it('C22: the D1 write failed after siteverify redeemed the token: the retry (same token, key and body) is stored once', async () => {
    const p = await seedProject({ turnstileSecret: SECRET });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { idempotencyKeys } = idempotentSiteverify();
    const headers = { 'Idempotency-Key': 'retry-after-503' };
    const failing = { ...env, DB: spyD1(env.DB, isWrite).db };
    await expectEnvelope(await submitWithEnv(failing, { key: p.apiKey, json: body, headers }), 503);
    await expectEnvelope(await submit({ key: p.apiKey, json: body, headers }), 201);
    expect(await storedRows(p.projectId)).toHaveLength(1);
    // Siteverify was given one idempotency_key, a UUID, both times.
    expect(idempotencyKeys).toHaveLength(2);
    expect(idempotencyKeys[0]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(idempotencyKeys[1]).toBe(idempotencyKeys[0]);
    // The same token with another Idempotency-Key, another body, or none, is spent: 403.
    await expectEnvelope(
      await submit({ key: p.apiKey, json: body, headers: { 'Idempotency-Key': 'another' } }),
      403,
      SPAM_CHECK_FAILED,
    );
    await expectEnvelope(
      await submit({ key: p.apiKey, json: { ...body, name: 'Eve' }, headers }),
      403,
      SPAM_CHECK_FAILED,
    );
    await expectEnvelope(await submit({ key: p.apiKey, json: body }), 403, SPAM_CHECK_FAILED);
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('C22: siteverify answered after our time-out (503): the retry passes and is stored once', async () => {
    const p = await seedProject({ turnstileSecret: SECRET });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    idempotentSiteverify({ hangFirst: true });
    const headers = { 'Idempotency-Key': 'retry-after-timeout' };
    await expectEnvelope(await submit({ key: p.apiKey, json: body, headers }), 503);
    expect(await storedRows(p.projectId)).toEqual([]);
    await expectEnvelope(await submit({ key: p.apiKey, json: body, headers }), 201);
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('C22: different projects, keys or bodies give different siteverify idempotency keys', async () => {
    const base = await siteverifyIdempotencyKey('p_a', 'k', 'h');
    expect(await siteverifyIdempotencyKey('p_a', 'k', 'h')).toBe(base);
    for (const other of [
      await siteverifyIdempotencyKey('p_b', 'k', 'h'),
      await siteverifyIdempotencyKey('p_a', 'k2', 'h'),
      await siteverifyIdempotencyKey('p_a', 'k', 'h2'),
    ]) {
      expect(other).not.toBe(base);
    }
  });
});
