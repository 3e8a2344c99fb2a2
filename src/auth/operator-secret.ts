// C32, C39: the operator's secret, in one place: `ADMIN_TOKEN` read and checked (long enough, or
// refused with one log line), the widget's own key that stands in for it (`WIDGET_KEY`, and the key
// before a rotation), each key derived from a secret for one purpose (HKDF-SHA-256, one label per
// purpose, so that no two uses ever share a key), and secrets compared in constant time.
import { TOKEN_LENGTH, toHex } from '../lib/hex.ts';

const encoder = new TextEncoder();

let warnedShortToken = false;

/** The operator token, if one is set and long enough; a short one is refused, with one log line. */
export function operatorToken(env: { ADMIN_TOKEN?: string }): string | undefined {
  const token = env.ADMIN_TOKEN;
  if (token === undefined || token === '') return undefined;
  if (token.length < TOKEN_LENGTH) {
    if (!warnedShortToken) {
      warnedShortToken = true;
      console.error(
        JSON.stringify({
          level: 'error',
          event: 'admin-token-refused',
          reason: `ADMIN_TOKEN is shorter than ${TOKEN_LENGTH} characters (32 random bytes): operator sign-in is off until it is replaced`,
        }),
      );
    }
    return undefined;
  }
  return token;
}

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

/**
 * What a key is derived for: each purpose its own HKDF label. A label is part of what a deployed
 * worker signs with, so changing one makes what open pages hold (a widget's token, a challenge)
 * invalid: a new purpose gets a new label, an old one is never reworded.
 */
export const PURPOSES = {
  widgetToken: 'edge-forms widget token',
  proofOfWork: 'edge-forms proof of work',
  proofOfWorkKey: 'edge-forms proof of work key',
} as const;
export type Purpose = keyof typeof PURPOSES;

// Per isolate: the secret they were derived from (a rotation derives them again) and each purpose's
// 256 bits, so a form post derives nothing once warm.
let derived: { secret: string; bits: Map<Purpose, Promise<Uint8Array<ArrayBuffer>>> } | undefined;

/** 256 bits for one purpose, derived from a secret by HKDF-SHA-256 (no salt: the secret is random). */
export function derivedBits(secret: string, purpose: Purpose): Promise<Uint8Array<ArrayBuffer>> {
  if (derived?.secret !== secret) derived = { secret, bits: new Map() };
  let bits = derived.bits.get(purpose);
  if (bits === undefined) {
    bits = (async () => {
      const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, [
        'deriveBits',
      ]);
      const info = encoder.encode(PURPOSES[purpose]);
      const out = await crypto.subtle.deriveBits(
        { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info },
        base,
        256,
      );
      return new Uint8Array(out);
    })();
    derived.bits.set(purpose, bits);
  }
  return bits;
}

/** The derived bits as lower-case hex, for a library that takes its secret as text (ALTCHA's). */
export const derivedHex = async (secret: string, purpose: Purpose) =>
  toHex(await derivedBits(secret, purpose));

let hmacKeys: { secret: string; keys: Map<Purpose, Promise<CryptoKey>> } | undefined;

/** An HMAC-SHA-256 signing key of one purpose's derived bits, imported once per isolate. */
export function hmacKey(secret: string, purpose: Purpose): Promise<CryptoKey> {
  if (hmacKeys?.secret !== secret) hmacKeys = { secret, keys: new Map() };
  let key = hmacKeys.keys.get(purpose);
  if (key === undefined) {
    key = derivedBits(secret, purpose).then((bits) =>
      crypto.subtle.importKey('raw', bits, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
    );
    hmacKeys.keys.set(purpose, key);
  }
  return key;
}

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
