// @edge-forms/client: sends a submission to edge-forms and resolves to what came of it, with each
// field's problems by name and code (C43). It uses only what browsers, Node, Deno and Workers all
// have (fetch, FormData, Blob, crypto, AbortController, setTimeout), and carries no message text of
// its own: the visitor's sentences live in `@edge-forms/client/messages`, loaded only by who needs them.

/** One problem of a field: its code (C43), the worker's English text, the broken rule's parameters. */
export type FieldError = { code: string; message: string; params?: Record<string, unknown> };

/** Each field's problems, by field name, in the order the worker reported them (C12). */
export type FieldErrors<T> = Partial<Record<keyof T, FieldError[]>>;

/**
 * A submission that was not stored. `status` is the HTTP status, or 0 when the worker could not be
 * reached (then `code` is `network_error`). `code` is the cause's code (C43): `validation_failed`
 * when fields broke their rules (their problems are in `fieldErrors`), absent only for a reply that
 * is not the worker's. `retryAfter` is the Retry-After header's seconds (429, 503), when given.
 */
export type SubmitFailure<T> = {
  ok: false;
  status: number;
  code?: string;
  message: string;
  fieldErrors: FieldErrors<T>;
  retryAfter?: number;
};

export type SubmitResult<T> = { ok: true } | SubmitFailure<T>;

export type ClientOptions = {
  /** The JSON endpoint, e.g. `https://forms.example/api/v1/submit`. */
  endpoint: string;
  /** The project's publishable key (`edgeform_pk_…`). */
  key: string;
  /** The project's form id (`f_…`): needed to send files, which go to the form address `/f/<formId>`. */
  formId?: string;
  /** A fetch of your own (a test's stand-in, a service binding's); the global one otherwise. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** How long one attempt may take, its answer read, before it is abandoned and retried (15 s). */
  timeoutMs?: number;
};

export type SubmitOptions = {
  /** The submission's Idempotency-Key (C20): one of yours, else a random one. */
  idempotencyKey?: string;
  /** Aborting it stops the submission: `submit` then rejects with the signal's reason. */
  signal?: AbortSignal;
};

export type Client<T> = {
  submit(values: T | FormData, options?: SubmitOptions): Promise<SubmitResult<T>>;
};

type Envelope = {
  data?: {
    message?: string;
    error?: { message?: string; code?: string };
    errors?: string[];
    issues?: { field: string; code: string; params?: Record<string, unknown> }[];
  };
};

const MAX_ATTEMPTS = 4;

/** Retry-After's seconds, else a backoff of 500·2^attempt ms (1 s, 2 s, 4 s); at most 10 s either way. */
export function retryDelay(retryAfter: number | undefined, attempt: number): number {
  return Math.min(retryAfter ? retryAfter * 1000 : 500 * 2 ** attempt, 10_000);
}

/** A random Idempotency-Key; randomUUID exists only on secure (HTTPS or localhost) pages. */
function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

