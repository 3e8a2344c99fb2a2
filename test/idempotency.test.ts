// C20: Idempotency-Key — stored with the submission in one write; replay, 422, 409; the purge.
import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  bodyHash,
  claimKey,
  claimsHeld,
  MAX_CLAIMS,
  parseIdempotencyKey,
} from '../src/accept/idempotency.ts';
import worker from '../src/index.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { database } from '../src/store/db.ts';
import { insertSubmission } from '../src/store/intake.ts';
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

afterEach(() => {
  vi.restoreAllMocks();
});

const withKey = (key: string, headers: Record<string, string> = {}) => ({
  'Idempotency-Key': key,
  ...headers,
});
const replayed = (res: Response) => res.headers.get('Idempotent-Replayed');

describe('C20: the form of an Idempotency-Key', () => {
  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a control character (DEL)', 'a\x7fb'],
    ['a tab', 'a\tb'],
  ])('C20: a key that is %s is 400, and nothing is stored', async (_, key) => {
    const p = await seedProject();
    const res = await submit({ key: p.apiKey, json: VALID_BODY, headers: withKey(key) });
    await expectEnvelope(res, 400, {
      message: 'Invalid request header',
      error: { message: 'Idempotency-Key must be 1 to 255 printable ASCII characters' },
    });
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it.each([
    ['one character', 'k'],
    ['255 characters', 'k'.repeat(255)],
    [
      'every printable ASCII character',
      `a ${Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)).join('')}`,
    ],
  ])('C20: a key of %s is accepted', async (_, key) => {
    const p = await seedProject();
    const res = await submit({ key: p.apiKey, json: VALID_BODY, headers: withKey(key) });
    await expectEnvelope(res, 201);
    expect((await storedRows(p.projectId)).map((r) => r.idempotencyKey)).toEqual([key]);
  });

  it('C20 (property): a key is accepted exactly when it is 1–255 printable ASCII characters', () => {
    const printable = (k: string) =>
      k.length >= 1 && k.length <= 255 && [...k].every((ch) => ch >= ' ' && ch <= '~');
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 300 }), fc.string({ maxLength: 300 })),
        (key) => {
          let accepted: boolean;
          try {
            accepted = parseIdempotencyKey(key) === key;
          } catch {
            accepted = false;
          }
          expect(accepted).toBe(printable(key));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('C5 + C20: the form is checked with step 5: after the media type, before the body size', async () => {
    const p = await seedProject();
    const wrongType = await submit({
      key: p.apiKey,
      contentType: 'text/plain',
      body: 'x',
      headers: withKey(''),
    });
    await expectEnvelope(wrongType, 415);
    const tooLarge = await submit({ key: p.apiKey, body: 'x'.repeat(70_000), headers: withKey('') });
    await expectEnvelope(tooLarge, 400, {
      message: 'Invalid request header',
      error: { message: 'Idempotency-Key must be 1 to 255 printable ASCII characters' },
    });
  });
});

