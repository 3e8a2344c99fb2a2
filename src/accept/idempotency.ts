// C20: Idempotency-Key. The key and a hash of the body are stored with the submission, in the same
// write (a unique index on project and key), so a new key costs no extra round trip. This module
// holds what is per isolate: the form of a key, and which keys have a first request being saved.

import { idempotencyKeyReused, inProgress, invalidIdempotencyKey, spamCheckFailed } from '../http/replies.ts';
import { toHex } from '../lib/hex.ts';

/** 1–255 printable ASCII characters (a header value arrives without surrounding spaces). */
const KEY_FORM = /^[\x20-\x7e]{1,255}$/;

/** The header's value, undefined when absent; a malformed one is a 400 (C20, with step 5 of C5). */
export function parseIdempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!KEY_FORM.test(value)) throw invalidIdempotencyKey();
  return value;
}

/** SHA-256 of the body's bytes, as sent: a retry sends the same bytes. */
export async function bodyHash(bytes: BufferSource): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

/**
 * The answer to a request whose key was stored by a first request: nothing to throw means replay
 * that first one's 201 (the same body); another body is 422. `spentToken`: this request's Turnstile
 * token was redeemed already, which passes only as the retry of the very request that redeemed it.
 * No first request found (stored a moment ago in another isolate and purged since: rare enough to
 * ask for a retry): 409.
 */
export function replayFirst(
  first: { bodyHash: string | null } | undefined,
  hash: string,
  spentToken: boolean,
): void {
  if (spentToken && first?.bodyHash !== hash) throw spamCheckFailed();
  if (first === undefined) throw inProgress();
  if (first.bodyHash !== hash) throw idempotencyKeyReused();
}

/** How long a request waits for the first request with its key, in this isolate, to finish. */
const WAIT_MS = 3_000;
/** A claim older than this was lost with its request. */
const STALE_MS = 30_000;

/** At most this many claims are held; past it the oldest goes (it is stale, or near enough). */
export const MAX_CLAIMS = 10_000;

// Project and key → when the request now saving it began, oldest first. Plain shared state,
// polled: a request must not await another request's promise in Workers (see src/lib/group-commit.ts).
// A request whose `finally` never runs (its invocation cancelled) leaves its claim behind: claims
// older than STALE_MS are swept on every new claim, and the map never holds more than MAX_CLAIMS.
const claims = new Map<string, number>();

function sweep(now: number): void {
  for (const [slot, since] of claims) {
    if (now - since <= STALE_MS && claims.size < MAX_CLAIMS) break;
    claims.delete(slot);
  }
}

/** Claims held now, for tests and diagnostics. */
export function claimsHeld(): number {
  return claims.size;
}

/**
 * Claims the key for this request. A request whose key another request in this isolate is saving
 * waits for it (a double click, a quick retry), so that it can be answered with the first one's
 * outcome; if the first is still going after a few seconds, 409. Once the first is done, the rows
 * in D1 decide (its row is there, or it failed and stored nothing), so those that waited go on
 * together without claiming: the unique index lets one row in and the others replay it. Returns
 * the release.
 */
export async function claimKey(projectId: string, key: string, now = Date.now()): Promise<() => void> {
  const slot = `${projectId}\n${key}`;
  const deadline = now + WAIT_MS;
  let waited = false;
  for (;;) {
    const since = claims.get(slot);
    if (since === undefined || Math.max(now, Date.now()) - since > STALE_MS) break;
    if (Date.now() >= deadline) throw inProgress();
    waited = true;
    await scheduler.wait(2);
  }
  if (waited) return () => {};
  const mine = Math.max(now, Date.now());
  sweep(mine);
  // Deleted first, so that the map stays in the order claims were made (the sweep relies on it).
  claims.delete(slot);
  claims.set(slot, mine);
  return () => {
    if (claims.get(slot) === mine) claims.delete(slot);
  };
}

/** Keys are kept (and replayed) for at least this long, then purged by the hourly job. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
