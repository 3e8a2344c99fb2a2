// C32, C39: the operator's secret, in one place: `ADMIN_TOKEN` read and checked (long enough), the
// widget's own key that stands in for it (`WIDGET_KEY`, and the key before a rotation), each key
// derived from a secret for one purpose (HKDF-SHA-256, one label per purpose, so that no two uses
// ever share a key), and secrets compared in constant time. On a form post's path (a widget token
// is checked with it), so what only the management API says of a refused token is said there
// (api/manage/principal.ts logs it).
import { TOKEN_LENGTH } from '../lib/hex.ts';

const encoder = new TextEncoder();

/** A secret long enough to be one (32 random bytes, C32), or undefined. */
const longEnough = (secret: string | undefined) =>
  secret !== undefined && secret.length >= TOKEN_LENGTH ? secret : undefined;

/** The operator token, if one is set and long enough (a short one is refused: none). */
export const operatorToken = (env: { ADMIN_TOKEN?: string }): string | undefined =>
  longEnough(env.ADMIN_TOKEN);

/** After a rotation of the widget's key, what the previous key signed is accepted for this long. */
export const ROTATION_MS = 24 * 60 * 60_000;

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
  const current = longEnough(env.WIDGET_KEY) ?? operatorToken(env);
  if (current === undefined) return undefined;
  const [at = '', key] = (env.WIDGET_KEY_PREVIOUS ?? '').trim().split(/\s+/, 2);
  const rotated = Date.parse(at);
  const previous = longEnough(key);
  if (
    previous === undefined ||
    previous === current ||
    !Number.isFinite(rotated) ||
    now > rotated + ROTATION_MS
  )
    return { current };
  return { current, previous: { key: previous, until: rotated } };
}

/**
 * What a key is derived for, by its HKDF label: each purpose its own, so that no two uses share a
 * key. A label is part of what a deployed worker signs with, so changing one makes what open pages
 * hold (a widget's token, a challenge) invalid: a new purpose gets a new label, an old one is never
 * reworded. A type alone: the form post's path carries no label it does not use.
 */
export type Purpose = 'edge-forms widget token' | 'edge-forms proof of work' | 'edge-forms proof of work key';

// Per isolate: what was derived from the secret (a rotation derives it all again), each made once,
// so that a form post derives nothing once warm.
let kept: { secret: string; made: Map<string, Promise<unknown>> } | undefined;
function once<T>(secret: string, what: string, make: () => Promise<T>): Promise<T> {
  if (kept?.secret !== secret) kept = { secret, made: new Map() };
  let made = kept.made.get(what) as Promise<T> | undefined;
  if (made === undefined) {
    made = make();
    kept.made.set(what, made);
  }
  return made;
}

/** 256 bits for one purpose, derived from a secret by HKDF-SHA-256 (no salt: the secret is random). */
export const derivedBits = (secret: string, purpose: Purpose): Promise<Uint8Array<ArrayBuffer>> =>
  once(secret, purpose, async () => {
    const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveBits']);
    const info = encoder.encode(purpose);
    const hkdf = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info };
    return new Uint8Array(await crypto.subtle.deriveBits(hkdf, base, 256));
  });

/** An HMAC-SHA-256 signing key of one purpose's derived bits, imported once per isolate. */
export const hmacKey = (secret: string, purpose: Purpose): Promise<CryptoKey> =>
  once(secret, `HMAC ${purpose}`, async () =>
    crypto.subtle.importKey(
      'raw',
      await derivedBits(secret, purpose),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    ),
  );

/**
 * Two secrets equal, compared as SHA-256 digests in constant time: neither their length nor where
 * they first differ shows in the time taken (every byte of the two digests is looked at). Written
 * without workerd's `timingSafeEqual`, so that the tools and Node's tests run the same comparison.
 */
export async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all(
    [given, expected].map(
      async (t) => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(t))),
    ),
  );
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= (a?.[i] ?? 0) ^ (b?.[i] ?? 0);
  return diff === 0;
}