describe('C20: replays', () => {
  it('C20: the first request stores the submission with its key and the hash of its body', async () => {
    const p = await seedProject();
    const raw = JSON.stringify(VALID_BODY);
    const res = await submit({ key: p.apiKey, body: raw, headers: withKey('order-1') });
    await expectEnvelope(res, 201, { message: 'Submission received' });
    expect(replayed(res)).toBeNull();
    const [row, ...more] = await storedRows(p.projectId);
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      idempotencyKey: 'order-1',
      bodyHash: await bodyHash(new TextEncoder().encode(raw).buffer as ArrayBuffer),
      data: raw,
    });
  });

  it('C20: a retry with the same key and body gets the original 201 again, replayed, and stores nothing new', async () => {
    const p = await seedProject();
    const first = await submit({ key: p.apiKey, json: VALID_BODY, headers: withKey('retry-me') });
    await expectEnvelope(first, 201);
    for (let i = 0; i < 3; i++) {
      const again = await submit({ key: p.apiKey, json: VALID_BODY, headers: withKey('retry-me') });
      await expectEnvelope(again, 201, { message: 'Submission received' });
      expect(replayed(again)).toBe('true');
    }
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('C20: a browser can read Idempotent-Replayed (exposed by CORS)', async () => {
    const p = await seedProject();
    const headers = withKey('cors', { Origin: 'https://site.example' });
    await submit({ key: p.apiKey, json: VALID_BODY, headers });
    const again = await submit({ key: p.apiKey, json: VALID_BODY, headers });
    expect(replayed(again)).toBe('true');
    expect(again.headers.get('Access-Control-Expose-Headers')?.split(/\s*,\s*/)).toContain(
      'Idempotent-Replayed',
    );
  });

  it('C20: the same key with a different body is 422, and the first submission stays as it was', async () => {
    const p = await seedProject();
    await submit({ key: p.apiKey, json: VALID_BODY, headers: withKey('k-422') });
    const res = await submit({ key: p.apiKey, json: { ...VALID_BODY, phone: 1 }, headers: withKey('k-422') });
    await expectEnvelope(res, 422, {
      message: 'Idempotency-Key reused',
      error: { message: 'This Idempotency-Key was already used with a different request body' },
    });
    const rows = await storedRows(p.projectId);
    expect(rows.map((r) => JSON.parse(r.data))).toEqual([VALID_BODY]);
  });

  it('C20: the same body in other bytes (other spacing) is a different body: 422', async () => {
    const p = await seedProject();
    await submit({ key: p.apiKey, body: '{"name":"Ada"}', headers: withKey('bytes') });
    const res = await submit({ key: p.apiKey, body: '{ "name": "Ada" }', headers: withKey('bytes') });
    await expectEnvelope(res, 422);
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('C20: keys are scoped to the project', async () => {
    const a = await seedProject();
    const b = await seedProject();
    await expectEnvelope(await submit({ key: a.apiKey, json: VALID_BODY, headers: withKey('shared') }), 201);
    const other = await submit({ key: b.apiKey, json: VALID_BODY, headers: withKey('shared') });
    await expectEnvelope(other, 201);
    expect(replayed(other)).toBeNull();
    expect(await storedRows(a.projectId)).toHaveLength(1);
    expect(await storedRows(b.projectId)).toHaveLength(1);
  });

  it('C20: a request that fails validation records nothing, so it can be corrected and retried with the key', async () => {
    const p = await seedProject();
    const bad = await submit({ key: p.apiKey, json: { phone: 'x' }, headers: withKey('fix-me') });
    await expectEnvelope(bad, 400);
    const fixed = await submit({ key: p.apiKey, json: { phone: 1 }, headers: withKey('fix-me') });
    await expectEnvelope(fixed, 201);
    expect(replayed(fixed)).toBeNull();
    expect((await storedRows(p.projectId)).map((r) => r.data)).toEqual(['{"phone":1}']);
  });

  it('C20 + C18: a write that fails records nothing either: the retry is stored, not replayed', async () => {
    const p = await seedProject();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const failing = { ...env, DB: spyD1(env.DB, isWrite).db };
    await expectEnvelope(
      await submitWithEnv(failing, { key: p.apiKey, json: VALID_BODY, headers: withKey('flaky') }),
      503,
    );
    const retry = await submitWithEnv(env, { key: p.apiKey, json: VALID_BODY, headers: withKey('flaky') });
    await expectEnvelope(retry, 201);
    expect(replayed(retry)).toBeNull();
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('C20: a key already stored by another isolate is found by the unique index and replayed', async () => {
    const p = await seedProject();
    const raw = JSON.stringify(VALID_BODY);
    // As another isolate would have left it: no claim in this one, only the row in D1.
    await insertSubmission(env.DB, {
      id: uuidv7(),
      projectId: p.projectId,
      data: raw,
      receivedAt: new Date().toISOString(),
      idempotencyKey: 'elsewhere',
      bodyHash: await bodyHash(new TextEncoder().encode(raw).buffer as ArrayBuffer),
    });
    const res = await submit({ key: p.apiKey, body: raw, headers: withKey('elsewhere') });
    await expectEnvelope(res, 201);
    expect(replayed(res)).toBe('true');
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('C20: a new key costs no extra round trip; a replay costs the skipped write and one read', async () => {
    const p = await seedProject();
    const spy = spyD1(env.DB);
    const testEnv = { ...env, DB: spy.db };
    await submitWithEnv(testEnv, { key: p.apiKey, json: VALID_BODY }); // warms the cache
    spy.trips.length = 0;
    await expectEnvelope(
      await submitWithEnv(testEnv, { key: p.apiKey, json: VALID_BODY, headers: withKey('new') }),
      201,
    );
    expect(spy.trips).toHaveLength(1);
    spy.trips.length = 0;
    const again = await submitWithEnv(testEnv, { key: p.apiKey, json: VALID_BODY, headers: withKey('new') });
    expect(replayed(again)).toBe('true');
    expect(spy.trips).toHaveLength(2);
  });
});

describe('C20: concurrent requests with one key', () => {
  it('C20: 20 concurrent requests with one key store exactly one submission; every reply is the 201 or a replay of it', async () => {
    const p = await seedProject();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        submit({ key: p.apiKey, json: VALID_BODY, headers: withKey('burst') }),
      ),
    );
    for (const res of replies) await expectEnvelope(res, 201, { message: 'Submission received' });
    expect(replies.filter((r) => replayed(r) === null)).toHaveLength(1);
    expect(replies.filter((r) => replayed(r) === 'true')).toHaveLength(19);
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('C20: when the first of 20 concurrent requests fails to store (503), exactly one of the others stores it, and the rest replay', async () => {
    const p = await seedProject();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let writes = 0;
    const spy = spyD1(env.DB, (sql) => isWrite(sql) && writes++ === 0);
    const testEnv = { ...env, DB: spy.db };
    await submitWithEnv(testEnv, { key: p.apiKey, json: { name: 'warm' } }); // fails: the first write
    writes = 1;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        // The first of the wave fails again; the 19 others wait for it, then go on.
        if (i === 0) writes = 0;
        return submitWithEnv(testEnv, { key: p.apiKey, json: VALID_BODY, headers: withKey('first-fails') });
      }),
    );
    const outcomes = replies.map((r) => (r.status === 201 ? (replayed(r) ? 'replay' : 'stored') : r.status));
    expect(outcomes.filter((o) => o === 503)).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'replay')).toHaveLength(18);
    expect((await storedRows(p.projectId)).map((r) => r.idempotencyKey)).toEqual(['first-fails']);
  });

  it('C20: while the first request with a key is still being processed, another with that key gets 409', async () => {
    const p = await seedProject();
    await submit({ key: p.apiKey, json: VALID_BODY }); // the key's project is cached: the write is the only trip
    // The first write takes longer than a second request will wait for it (3 s).
    const slow = {
      ...env,
      DB: spyD1(
        env.DB,
        () => false,
        (sql) => (isWrite(sql) ? 3_500 : 0),
      ).db,
    };
    const first = submitWithEnv(slow, { key: p.apiKey, json: VALID_BODY, headers: withKey('slow') });
    await scheduler.wait(50);
    const second = await submitWithEnv(env, { key: p.apiKey, json: VALID_BODY, headers: withKey('slow') });
    await expectEnvelope(second, 409, {
      message: 'Request in progress',
      error: { message: 'A request with this Idempotency-Key is still being processed; retry shortly' },
    });
    expect(second.headers.get('Retry-After')).toBe('1');
    await expectEnvelope(await first, 201);
    const third = await submit({ key: p.apiKey, json: VALID_BODY, headers: withKey('slow') });
    expect(replayed(third)).toBe('true');
    expect(await storedRows(p.projectId)).toHaveLength(2);
  });

  it('C20 (property): any sequence of retries with one key stores at most one row', async () => {
    const p = await seedProject();
    const bodies = [VALID_BODY, { ...VALID_BODY, phone: 7 }, { phone: 'not a number' }, { name: 'Grace' }];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        // Waves of requests; the requests of a wave are sent at once.
        fc.array(fc.array(fc.integer({ min: 0, max: bodies.length - 1 }), { minLength: 1, maxLength: 5 }), {
          minLength: 1,
          maxLength: 4,
        }),
        async (waves) => {
          const key = `prop-${run++}`;
          const before = (await storedRows(p.projectId)).length;
          const codes: number[] = [];
          let fresh = 0;
          for (const wave of waves) {
            const replies = await Promise.all(
              wave.map((i) => submit({ key: p.apiKey, json: bodies[i], headers: withKey(key) })),
            );
            for (const res of replies) {
              codes.push(res.status);
              if (res.status === 201 && replayed(res) === null) fresh++;
            }
          }
          const rows = await storedRows(p.projectId);
          expect(rows.length - before).toBeLessThanOrEqual(1);
          expect(rows.length - before).toBe(fresh);
          expect(codes.every((c) => [201, 400, 409, 422].includes(c))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
    // Sixty sequences of up to twenty requests: seconds on a busy machine, over the default 5 s.
  }, 30_000);
});

describe('C20: the hourly purge (Cron Trigger)', () => {
  it('C20: forgets keys older than 24 hours and keeps their submissions; a forgotten key can be used again', async () => {
    const p = await seedProject();
    const now = Date.parse('2026-11-22T12:00:00.000Z');
    const db = database(env.DB);
    const hours = (h: number) => new Date(now - h * 3_600_000).toISOString();
    for (const [key, receivedAt] of [
      ['old', hours(25)],
      ['recent', hours(23)],
    ] as const) {
      await insertSubmission(db.$client, {
        id: uuidv7(),
        projectId: p.projectId,
        data: '{"name":"Ada"}',
        receivedAt,
        idempotencyKey: key,
        bodyHash: 'h',
      });
    }
    const logs = vi.spyOn(console, 'log').mockImplementation(() => {});
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: '7 * * * *' }), env);
    const rows = await storedRows(p.projectId);
    expect(rows.map((r) => [r.idempotencyKey, r.bodyHash])).toEqual([
      [null, null],
      ['recent', 'h'],
    ]);
    expect(JSON.parse(String(logs.mock.calls[0]?.[0]))).toMatchObject({
      job: 'purge-idempotency-keys',
      purged: 1,
    });
    const reused = await submit({ key: p.apiKey, body: '{"name":"Ada"}', headers: withKey('old') });
    await expectEnvelope(reused, 201);
    expect(replayed(reused)).toBeNull();
    expect(await storedRows(p.projectId)).toHaveLength(3);
  });
});

