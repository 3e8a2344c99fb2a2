// C10: the body limit, on Content-Length and on the bytes actually read.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { expectEnvelope, seedProject, storedData, storedRows, submit, submitWithEnv } from './helpers.ts';

const LIMIT = 65536;
const tooLarge = (limit: number) => ({
  message: 'Request body too large',
  error: { message: `Request body must not exceed ${limit} bytes` },
});

/** A valid submission of exactly `size` bytes. */
function bodyOfSize(size: number): string {
  const body = `{"message":"${'a'.repeat(size - 14)}"}`;
  expect(new TextEncoder().encode(body).length).toBe(size);
  return body;
}

/** A body with no Content-Length, delivered in chunks; counts what the worker pulled. */
function streamed(text: string, chunk = 1024) {
  const bytes = new TextEncoder().encode(text);
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= bytes.length) return controller.close();
      const part = bytes.slice(state.pulled, state.pulled + chunk);
      state.pulled += part.length;
      controller.enqueue(part);
    },
  });
  return { stream, state };
}

let project: { projectId: string; apiKey: string };
beforeAll(async () => {
  project = await seedProject();
});

describe('C10: with Content-Length', () => {
  it('C10: a body of exactly the limit (64 KiB by default) is accepted', async () => {
    const p = await seedProject();
    const res = await submit({ key: p.apiKey, body: bodyOfSize(LIMIT) });
    await expectEnvelope(res, 201);
    expect(await storedData(p.projectId)).toEqual([{ message: 'a'.repeat(LIMIT - 14) }]);
  });

  it('C10: one byte over the limit is 413 and stores nothing', async () => {
    const p = await seedProject();
    const res = await submit({ key: p.apiKey, body: bodyOfSize(LIMIT + 1) });
    await expectEnvelope(res, 413, tooLarge(LIMIT));
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C10: the limit is counted in bytes, not characters', async () => {
    const p = await seedProject();
    // 21,846 three-byte characters: under the limit in characters, over it in bytes.
    const body = `{"message":"${'€'.repeat(21_846)}"}`;
    expect(body.length).toBeLessThan(LIMIT);
    await expectEnvelope(await submit({ key: p.apiKey, body }), 413, tooLarge(LIMIT));
  });
});

describe('C10: without Content-Length (streamed)', () => {
  it('C10: a streamed body within the limit is accepted', async () => {
    const p = await seedProject();
    const { stream } = streamed(bodyOfSize(LIMIT));
    const res = await submitWithEnv(env, { key: p.apiKey, body: stream });
    await expectEnvelope(res, 201);
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('C10: a streamed body over the limit is 413, and is never read far past the limit', async () => {
    const { stream, state } = streamed(`{"message":"${'a'.repeat(1_000_000)}"}`);
    const res = await submitWithEnv(env, { key: project.apiKey, body: stream });
    await expectEnvelope(res, 413, tooLarge(LIMIT));
    // It stops at the first chunk that crosses the limit (plus what the stream queued ahead).
    expect(state.pulled).toBeLessThanOrEqual(LIMIT + 4 * 1024);
  });

  it('C10: through the entry point, a chunked body over the limit is 413', async () => {
    const { stream } = streamed(bodyOfSize(LIMIT + 1));
    const res = await submit({ key: project.apiKey, body: stream });
    await expectEnvelope(res, 413, tooLarge(LIMIT));
  });
});

describe('C10: the setting', () => {
  it('C10: MAX_BODY_BYTES from [vars] sets the limit', async () => {
    const p = await seedProject();
    const small = { ...env, MAX_BODY_BYTES: 100 } as unknown as Env;
    await expectEnvelope(await submitWithEnv(small, { key: p.apiKey, body: bodyOfSize(100) }), 201);
    await expectEnvelope(
      await submitWithEnv(small, { key: p.apiKey, body: bodyOfSize(101) }),
      413,
      tooLarge(100),
    );
    const { stream } = streamed(bodyOfSize(101), 10);
    await expectEnvelope(await submitWithEnv(small, { key: p.apiKey, body: stream }), 413, tooLarge(100));
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('C10: a malformed setting falls back to 64 KiB rather than failing open', async () => {
    const odd = { ...env, MAX_BODY_BYTES: 'lots' } as unknown as Env;
    const res = await submitWithEnv(odd, { key: project.apiKey, body: bodyOfSize(LIMIT + 1) });
    await expectEnvelope(res, 413, tooLarge(LIMIT));
  });

  it('C10: a setting above 1 MiB is held to 1 MiB, so that every accepted body fits in a D1 row', async () => {
    const huge = { ...env, MAX_BODY_BYTES: 50 * 1024 * 1024 } as unknown as Env;
    const MiB = 1024 * 1024;
    const res = await submitWithEnv(huge, { key: project.apiKey, body: bodyOfSize(MiB + 1) });
    await expectEnvelope(res, 413, tooLarge(MiB));
    await expectEnvelope(await submitWithEnv(huge, { key: project.apiKey, body: bodyOfSize(MiB) }), 201);
  });
});

describe('C11: a body that breaks off', () => {
  /** Sends the first bytes of a body, then fails, as a connection does when the client hangs up. */
  function brokenOff(text: string) {
    const bytes = new TextEncoder().encode(text);
    let sent = false;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new TypeError('Network connection lost.'));
        sent = true;
        controller.enqueue(bytes.slice(0, 10));
      },
    });
  }

  it.each([
    ['without Content-Length (read by the size limit)', {}],
    ['with Content-Length (read by the handler)', { 'Content-Length': '40' }],
  ])('C11 + C18: %s: 400, nothing stored, and no fault logged', async (_, headers) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const p = await seedProject();
    const body = brokenOff(JSON.stringify({ name: 'Ada', message: 'x'.repeat(10) }));
    // Straight into the app, so that the stream's failure reaches the worker as it would in production.
    const res = await submitWithEnv(env, { key: p.apiKey, body, headers });
    await expectEnvelope(res, 400, {
      message: 'Invalid request body',
      error: { message: 'Request body was not received in full' },
    });
    expect(errors).not.toHaveBeenCalled();
    expect(await storedRows(p.projectId)).toEqual([]);
    errors.mockRestore();
  });
});
