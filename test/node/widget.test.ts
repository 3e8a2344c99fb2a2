// The widget's sending logic (the browser tests cover the page): retries, backoff,
// Retry-After, and one Idempotency-Key per submission across its retries; its token, asked for
// once more when refused (C39).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ask } from '../../widget/guard.ts';
import { ATTEMPT_TIMEOUT_MS, retryDelay, send } from '../../widget/widget.ts';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const envelope = (code: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ data: { message: 'm' }, status: { code, message: 'x' } }), {
    status: code,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });

function fakeFetch(...answers: (Response | Error)[]) {
  const calls: { headers: Headers; body: string }[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
    calls.push({ headers: new Headers(init?.headers), body: String(init?.body) });
    const next = answers.shift();
    if (next instanceof Error) throw next;
    if (!next) throw new Error('no more answers');
    return next;
  });
  return { calls, spy };
}

const options = { endpoint: 'https://forms.example/api/v1/submit', key: 'edgeform_k', data: { name: 'Ada' } };

/** Runs send() with fake timers, returning the outcome and the waits between attempts. */
async function run() {
  vi.useFakeTimers();
  const started = Date.now();
  const waits: number[] = [];
  const pending = send(options);
  for (let i = 0; i < 10; i++) {
    const before = Date.now();
    await vi.runOnlyPendingTimersAsync();
    if (Date.now() > before) waits.push(Date.now() - before);
  }
  const outcome = await pending;
  return { outcome, waits, total: Date.now() - started };
}

describe('widget send()', () => {
  it('a 503 is retried after Retry-After, with the same Idempotency-Key and body', async () => {
    const { calls } = fakeFetch(envelope(503, { 'Retry-After': '2' }), envelope(201));
    const { outcome, waits } = await run();
    expect(outcome).toMatchObject({ ok: true, status: 201 });
    expect(waits).toEqual([2000]);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.headers.get('Idempotency-Key')).toBe(calls[1]?.headers.get('Idempotency-Key'));
    expect(calls[0]?.headers.get('Idempotency-Key')).toMatch(/^[\x21-\x7e]{16,255}$/);
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer edgeform_k');
    expect(calls.map((c) => c.body)).toEqual(['{"name":"Ada"}', '{"name":"Ada"}']);
  });

  it('a network error is retried with backoff; after 4 attempts it gives up with the error', async () => {
    fakeFetch(
      new TypeError('offline'),
      new TypeError('offline'),
      new TypeError('offline'),
      new TypeError('offline'),
    );
    vi.useFakeTimers();
    const pending = send(options).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await pending).toBeInstanceOf(TypeError);
    expect([1, 2, 3].map((attempt) => retryDelay(undefined, attempt))).toEqual([1000, 2000, 4000]);
  });

  it('409 (the first try still being saved) is retried too; other errors are answered at once', async () => {
    const first = fakeFetch(
      envelope(409, { 'Retry-After': '1' }),
      envelope(201, { 'Idempotent-Replayed': 'true' }),
    );
    const { outcome } = await run();
    expect(outcome).toMatchObject({ ok: true, status: 201, replayed: true });
    expect(first.calls).toHaveLength(2);
    vi.restoreAllMocks();
    for (const code of [400, 401, 403, 413, 415, 422, 429]) {
      const { calls } = fakeFetch(envelope(code));
      expect((await send(options)).status).toBe(code);
      expect(calls).toHaveLength(1);
      vi.restoreAllMocks();
    }
  });

  it('four 503s in a row: the last 503 is the outcome', async () => {
    const { calls } = fakeFetch(envelope(503), envelope(503), envelope(503), envelope(503));
    const { outcome } = await run();
    expect(outcome).toMatchObject({ ok: false, status: 503 });
    expect(calls).toHaveLength(4);
  });

  it('each submission has its own Idempotency-Key', async () => {
    const { calls } = fakeFetch(envelope(201), envelope(201));
    await send(options);
    await send(options);
    expect(calls[0]?.headers.get('Idempotency-Key')).not.toBe(calls[1]?.headers.get('Idempotency-Key'));
  });

  it('Retry-After is capped at 10 s; backoff grows from 1 s', () => {
    const withHeader = (value: string) => new Response(null, { headers: { 'Retry-After': value } });
    expect(retryDelay(withHeader('3'), 1)).toBe(3000);
    expect(retryDelay(withHeader('3600'), 1)).toBe(10_000);
    expect(retryDelay(withHeader('soon'), 2)).toBe(2000);
  });

  it('a stalled connection is abandoned after the time-out and retried with the same key; after 4 it gives up', async () => {
    const keys: (string | null)[] = [];
    let aborted = 0;
    // Never answers: only the widget's own time-out ends each attempt.
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (_url, init) =>
        new Promise((_, reject) => {
          keys.push(new Headers(init?.headers).get('Idempotency-Key'));
          init?.signal?.addEventListener('abort', () => {
            aborted++;
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    );
    vi.useFakeTimers();
    const started = Date.now();
    const pending = send(options).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    expect(aborted).toBe(4);
    expect(new Set(keys).size).toBe(1);
    expect(keys).toHaveLength(4);
    // Four time-outs and the three waits between them: the form is given back, never stuck.
    expect(Date.now() - started).toBe(4 * ATTEMPT_TIMEOUT_MS + 1000 + 2000 + 4000);
  });

  it('an answer whose body stalls is abandoned too', async () => {
    let calls = 0;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
      calls++;
      const stalled = new ReadableStream({
        start(controller) {
          init?.signal?.addEventListener('abort', () =>
            controller.error(new DOMException('aborted', 'AbortError')),
          );
        },
      });
      return new Response(stalled, { status: 201 });
    });
    vi.useFakeTimers();
    const pending = send(options).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    expect(calls).toBe(4);
  });
});

