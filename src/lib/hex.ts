// Bytes to lower-case hex, by table: on the hot path twice per submission (key hash, id).
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

const encoder = new TextEncoder();

/** The SHA-256 of a text's UTF-8 bytes, in hex: how keys, tokens, sessions and addresses are kept. */
export async function sha256Text(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += HEX[b];
  return out;
}

/**
 * Bytes in standard base64, padded: a slice at a time, since a large array (a logo's 256 KiB) is
 * too many arguments for one call.
 */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Bytes in base64url, without padding. */
export function toBase64url(bytes: Uint8Array): string {
  return toBase64(bytes).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
}

/** How long a token of 32 bytes is in base64url; the least an operator token may be (C32). */
export const TOKEN_LENGTH = 43;

/** A secret of 32 random bytes, in base64url (43 characters): session ids, links' tokens. */
export const randomToken = () => toBase64url(crypto.getRandomValues(new Uint8Array(32)));