describe('C20: claims of requests that never finish', () => {
  it('C20: a claim left behind by a cancelled request is swept once stale, on the next claim', async () => {
    const project = `p_sweep_${crypto.randomUUID()}`;
    // Ten requests claim their keys and never release them (their `finally` never ran).
    for (let i = 0; i < 10; i++) await claimKey(project, `left-${i}`);
    expect(claimsHeld()).toBeGreaterThanOrEqual(10);
    // 31 seconds later, a new claim sweeps them all: only its own is held.
    const release = await claimKey(project, 'later', Date.now() + 31_000);
    expect(claimsHeld()).toBe(1);
    release();
    expect(claimsHeld()).toBe(0);
  });

  it('C20: however many claims are left behind, the map holds at most MAX_CLAIMS', async () => {
    const project = `p_flood_${crypto.randomUUID()}`;
    for (let i = 0; i < MAX_CLAIMS + 500; i++) await claimKey(project, `k${i}`);
    expect(claimsHeld()).toBe(MAX_CLAIMS);
    // Later, one claim sweeps what is stale, and its release leaves nothing behind.
    (await claimKey(project, 'later', Date.now() + 31_000))();
    expect(claimsHeld()).toBe(0);
  });
});

describe('C20 + C30: an Idempotency-Key is one project’s', () => {
  it('two projects sending the same key with a file each store their own submission and file', async () => {
    const fields = [
      { name: 'name', type: 'string' as const, required: false },
      {
        name: 'cv',
        type: 'file' as const,
        required: false,
        rules: { maxSize: 1000, accept: ['application/pdf'] },
      },
    ];
    const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const post = (formId: string, name: string) => {
      const body = new FormData();
      body.append('name', name);
      body.append('cv', new File([pdf], 'cv.pdf', { type: 'application/pdf' }));
      return fetchWorker(
        new Request(`https://forms.test/f/${formId}`, {
          method: 'POST',
          body,
          headers: { Accept: 'application/json', 'Idempotency-Key': 'shared-upload-key' },
        }),
      );
    };
    const a = await seedProject({ fields });
    const b = await seedProject({ fields });
    await expectEnvelope(await post(a.formId ?? '', 'Ada'), 201);
    const second = await post(b.formId ?? '', 'Grace');
    await expectEnvelope(second, 201);
    expect(replayed(second)).toBeNull();
    const [rowA] = await storedRows(a.projectId);
    const [rowB] = await storedRows(b.projectId);
    expect(JSON.parse(rowA?.data ?? '{}').name).toBe('Ada');
    expect(JSON.parse(rowB?.data ?? '{}').name).toBe('Grace');
    expect((await env.FILES.list({ prefix: `${b.projectId}/` })).objects).toHaveLength(1);
  });
});