describe('C30: the widget with files', () => {
  it('FormData goes as multipart with Accept: application/json and an Idempotency-Key, no key, no Content-Type of its own', async () => {
    const { calls, spy } = fakeFetch(envelope(201));
    const data = new FormData();
    data.set('name', 'Ada');
    const outcome = await send({ endpoint: 'https://forms.example/f/f_abc', key: 'edgeform_k', data });
    expect(outcome.ok).toBe(true);
    expect(spy.mock.calls[0]?.[0]).toBe('https://forms.example/f/f_abc');
    expect(spy.mock.calls[0]?.[1]?.body).toBe(data);
    const headers = calls[0]?.headers;
    expect(headers?.get('Accept')).toBe('application/json');
    expect(headers?.get('Authorization')).toBeNull();
    expect(headers?.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(headers?.get('Content-Type')).toBeNull();
  });

  it('a multipart send that gets no answer is sent again, with the same Idempotency-Key and body', async () => {
    vi.useFakeTimers();
    const { calls, spy } = fakeFetch(new TypeError('network down'), envelope(201));
    const data = new FormData();
    const pending = send({ endpoint: 'https://forms.example/f/f_abc', key: 'k', data });
    await vi.runAllTimersAsync();
    expect((await pending).ok).toBe(true);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.headers.get('Idempotency-Key')).toBe(calls[0]?.headers.get('Idempotency-Key'));
    expect(spy.mock.calls[1]?.[1]?.body).toBe(data);
  });
});

describe("C39: the widget's token", () => {
  const issued = () =>
    new Response(JSON.stringify({ data: { token: 't', expiresAt: '2026-11-28T12:00:00.000Z' } }), {
      status: 200,
    });

  it('refused (many people behind one address), is asked for once more 2 to 5 s later', async () => {
    vi.useFakeTimers();
    const { calls } = fakeFetch(envelope(429), issued());
    const pending = ask('https://forms.example/api/v1/widget-token', { key: 'k' });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3_001);
    expect(calls).toHaveLength(2);
    expect(await pending).toEqual({ token: 't', expiresAt: '2026-11-28T12:00:00.000Z' });
  });

  it('once more only: twice refused or unreachable, the form goes without it', async () => {
    vi.useFakeTimers();
    const { calls } = fakeFetch(new Error('offline'), envelope(503));
    const pending = ask('https://forms.example/api/v1/widget-token', { key: 'k' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await pending).toBeUndefined();
    expect(calls).toHaveLength(2);
  });
});
