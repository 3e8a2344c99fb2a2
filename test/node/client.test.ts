// The client package (client/src/index.ts) against stand-ins of the worker: what it sends, how it
// reads a success and a failure (C3, C43), how it retries (C20: one Idempotency-Key a submission)
// and where files go (C29, C30). Its run against the real worker is test/client.test.ts.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient, retryDelay } from '../../client/src/index.ts';

const ENDPOINT = 'https://forms.example/api/v1/submit';
const KEY = 'edgeform_pk_0123456789abcdefghijklmnopqrstuv';

type Answer = Response | Error | 'hang';
type Call = { url: string; init: RequestInit; headers: Headers };

/** A fetch that gives its answers in turn and records each request; `hang` answers never (until aborted). */
function standIn(...answers: Answer[]) {
  const calls: Call[] = [];
  const fetch = (url: string, init: RequestInit): Promise<Response> => {
    calls.push({ url, init, headers: new Headers(init.headers) });
    const answer = answers.shift() ?? 'hang';
    if (answer === 'hang') {
      return new Promise((_, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    }
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  return { fetch, calls };
}

/** The worker's envelope (C1). */
function reply(status: number, data: Record<string, unknown>, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ data, status: { code: status, message: 'Reason' } }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

const CREATED = () => reply(201, { message: 'Submission received' });
const UNAVAILABLE = () =>
  reply(
    503,
    { message: 'Storage failed', error: { message: 'Service temporarily unavailable', code: 'unavailable' } },
    { 'Retry-After': '5' },
  );

type Contact = { email: string; age?: number; cv?: Blob; subscribe?: boolean; note?: string | null };

describe('the client: one submission and its result', () => {
  it('C20: a success is { ok: true }; JSON goes to the endpoint with the key, its type and an Idempotency-Key', async () => {
    const { fetch, calls } = standIn(CREATED());
    const client = createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch });
    expect(await client.submit({ email: 'ada@example.com', age: 36 })).toEqual({ ok: true });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe(ENDPOINT);
    expect(call?.init.method).toBe('POST');
    expect(call?.headers.get('Authorization')).toBe(`Bearer ${KEY}`);
    expect(call?.headers.get('Content-Type')).toBe('application/json');
    expect(call?.headers.get('Idempotency-Key')).toMatch(/^[\x21-\x7e]{1,255}$/);
    expect(JSON.parse(String(call?.init.body))).toEqual({ email: 'ada@example.com', age: 36 });
  });

  it('C20: each submission has an Idempotency-Key of its own, or the one the caller gives', async () => {
    const { fetch, calls } = standIn(CREATED(), CREATED(), CREATED());
    const client = createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch });
    await client.submit({ email: 'a@example.com' });
    await client.submit({ email: 'a@example.com' });
    await client.submit({ email: 'a@example.com' }, { idempotencyKey: 'order-42' });
    const keys = calls.map((c) => c.headers.get('Idempotency-Key'));
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('order-42');
  });

  it('C12, C43: a validation failure gives each field its problems by name, in order, with code and params', async () => {
    const { fetch } = standIn(
      reply(400, {
        message: 'Validation failed',
        errors: [
          "Field 'email' must be an email address",
          "Field 'age' must be at least 18",
          "Field '__proto__' is not defined for this project",
          "Field 'email' is required",
        ],
        issues: [
          { field: 'email', code: 'format', params: { format: 'email' } },
          { field: 'age', code: 'min', params: { min: 18 } },
          { field: '__proto__', code: 'unknown_field' },
          { field: 'email', code: 'required' },
        ],
      }),
    );
    const result = await createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch }).submit({
      email: 'nope',
      age: 12,
    });
    expect(result).toEqual({
      ok: false,
      status: 400,
      code: 'validation_failed',
      message: 'Validation failed',
      fieldErrors: {
        email: [
          { code: 'format', message: "Field 'email' must be an email address", params: { format: 'email' } },
          { code: 'required', message: "Field 'email' is required" },
        ],
        age: [{ code: 'min', message: "Field 'age' must be at least 18", params: { min: 18 } }],
        ['__proto__']: [
          { code: 'unknown_field', message: "Field '__proto__' is not defined for this project" },
        ],
      },
    });
    // C13: `__proto__` is a field like any other, never the object's prototype.
    expect(Object.getPrototypeOf(result.ok ? {} : result.fieldErrors)).toBe(Object.prototype);
  });

  it('C43: a single cause gives its code and its message, and no field errors', async () => {
    const { fetch } = standIn(
      reply(401, {
        message: 'Authentication failed',
        error: { message: 'Invalid API key', code: 'invalid_key' },
      }),
    );
    expect(
      await createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch }).submit({ email: 'a@b.c' }),
    ).toEqual({ ok: false, status: 401, code: 'invalid_key', message: 'Invalid API key', fieldErrors: {} });
  });

  it('C21: 429 is not retried; its Retry-After is given as retryAfter', async () => {
    const { fetch, calls } = standIn(
      reply(
        429,
        { message: 'Too many requests', error: { message: 'Rate limit exceeded', code: 'rate_limited' } },
        { 'Retry-After': '30' },
      ),
    );
    const result = await createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch }).submit({
      email: 'a@b.c',
    });
    expect(result).toMatchObject({ ok: false, status: 429, code: 'rate_limited', retryAfter: 30 });
    expect(calls).toHaveLength(1);
  });

  it('a reply that is not the worker’s envelope is a failure with its status, and no code', async () => {
    const { fetch } = standIn(
      new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' }),
    );
    expect(
      await createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch }).submit({ email: 'a@b.c' }),
    ).toEqual({ ok: false, status: 502, message: 'Bad Gateway', fieldErrors: {} });
  });
});

