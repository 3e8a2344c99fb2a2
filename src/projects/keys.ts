// C6–C7: bearer credentials and API keys. Pure: no storage here.
import type { KeyKind } from '../../schema/tables.ts';
import { sha256Text } from '../lib/hex.ts';
import { DEFAULT_PLACE, placeTag } from '../store/places.ts';

/** Recognisable, so that secret scanners can find a leaked key (C7). */
export const KEY_PREFIX = 'edgeform_';
/** C23: the kind is in the prefix, so that a person and a secret scanner tell them apart at a glance. */
export const KIND_PREFIXES: Record<KeyKind, string> = {
  publishable: `${KEY_PREFIX}pk_`,
  secret: `${KEY_PREFIX}sk_`,
};
const KEY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_BODY_LENGTH = 32; // 32 base62 characters ≈ 190 random bits
const DISPLAYED_BODY = 8;
// Keys made before there were two kinds have no `pk_`: they are publishable (C23). C41: then the
// name of the key's place, and `_`, unless it is the default place (keys made before places).
const KEY_PATTERN = new RegExp(
  `^${KEY_PREFIX}(?:(?:pk|sk)_)?(?:([a-z][a-z0-9]{0,11})_)?[0-9A-Za-z]{${KEY_BODY_LENGTH}}$`,
);

const HOW_TO_SEND = "send it as 'Authorization: Bearer <API_KEY>'";

/** C43: no usable key is `missing_key`; a key that cannot be one is `invalid_key`, as an unknown one. */
export type BearerResult =
  | { ok: true; token: string }
  | { ok: false; problem: string; code: 'missing_key' | 'invalid_key' };

/** C6: reads `Bearer <token>` (scheme case-insensitive); says how to send the key when it cannot. */
export function parseBearer(header: string | undefined): BearerResult {
  if (header === undefined || header.trim() === '') {
    return { ok: false, problem: `Missing API key: ${HOW_TO_SEND}`, code: 'missing_key' };
  }
  const [scheme = '', ...rest] = header.trim().split(/[ \t]+/);
  if (scheme.toLowerCase() !== 'bearer') {
    return { ok: false, problem: `Unsupported authorization scheme: ${HOW_TO_SEND}`, code: 'missing_key' };
  }
  if (rest.length === 0) {
    return { ok: false, problem: `Empty API key: ${HOW_TO_SEND}`, code: 'missing_key' };
  }
  const [token = ''] = rest;
  // RFC 6750 b64token: one run of these characters, nothing after it.
  if (rest.length > 1 || !/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) {
    return { ok: false, problem: `Malformed API key: ${HOW_TO_SEND}`, code: 'invalid_key' };
  }
  return { ok: true, token };
}

/** A token that cannot be one of our keys is known to be invalid without asking D1. */
export function looksLikeKey(token: string): boolean {
  return KEY_PATTERN.test(token);
}

/** C41: the name of the place a key was made in (the default's when it names none). */
export function placeOfKey(token: string): string {
  return KEY_PATTERN.exec(token)?.[1] ?? DEFAULT_PLACE;
}

const PREFIX_PATTERN = new RegExp(
  `^${KEY_PREFIX}(?:(?:pk|sk)_)?(?:([a-z][a-z0-9]{0,11})_)?[0-9A-Za-z]{${DISPLAYED_BODY}}$`,
);

/** C41: the place of a key from what `key list` shows of it (a session keeps no more of its key). */
export function placeOfPrefix(prefix: string): string {
  return PREFIX_PATTERN.exec(prefix)?.[1] ?? DEFAULT_PLACE;
}

export const hashKey = sha256Text;

/**
 * What `key list` shows of a key: its prefix of kind (`edgeform_pk_`, `edgeform_sk_`) and the first
 * 8 characters of its random part, 20 characters in all.
 */
export function displayPrefix(key: string): string {
  return key.slice(0, key.length - KEY_BODY_LENGTH + DISPLAYED_BODY);
}

/**
 * A new key of the kind: its prefix, its place's tag (C41) and 32 uniformly random base62
 * characters (rejection sampling, no modulo bias).
 */
export function generateKey(kind: KeyKind = 'publishable', place: string = DEFAULT_PLACE): string {
  let body = '';
  const bytes = new Uint8Array(64);
  while (body.length < KEY_BODY_LENGTH) {
    crypto.getRandomValues(bytes);
    for (const b of bytes) {
      // 248 = 4 × 62: bytes above it would favour the first characters.
      if (b < 248 && body.length < KEY_BODY_LENGTH) body += KEY_ALPHABET[b % 62];
    }
  }
  return KIND_PREFIXES[kind] + placeTag(place) + body;
}
