// C39: the widget's token: proof that a submission came through a page that ran /widget.js, and
// since when. `<start>.<issued>.<nonce>.<mac>`: the time the form was first seen (kept when the
// widget renews a token), the time this token was issued (both in milliseconds, base 36), a random
// nonce, and an HMAC of the project and all three under a key derived from the widget's own key
// (WIDGET_KEY, else the operator token). Issued and checked in the isolate: no D1. Its reuse is
// found after the store, by the consumer (the nonce is unique in spam_nonces). C39: a rotated key
// goes on being accepted for a day for what it signed before (WIDGET_KEY_PREVIOUS).
import { hmacKey, sameSecret, type WidgetKeys } from '../auth/operator-secret.ts';
import { toBase64url } from '../lib/hex.ts';
import type { TokenState } from '../spam/request-signals.ts';

/** A token is good for this long after it was issued; the widget renews an older one. */
export const TOKEN_LIFETIME_MS = 60 * 60_000;
/** A renewed token keeps its first time for at most this long: a page open for days starts over. */
export const MAX_CARRY_MS = 24 * 60 * 60_000;
/** The clocks of two isolates may differ by this much. */
const SKEW_MS = 60_000;
const MAC_BYTES = 16;
const NONCE_BYTES = 12;

const encoder = new TextEncoder();

/**
 * What the previous key signed up to this long after the stated time of the rotation is still its
 * own: the new key takes a few minutes to reach every data centre after it is set.
 */
export const ROTATION_GRACE_MS = 10 * 60_000;

async function mac(secret: string, projectId: string, start: string, issued: string, nonce: string) {
  const signed = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret, 'edge-forms widget token'),
    encoder.encode(`${projectId}\n${start}\n${issued}\n${nonce}`),
  );
  return toBase64url(new Uint8Array(signed).slice(0, MAC_BYTES));
}

export type TokenCheck = {
  state: Exclude<TokenState, 'missing'>;
  /** A signed token's nonce and first time (forged: none). */
  nonce?: string;
  startMs?: number;
  issuedMs?: number;
};

const TOKEN = /^([0-9a-z]{1,11})\.([0-9a-z]{1,11})\.([\w-]{16})\.([\w-]{22})$/;

/** What a token says under one key: undefined when that key did not sign it. */
async function checkWith(
  secret: string,
  projectId: string,
  token: RegExpExecArray,
  now: number,
): Promise<TokenCheck | undefined> {
  const [, start = '', issued = '', nonce = '', signature = ''] = token;
  if (!(await sameSecret(signature, await mac(secret, projectId, start, issued, nonce)))) return undefined;
  const startMs = Number.parseInt(start, 36);
  const issuedMs = Number.parseInt(issued, 36);
  // Signed by us, so never in the future nor started after it was issued, unless clocks disagree.
  if (issuedMs > now + SKEW_MS || startMs > issuedMs) return { state: 'forged' };
  const state = now - issuedMs > TOKEN_LIFETIME_MS ? 'expired' : 'valid';
  return { state, nonce, startMs, issuedMs };
}

/**
 * C39: what a token or a proof says under the current key, else under the previous one if it was
 * signed before that key's rotation (`signedBefore`, given the latest time it may have been signed
 * then: the rotation and the minutes the new key takes to reach everywhere, ROTATION_GRACE_MS);
 * undefined when neither key signed it.
 */
export async function underKeys<T>(
  keys: WidgetKeys,
  check: (secret: string) => Promise<T | undefined>,
  signedBefore: (checked: T, latest: number) => boolean,
): Promise<T | undefined> {
  const current = await check(keys.current);
  if (current !== undefined || keys.previous === undefined) return current;
  const before = await check(keys.previous.key);
  const latest = keys.previous.until + ROTATION_GRACE_MS;
  return before !== undefined && signedBefore(before, latest) ? before : undefined;
}

/** What a token says, for this project, at `now`: signed by us (and still good), too old, or forged. */
export async function checkToken(
  keys: WidgetKeys,
  projectId: string,
  token: string,
  now: number,
): Promise<TokenCheck> {
  const parts = TOKEN.exec(token);
  if (parts === null) return { state: 'forged' };
  const checked = await underKeys(
    keys,
    (secret) => checkWith(secret, projectId, parts, now),
    (t, latest) => t.issuedMs !== undefined && t.issuedMs <= latest,
  );
  return checked ?? { state: 'forged' };
}

/**
 * A new token for the project. Given the token the page holds (renewing it before it expires),
 * the new one keeps its first time, so that the fill time counts from when the form was first seen.
 */
export async function issueToken(
  keys: WidgetKeys,
  projectId: string,
  now: number,
  previous?: string,
): Promise<{ token: string; expiresAt: number }> {
  const secret = keys.current;
  let startMs = now;
  if (previous !== undefined) {
    const old = await checkToken(keys, projectId, previous, now);
    if (old.state !== 'forged' && old.startMs !== undefined && now - old.startMs <= MAX_CARRY_MS)
      startMs = old.startMs;
  }
  const start = startMs.toString(36);
  const issued = now.toString(36);
  const nonce = toBase64url(crypto.getRandomValues(new Uint8Array(NONCE_BYTES)));
  return {
    token: `${start}.${issued}.${nonce}.${await mac(secret, projectId, start, issued, nonce)}`,
    expiresAt: now + TOKEN_LIFETIME_MS,
  };
}