describe('the client: retries (C18, C20)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the backoff is 500·2^attempt ms, Retry-After when given, and never over 10 s', () => {
    expect([1, 2, 3].map((attempt) => retryDelay(undefined, attempt))).toEqual([1000, 2000, 4000]);
    expect(retryDelay(3, 1)).toBe(3000);
    expect(retryDelay(120, 1)).toBe(10_000);
  });

  it('503 and 409 are retried with the same Idempotency-Key, after Retry-After or the backoff, until a success', async () => {
    const { fetch, calls } = standIn(
      reply(503, { message: 'x', error: { message: 'y', code: 'unavailable' } }, { 'Retry-After': '3' }),
      reply(409, { message: 'x', error: { message: 'y', code: 'in_progress' } }),
      CREATED(),
    );
    const pending = createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch }).submit({ email: 'a@b.c' });
    await vi.advanceTimersByTimeAsync(2999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    // No Retry-After on the 409: the second attempt's backoff, 2 s.
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ ok: true });
    expect(new Set(calls.map((c) => c.headers.get('Idempotency-Key'))).size).toBe(1);
    expect(calls.map((c) => c.init.body)).toEqual(Array(3).fill('{"email":"a@b.c"}'));
  });

  it('a Retry-After over 10 s is waited 10 s', async () => {
    const { fetch, calls } = standIn(
      reply(503, { message: 'x', error: { message: 'y', code: 'unavailable' } }, { 'Retry-After': '120' }),
      CREATED(),
    );
    const pending = createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch }).submit({ email: 'a@b.c' });
    await vi.advanceTimersByTimeAsync(9999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ ok: true });
  });

  it('after four attempts answered 503, the last answer is the result', async () => {
    const { fetch, calls } = standIn(UNAVAILABLE(), UNAVAILABLE(), UNAVAILABLE(), UNAVAILABLE());
    const pending = createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch }).submit({ email: 'a@b.c' });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await pending).toEqual({
      ok: false,
      status: 503,
      code: 'unavailable',
      message: 'Service temporarily unavailable',
      fieldErrors: {},
      retryAfter: 5,
    });
    expect(calls).toHaveLength(4);
  });

  it('a network error is retried (1 s, 2 s, 4 s); after the fourth it resolves to status 0, network_error', async () => {
    const { fetch, calls } = standIn(
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
    );
    const pending = createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch }).submit({ email: 'a@b.c' });
    const seen: number[] = [];
    for (let ms = 0; ms <= 7000; ms += 500) {
      await vi.advanceTimersByTimeAsync(ms === 0 ? 0 : 500);
      seen.push(calls.length);
    }
    // Attempts at 0, 1 s, 3 s and 7 s.
    expect(seen).toEqual([1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 4]);
    expect(await pending).toEqual({
      ok: false,
      status: 0,
      code: 'network_error',
      message: 'fetch failed',
      fieldErrors: {},
    });
    expect(new Set(calls.map((c) => c.headers.get('Idempotency-Key'))).size).toBe(1);
  });

  it('an attempt not answered within timeoutMs is abandoned and retried; a network error after the last', async () => {
    const { fetch, calls } = standIn('hang', 'hang', 'hang', 'hang');
    const pending = createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch, timeoutMs: 100 }).submit({
      email: 'a@b.c',
    });
    await vi.advanceTimersByTimeAsync(100 + 1000 + 100 + 2000 + 100 + 4000 + 100);
    expect(await pending).toEqual({
      ok: false,
      status: 0,
      code: 'network_error',
      message: 'The worker did not answer in time',
      fieldErrors: {},
    });
    expect(calls).toHaveLength(4);
    expect(calls.every((c) => c.init.signal?.aborted)).toBe(true);
  });

  it('the caller’s abort rejects with its reason: during an attempt, during a wait, or before the first', async () => {
    const reason = new DOMException('The visitor left', 'AbortError');

    const during = standIn('hang');
    const first = new AbortController();
    const pending = createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch: during.fetch }).submit(
      { email: 'a@b.c' },
      { signal: first.signal },
    );
    first.abort(reason);
    await expect(pending).rejects.toBe(reason);

    const waiting = standIn(UNAVAILABLE(), CREATED());
    const second = new AbortController();
    const paused = createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch: waiting.fetch }).submit(
      { email: 'a@b.c' },
      { signal: second.signal },
    );
    const settled = expect(paused).rejects.toBe(reason);
    await vi.advanceTimersByTimeAsync(1000);
    second.abort(reason);
    await settled;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(waiting.calls).toHaveLength(1);

    const never = standIn(CREATED());
    await expect(
      createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch: never.fetch }).submit(
        { email: 'a@b.c' },
        { signal: AbortSignal.abort(reason) },
      ),
    ).rejects.toBe(reason);
    expect(never.calls).toHaveLength(0);
  });
});

