// C17: UUIDv7 ids (RFC 9562): a 48-bit Unix time in ms, then a 12-bit counter (method 1 of §6.2),
// then 62 random bits. Strictly increasing within an isolate even when the clock stands still (as
// it does inside a Workers request) or steps back. Written out here rather than taken from a
// package: the `uuidv7` package cost 4.7 KB of the bundle for these few lines.

import { toHex } from './hex.ts';

let lastMs = 0;
let counter = 0;

export function uuidv7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    // A random start in the lower half leaves room for 2,048+ ids in the same millisecond.
    counter = crypto.getRandomValues(new Uint16Array(1))[0] ?? 0;
    counter &= 0x7ff;
  } else if (++counter > 0xfff) {
    // The counter is spent: borrow the next millisecond, as §6.2 allows.
    lastMs += 1;
    counter = 0;
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const ms = lastMs;
  for (let i = 0; i < 6; i++) bytes[i] = Math.floor(ms / 2 ** (8 * (5 - i))) & 0xff;
  bytes[6] = 0x70 | (counter >> 8); // version 7
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f); // variant 10
  return formatUuid(bytes);
}

/** 16 bytes in the UUID text form, 8-4-4-4-12 lower-case hex (RFC 9562). */
export function formatUuid(bytes: Uint8Array): string {
  const hex = toHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The lowest UUIDv7 of a millisecond: ids of that time and later sort at or after it. */
export function idFloor(ms: number): string {
  const hex = Math.max(0, Math.min(ms, 2 ** 48 - 1))
    .toString(16)
    .padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A short, readable random id: the prefix and 12 random base32 characters (60 bits). */
export function prefixedId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return prefix + Array.from(bytes, (b) => BASE32[b % 32]).join('');
}

/** A UUID as written by uuidv7() (and any lower-case UUID): a submission's id. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
