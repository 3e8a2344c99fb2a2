// C26, C36, C38: the one HTTP client of every delivery, whoever it goes to (a webhook, a chat, an
// integration's API): no redirect ever followed, the attempt's time-out, at most a few KiB of the
// answer read, a 429's Retry-After kept; and what a status means for the delivery, by the rules the
// channel gives. A network error is an answer without a status.
import { errorText } from '../lib/faults.ts';
import { readAtMost } from '../lib/stream.ts';
import { type Answer, ATTEMPT_TIMEOUT_MS, retryAfterSeconds } from './answer.ts';

/** What a request is made with: the fetch to use (a test's, or the platform's) and the attempt's time. */
export type HttpContext = { fetch: typeof fetch; now: Date };

/** What a service answered: its status, its body as JSON when it is, an excerpt, and a 429's wait. */
export type Reply = Answer & { json: unknown };

/**
 * The result of an attempt, as every delivery records it: `final`, never retried (the request itself
 * is wrong); `disable`, the receiver said the target is gone (C26's 410, C36's deleted hook) or
 * refused its credentials or destination (C38), and the target is disabled.
 */
export type AttemptResult = Answer & { ok: boolean; final?: boolean; disable?: 'gone' | 'refused' };

/** At most this much of an answer is read (an integration's JSON, say), and this much of it kept. */
const READ_LIMIT = 64 * 1024;
const EXCERPT = 200;

/** The body read (at most `limit` bytes, the rest cancelled) as text; '' when unreadable. */
async function bodyText(res: Response, limit: number): Promise<string> {
  if (res.body === null) return '';
  try {
    return new TextDecoder().decode((await readAtMost(res.body, limit)).bytes.subarray(0, limit));
  } catch {
    return '';
  }
}

/**
 * One request. `json`: only when the caller reads the answer (an integration's API); a webhook's
 * answer is only excerpted, so its first 4 KiB are all that is read.
 */
export async function httpRequest(
  ctx: HttpContext,
  url: string,
  init: {
    method: 'GET' | 'POST' | 'PUT';
    headers?: Record<string, string>;
    body?: string;
    json?: boolean;
  },
): Promise<Reply> {
  // Called on its own, never as ctx's method: workerd's fetch refuses any other `this`.
  const fetchImpl = ctx.fetch;
  try {
    const res = await fetchImpl(url, {
      method: init.method,
      headers: {
        'User-Agent': 'edge-forms',
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: init.body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    const text = await bodyText(res, init.json === true ? READ_LIMIT : 4096);
    let json: unknown;
    if (init.json === true) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const retryAfter =
      res.status === 429 ? retryAfterSeconds(res.headers.get('Retry-After'), ctx.now.getTime()) : undefined;
    return {
      status: res.status,
      error: null,
      excerpt: text === '' ? null : text.slice(0, EXCERPT),
      json,
      ...(retryAfter === undefined ? {} : { retryAfter }),
    };
  } catch (cause) {
    return { status: null, error: errorText(cause, 200), excerpt: null, json: undefined };
  }
}

/**
 * How a channel reads a status: `disableOn`, the statuses that disable the target (and why);
 * `wrong4xx`, any other 4xx but 408 and 429 is final (the request itself is wrong); `quotaSeconds`,
 * the wait of a 429 that gives none. Everything else but 2xx is retried.
 */
export type StatusRules = {
  disableOn: readonly number[];
  because: 'gone' | 'refused';
  wrong4xx?: boolean;
  quotaSeconds?: number;
};

/** What an answer means for the delivery, by the channel's rules. */
export function meaning(reply: Reply, rules: StatusRules): AttemptResult {
  const { json: _, ...answer } = reply;
  const status = reply.status;
  if (status !== null && status >= 200 && status < 300) return { ...answer, ok: true };
  if (status !== null && rules.disableOn.includes(status)) {
    return { ...answer, ok: false, disable: rules.because };
  }
  if (status === 429 && rules.quotaSeconds !== undefined) {
    return { ...answer, ok: false, retryAfter: reply.retryAfter ?? rules.quotaSeconds };
  }
  if (rules.wrong4xx === true && status !== null && status >= 400 && status < 500 && status !== 408) {
    return { ...answer, ok: false, final: true };
  }
  return { ...answer, ok: false };
}

/** C38: a real API URL, or the same path on the stand-in when one is set (local development, tests). */
export function apiUrl(real: string, apiBase: string | undefined): string {
  if (apiBase === undefined) return real;
  const url = new URL(real);
  return `${apiBase}${url.pathname}${url.search}`;
}

const sleeps = new Map<string, number>();

/**
 * Keeps requests to one service account or base at least `intervalMs` apart in this isolate (a
 * service's per-project quota: Google's 300 writes a minute, Airtable's 5 requests a second), by
 * waiting for the next free slot.
 */
export async function paced(key: string, intervalMs: number): Promise<void> {
  const now = Date.now();
  const next = Math.max(now, sleeps.get(key) ?? 0);
  sleeps.set(key, next + intervalMs);
  if (sleeps.size > 1000) sleeps.clear();
  if (next > now) await new Promise((resolve) => setTimeout(resolve, next - now));
}
