// What every delivery attempt comes back with, whoever it went to (a webhook, a chat, C38's
// integrations): its status or network error, an excerpt, and a 429's wait; and how long any
// receiver is given to answer.

/** A receiver gets this long to answer; longer is a failed attempt. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export type Answer = {
  status: number | null;
  error: string | null;
  excerpt: string | null;
  /** A 429's `Retry-After`, in seconds. */
  retryAfter?: number;
};

/** The seconds a 429's `Retry-After` asks for (a number of seconds, or an HTTP date), if any. */
export function retryAfterSeconds(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const seconds = /^\d+(?:\.\d+)?$/.test(header.trim()) ? Number(header) : (Date.parse(header) - now) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
}