const isBlob = (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;

/**
 * C29, C30: values with a file, as a form sends them; the form address converts each text by its
 * field's type (a boolean from `true`/`false`, a number from its digits). Absent values are left out.
 */
function toFormData(values: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item == null) continue;
      form.append(name, isBlob(item) ? item : typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  return form;
}

const seconds = (res: Response) => Number(res.headers.get('Retry-After')) || undefined;

/** Resolves after `ms`, or rejects with the signal's reason as soon as it is aborted. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}

/** The worker's reply as a result: a failure's cause and its fields' problems (C3, C43). */
function toResult<T>(res: Response, reply: Envelope): SubmitResult<T> {
  if (res.ok) return { ok: true };
  const data = reply.data ?? {};
  const fieldErrors: Record<string, FieldError[]> = {};
  (data.errors ?? []).forEach((message, i) => {
    const issue = data.issues?.[i];
    if (!issue) return;
    const { field, code, params } = issue;
    // A Map would do too; an own array per name, so that `__proto__` is an ordinary field (C13).
    if (!Object.hasOwn(fieldErrors, field))
      Object.defineProperty(fieldErrors, field, { value: [], enumerable: true });
    fieldErrors[field]?.push(params ? { code, message, params } : { code, message });
  });
  const failure: SubmitFailure<T> = {
    ok: false,
    status: res.status,
    message: data.error?.message ?? data.message ?? (res.statusText || `HTTP ${res.status}`),
    fieldErrors: fieldErrors as FieldErrors<T>,
  };
  const code = data.error?.code ?? (data.errors ? 'validation_failed' : undefined);
  if (code) failure.code = code;
  const retryAfter = seconds(res);
  if (retryAfter) failure.retryAfter = retryAfter;
  return failure;
}

/**
 * A client for one project. `submit` posts one submission: JSON to `endpoint` with the key, or, for
 * a FormData or values holding a File or Blob, multipart to the form address `/f/<formId>` (C29,
 * C30), which needs no key. A network error, an attempt not answered (and read) within `timeoutMs`,
 * 409 (its first request is still being saved) or 503 is retried up to 4 attempts in all, with
 * backoff, honouring Retry-After, under the same Idempotency-Key (C20): a retry of a submission that
 * did arrive is answered from it, never stored twice. It resolves to a failure for every reply that
 * is not a success, and to `{ ok: false, status: 0, code: 'network_error' }` when the last attempt
 * found no answer; it rejects only when the caller's signal aborts it, or when files are sent
 * without a `formId`.
 */
export function createClient<T extends Record<string, unknown>>(options: ClientOptions): Client<T> {
  const send = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 15_000;

  return {
    async submit(values, { idempotencyKey = newKey(), signal } = {}) {
      const multipart =
        values instanceof FormData ||
        Object.values(values).some((value) => isBlob(value) || (Array.isArray(value) && value.some(isBlob)));
      if (multipart && !options.formId)
        throw new TypeError('Files need the client’s formId: they go to /f/<formId>');
      const url = multipart ? new URL(`/f/${options.formId}`, options.endpoint).href : options.endpoint;
      const headers: Record<string, string> = multipart
        ? { Accept: 'application/json', 'Idempotency-Key': idempotencyKey }
        : {
            Authorization: `Bearer ${options.key}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': idempotencyKey,
          };
      const body =
        values instanceof FormData ? values : multipart ? toFormData(values) : JSON.stringify(values);

      for (let attempt = 1; ; attempt++) {
        signal?.throwIfAborted();
        // Each attempt has its own time-out over the answer and its body: a stalled connection must
        // not leave a form "Sending…" for good. The caller's abort ends it too.
        const attemptAbort = new AbortController();
        const stop = () => attemptAbort.abort(signal?.reason);
        signal?.addEventListener('abort', stop, { once: true });
        const timer = setTimeout(
          () => attemptAbort.abort(new Error('The worker did not answer in time')),
          timeoutMs,
        );
        let delay: number;
        try {
          const res = await send(url, { method: 'POST', headers, body, signal: attemptAbort.signal });
          if ((res.status === 409 || res.status === 503) && attempt < MAX_ATTEMPTS) {
            await res.body?.cancel().catch(() => {});
            delay = retryDelay(seconds(res), attempt);
          } else {
            const reply = (await res.json().catch((err: unknown) => {
              if (attemptAbort.signal.aborted) throw err;
              return {};
            })) as Envelope;
            return toResult<T>(res, reply);
          }
        } catch (err) {
          signal?.throwIfAborted();
          if (attempt >= MAX_ATTEMPTS) {
            const reason = attemptAbort.signal.aborted ? attemptAbort.signal.reason : err;
            return {
              ok: false,
              status: 0,
              code: 'network_error',
              message: reason instanceof Error ? reason.message : String(reason),
              fieldErrors: {},
            };
          }
          delay = retryDelay(undefined, attempt);
        } finally {
          clearTimeout(timer);
          signal?.removeEventListener('abort', stop);
        }
        await sleep(delay, signal);
      }
    },
  };
}
