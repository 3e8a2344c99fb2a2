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
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
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
      { key: project.apiKey, json: secretBody, headers: { 'X-Request-Id': 'req-123' } },
    );
    await expectEnvelope(res, 503);
    expect(res.headers.get('X-Request-Id')).toBe('req-123');
    expect(lines).toHaveLength(1);
    const log = lines.join('\n');
    expect(JSON.parse(log)).toMatchObject({ level: 'error', requestId: 'req-123', error: 'StorageError' });
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
      error: { message: `Unexpected error; it has been logged as request ${requestId}` },
    });
    expect(JSON.stringify(body)).not.toMatch(/exploded|submissions\.ts|TypeError/);
    expect(lines.join('\n')).toContain(String(requestId));
    expect(lines.join('\n')).not.toContain(project.apiKey);
    expect(await storedRows(project.projectId)).toEqual([]);
  });
});

describe('D1 round trips on the hot path', () => {
  let other: { projectId: string; apiKey: string };
  beforeAll(async () => {
    other = await seedProject();
  });

  it('an accepted submission costs 2 round trips: one read, one write', async () => {
    const spy = spyD1(env.DB);
    const res = await submitWithEnv({ ...env, DB: spy.db }, { key: other.apiKey, json: VALID_BODY });
    await expectEnvelope(res, 201);
    expect(spy.trips).toHaveLength(2);
    expect(spy.trips.filter(isWrite)).toHaveLength(1);
  });

  it('an unknown (well-formed) key costs 1 round trip', async () => {
    const spy = spyD1(env.DB);
    const res = await submitWithEnv(
      { ...env, DB: spy.db },
      { key: 'edgeform_00000000000000000000000000000000', json: VALID_BODY },
    );
    await expectEnvelope(res, 401);
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
});