describe('the client: files (C29, C30)', () => {
  const FORM_ID = 'f_k3xq7m2p9r4t';

  it('a FormData goes as multipart to the form address, with Accept: application/json and no key', async () => {
    const { fetch, calls } = standIn(CREATED());
    const form = new FormData();
    form.append('email', 'ada@example.com');
    form.append('cv', new File(['%PDF-1.7'], 'cv.pdf', { type: 'application/pdf' }));
    const client = createClient<Contact>({ endpoint: ENDPOINT, key: KEY, formId: FORM_ID, fetch });
    expect(await client.submit(form)).toEqual({ ok: true });
    const [call] = calls;
    expect(call?.url).toBe(`https://forms.example/f/${FORM_ID}`);
    expect(call?.headers.get('Accept')).toBe('application/json');
    expect(call?.headers.get('Idempotency-Key')).toBeTruthy();
    expect(call?.headers.has('Authorization')).toBe(false);
    // The multipart boundary is fetch's to write.
    expect(call?.headers.has('Content-Type')).toBe(false);
    expect(call?.init.body).toBe(form);
  });

  it('values holding a File go as multipart: each value as text (a boolean as true/false), absent ones left out', async () => {
    const { fetch, calls } = standIn(CREATED());
    const client = createClient<Contact>({ endpoint: ENDPOINT, key: KEY, formId: FORM_ID, fetch });
    const cv = new File(['%PDF-1.7'], 'My CV.pdf', { type: 'application/pdf' });
    await client.submit({ email: 'ada@example.com', age: 36, subscribe: false, note: null, cv });
    const [call] = calls;
    expect(call?.url).toBe(`https://forms.example/f/${FORM_ID}`);
    // On the wire, as the form address reads it.
    const sent = await new Request(call?.url ?? '', {
      method: 'POST',
      body: call?.init.body ?? null,
    }).formData();
    expect([...sent.keys()]).toEqual(['email', 'age', 'subscribe', 'cv']);
    expect(sent.get('age')).toBe('36');
    expect(sent.get('subscribe')).toBe('false');
    const file = sent.get('cv') as File;
    expect(file.name).toBe('My CV.pdf');
    expect(await file.text()).toBe('%PDF-1.7');
  });

  it('files without the client’s formId are refused before anything is sent', async () => {
    const { fetch, calls } = standIn(CREATED());
    const client = createClient<Contact>({ endpoint: ENDPOINT, key: KEY, fetch });
    await expect(client.submit(new FormData())).rejects.toThrow(TypeError);
    await expect(client.submit({ email: 'a@b.c', cv: new Blob(['x']) })).rejects.toThrow(/formId/);
    await expect(client.submit({ email: 'a@b.c', cv: [new Blob(['x'])] } as never)).rejects.toThrow(/formId/);
    expect(calls).toHaveLength(0);
  });
});

describe('the client over HTTP', () => {
  it('C18, C20: a 503 is retried over a real connection with the same Idempotency-Key and body, then succeeds', async () => {
    const seen: { key: string | undefined; body: string }[] = [];
    const server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      seen.push({ key: req.headers['idempotency-key'] as string | undefined, body });
      const [status, data, headers] =
        seen.length === 1
          ? [
              503,
              { message: 'x', error: { message: 'Service temporarily unavailable', code: 'unavailable' } },
              { 'Retry-After': '1' },
            ]
          : [201, { message: 'Submission received' }, {}];
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify({ data, status: { code: status, message: 'Reason' } }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const client = createClient<Contact>({ endpoint: `http://127.0.0.1:${port}/api/v1/submit`, key: KEY });
      expect(await client.submit({ email: 'ada@example.com' })).toEqual({ ok: true });
      expect(seen).toHaveLength(2);
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[0]?.key).toBeTruthy();
    } finally {
      server.close();
    }
  });
});
