// C39: the widget's token: proof that a submission came through a page that ran /widget.js, and
// since when. `<start>.<issued>.<nonce>.<mac>`: the time the form was first seen (kept when the
// widget renews a token), the time this token was issued (both in milliseconds, base 36), a random
// nonce, and an HMAC of the project and all three under a key derived from the widget's own key
// (WIDGET_KEY, else the operator token). Issued and checked in the isolate: no D1. Its reuse is
// found after the store, by the consumer (the nonce is unique in spam_nonces). C39: a rotated key
// goes on being accepted for a day for what it signed before (WIDGET_KEY_PREVIOUS).
import { TOKEN_LENGTH, toBase64url } from '../lib/hex.ts';
import type { TokenState } from '../spam/sender.ts';

/** A token is good for this long after it was issued; the widget renews an older one. */
export const TOKEN_LIFETIME_MS = 60 * 60_000;
/** A renewed token keeps its first time for at most this long: a page open for days starts over. */
export const MAX_CARRY_MS = 24 * 60 * 60_000;
/** The clocks of two isolates may differ by this much. */
const SKEW_MS = 60_000;
const MAC_BYTES = 16;
const NONCE_BYTES = 12;

const encoder = new TextEncoder();

/** After a rotation, what the previous key signed is accepted for this long. */
export const ROTATION_MS = 24 * 60 * 60_000;
/**
 * What the previous key signed up to this long after the stated time of the rotation is still its
 * own: the new key takes a few minutes to reach every data centre after it is set.
 */
export const ROTATION_GRACE_MS = 10 * 60_000;

/**
 * The secrets the widget's token and the proof of work are signed with: the widget's own key
 * (WIDGET_KEY), else the operator token (C32), when set and long enough; without either, neither is
 * issued nor checked. C39: beside it, for a day after a rotation, the key before it and when it
 * stopped signing (WIDGET_KEY_PREVIOUS, `<ISO time> <key>`).
 */
export type WidgetKeys = { current: string; previous?: { key: string; until: number } };

export function widgetKeys(
  env: { ADMIN_TOKEN?: string; WIDGET_KEY?: string; WIDGET_KEY_PREVIOUS?: string },
  now: number,
): WidgetKeys | undefined {
  const long = (key: string | undefined) =>
    key !== undefined && key.length >= TOKEN_LENGTH ? key : undefined;
  const current = long(env.WIDGET_KEY) ?? long(env.ADMIN_TOKEN);
  if (current === undefined) return undefined;
  const [at = '', key] = (env.WIDGET_KEY_PREVIOUS ?? '').trim().split(/\s+/, 2);
  const rotated = Date.parse(at);
  const previous = long(key);
  if (
    previous === undefined ||
    previous === current ||
    !Number.isFinite(rotated) ||
    now > rotated + ROTATION_MS
  )
    return { current };
  return { current, previous: { key: previous, until: rotated } };
}

let keyOf: { secret: string; key: Promise<CryptoKey> } | undefined;

/** The HMAC key, derived (HKDF) from the operator's secret once per isolate: nothing else to keep. */
function macKey(secret: string): Promise<CryptoKey> {
  if (keyOf?.secret !== secret) {
    const key = (async () => {
      const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
      return crypto.subtle.deriveKey(
        {
          name: 'HKDF',
          hash: 'SHA-256',
          salt: new Uint8Array(0),
          info: encoder.encode('edge-forms widget token'),
        },
        base,
        { name: 'HMAC', hash: 'SHA-256', length: 256 },
        false,
        ['sign'],
      );
    })();
    keyOf = { secret, key };
  }
  return keyOf.key;
}

async function mac(secret: string, projectId: string, start: string, issued: string, nonce: string) {
  const signed = await crypto.subtle.sign(
    'HMAC',
    await macKey(secret),
    encoder.encode(`${projectId}\n${start}\n${issued}\n${nonce}`),
  );
  return toBase64url(new Uint8Array(signed).slice(0, MAC_BYTES));
}

/** Two strings equal in constant time (for the same length). */
function same(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
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
  if (!same(signature, await mac(secret, projectId, start, issued, nonce))) return undefined;
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
