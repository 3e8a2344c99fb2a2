// C4, C8, C18: faults in D1 and elsewhere; and the D1 round trips of the hot path.
import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isWrite, spyD1 } from './d1-spy.ts';
import { expectEnvelope, seedProject, storedRows, submitWithEnv, VALID_BODY } from './helpers.ts';

let project: { projectId: string; apiKey: string };
beforeAll(async () => {
  project = await seedProject();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const UNAVAILABLE = {
  message: 'Submission not saved',
  error: { message: 'Service temporarily unavailable' },
};

function captureErrors() {
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  });
  return lines;
}

describe('C18: storage faults', () => {
  it('C18: a D1 failure on write is 503 with Retry-After, and nothing is stored', async () => {
    captureErrors();
    const spy = spyD1(env.DB, isWrite);
    const res = await submitWithEnv({ ...env, DB: spy.db }, { key: project.apiKey, json: VALID_BODY });
    await expectEnvelope(res, 503, UNAVAILABLE);
    expect(res.headers.get('Retry-After')).toBe('5');
    expect(spy.trips.some(isWrite)).toBe(true);
    expect(await storedRows(project.projectId)).toEqual([]);
  });

  it('C18: a D1 failure on the key lookup is 503 too, and nothing is stored', async () => {
    captureErrors();
    const spy = spyD1(env.DB, () => true);
    const res = await submitWithEnv({ ...env, DB: spy.db }, { key: project.apiKey, json: VALID_BODY });
    await expectEnvelope(res, 503, UNAVAILABLE);
    expect(res.headers.get('Retry-After')).not.toBeNull();
    expect(spy.trips).toHaveLength(1);
    expect(await storedRows(project.projectId)).toEqual([]);
  });

  it('C18 + C8: the fault is logged with the request id, never the key or the body', async () => {
    const lines = captureErrors();
    const spy = spyD1(env.DB, isWrite);
    const secretBody = { ...VALID_BODY, message: 'a-very-private-message' };
    const res = await submitWithEnv(
      { ...env, DB: spy.db },
      {
        key: project.apiKey,
        json: secretBody,
        headers: { 'X-Request-Id': 'req-123', 'CF-Ray': '8f1e2d3c4b5a6978-AMS' },
      },
    );
    await expectEnvelope(res, 503);
    // The Ray id stays the request id; the client's own id is logged beside it, never instead.
    expect(res.headers.get('X-Request-Id')).toBe('8f1e2d3c4b5a6978-AMS');
    expect(lines).toHaveLength(1);
    const log = lines.join('\n');
    expect(JSON.parse(log)).toMatchObject({
      level: 'error',
      requestId: '8f1e2d3c4b5a6978-AMS',
      clientRequestId: 'req-123',
      error: 'StorageError',
    });
    expect(log).not.toContain(project.apiKey);
    expect(log).not.toContain('a-very-private-message');
    expect(log).not.toContain('Ada Lovelace');
  });

  it('C4: a 503 carries no SQL, no binding name, no stack', async () => {
    captureErrors();
    const spy = spyD1(env.DB, isWrite);
    const res = await submitWithEnv({ ...env, DB: spy.db }, { key: project.apiKey, json: VALID_BODY });
    const text = await res.text();
    expect(text).not.toMatch(/insert|select|submissions|D1_ERROR|\bDB\b|at .*\(|\.ts:\d+/i);
  });

  it('C18: any other unexpected fault is 500 in the envelope, logged, with no internals', async () => {
    const lines = captureErrors();
    const broken = {
      ...env,
      get MAX_BODY_BYTES(): never {
        throw new TypeError('settings exploded at src/submissions.ts:42');
      },
    };
    const res = await submitWithEnv(broken as unknown as Env, { key: project.apiKey, json: VALID_BODY });
    const body = await expectEnvelope(res, 500);
    const requestId = res.headers.get('X-Request-Id');
    expect(body.data).toEqual({
      message: 'Internal server error',
      error: {
        message: `Unexpected error; it has been logged as request ${requestId}`,
        code: 'internal_error',
      },
    });
    expect(JSON.stringify(body)).not.toMatch(/exploded|submissions\.ts|TypeError/);
    expect(lines.join('\n')).toContain(String(requestId));
    expect(lines.join('\n')).not.toContain(project.apiKey);
    expect(await storedRows(project.projectId)).toEqual([]);
  });
});

describe('C17: D1 round trips on the hot path', () => {
  let other: { projectId: string; apiKey: string };
  beforeAll(async () => {
    other = await seedProject();
  });

  it('cold: an accepted submission costs 2 round trips, one read and one write', async () => {
    const spy = spyD1(env.DB);
    const res = await submitWithEnv({ ...env, DB: spy.db }, { key: other.apiKey, json: VALID_BODY });
    await expectEnvelope(res, 201);
    expect(spy.trips).toHaveLength(2);
    expect(spy.trips.filter(isWrite)).toHaveLength(1);
  });

  it('warm: an accepted submission costs 1 round trip, the write', async () => {
    const spy = spyD1(env.DB);
    const testEnv = { ...env, DB: spy.db };
    await expectEnvelope(await submitWithEnv(testEnv, { key: other.apiKey, json: VALID_BODY }), 201);
    spy.trips.length = 0;
    await expectEnvelope(await submitWithEnv(testEnv, { key: other.apiKey, json: VALID_BODY }), 201);
    expect(spy.trips).toHaveLength(1);
    expect(spy.trips.every(isWrite)).toBe(true);
  });

  it('C6: a key-shaped token of the wrong length (33 or 31 characters after the prefix) is 401 with no D1 query', async () => {
    const spy = spyD1(env.DB);
    const testEnv = { ...env, DB: spy.db };
    for (const key of [
      `edgeform_pk_${'A'.repeat(33)}`,
      `edgeform_pk_${'A'.repeat(31)}`,
      `edgeform_sk_${'A'.repeat(33)}`,
      `edgeform_${'A'.repeat(33)}`,
    ]) {
      await expectEnvelope(await submitWithEnv(testEnv, { key, json: VALID_BODY }), 401, {
        message: 'Authentication failed',
        error: { message: 'Invalid API key' },
      });
    }
    expect(spy.trips).toEqual([]);
  });

  it('cold: an unknown (well-formed) key costs 1 round trip; warm: none', async () => {
    const spy = spyD1(env.DB);
    const testEnv = { ...env, DB: spy.db };
    const bad = { key: 'edgeform_00000000000000000000000000000000', json: VALID_BODY };
    await expectEnvelope(await submitWithEnv(testEnv, bad), 401);
    expect(spy.trips).toHaveLength(1);
    await expectEnvelope(await submitWithEnv(testEnv, bad), 401);
    expect(spy.trips).toHaveLength(1);
  });

  it('a token that cannot be a key costs no round trip', async () => {
    const spy = spyD1(env.DB);
    const res = await submitWithEnv({ ...env, DB: spy.db }, { key: 'not-one-of-ours', json: VALID_BODY });
    await expectEnvelope(res, 401);
    expect(spy.trips).toHaveLength(0);
  });

  it('a rejected submission costs the read only, no write', async () => {
    const spy = spyD1(env.DB);
    const res = await submitWithEnv({ ...env, DB: spy.db }, { key: other.apiKey, json: { name: 1 } });
    await expectEnvelope(res, 400);
    expect(spy.trips).toHaveLength(1);
    expect(spy.trips.some(isWrite)).toBe(false);
  });

  it('group commit: K concurrent submissions take fewer than K write round trips, and all are stored', async () => {
    const p = await seedProject();
    const spy = spyD1(env.DB);
    const testEnv = { ...env, DB: spy.db };
    const K = 30;
    const replies = await Promise.all(
      Array.from({ length: K }, (_, i) => submitWithEnv(testEnv, { key: p.apiKey, json: { phone: i } })),
    );
    for (const res of replies) await expectEnvelope(res, 201);
    const writes = spy.trips.filter(isWrite);
    expect(writes.length).toBeLessThan(K);
    expect(writes.length).toBeGreaterThan(0);
    const stored = (await storedRows(p.projectId)).map((r) => JSON.parse(r.data).phone).sort((a, b) => a - b);
    expect(stored).toEqual([...Array(K).keys()]);
  });

  it('group commit: when the batch fails, every request in it gets 503 and none of it is stored', async () => {
    captureErrors();
    const p = await seedProject();
    const spy = spyD1(env.DB, isWrite);
    const testEnv = { ...env, DB: spy.db };
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => submitWithEnv(testEnv, { key: p.apiKey, json: { phone: i } })),
    );
    for (const res of replies) await expectEnvelope(res, 503, UNAVAILABLE);
    expect(spy.trips.filter(isWrite).length).toBeLessThan(10);
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('group commit: a batch of more than 12 rows (several statements) is stored all or none', async () => {
    const p = await seedProject();
    // Fails the batch of several statements only: the one-statement first write goes through.
    const spy = spyD1(env.DB, (sql) => sql.startsWith('batch'));
    captureErrors();
    const testEnv = { ...env, DB: spy.db };
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) => submitWithEnv(testEnv, { key: p.apiKey, json: { phone: i } })),
    );
    const codes = replies.map((r) => r.status);
    expect(spy.trips.some((t) => t.startsWith('batch'))).toBe(true);
    expect(codes.filter((c) => c === 503).length).toBeGreaterThan(14);
    // Exactly the 201s are stored.
    expect(await storedRows(p.projectId)).toHaveLength(codes.filter((c) => c === 201).length);
  });
});
