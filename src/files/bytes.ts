// C30: what a file is, judged from its bytes alone (never from what the client said), and its
// SHA-256: pure, for the form conversion and anything else that looks at an upload. The table of
// signatures is loaded with the first file, so a form post without one never evaluates it.
import { toHex } from '../lib/hex.ts';

type Signatures = typeof import('magic-bytes.js').filetypeinfo;
let signatures: Promise<Signatures> | undefined;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * C30: the type judged from the bytes, never from what the client said: a known signature (PDF,
 * PNG, JPEG, GIF, WebP, ZIP…), else `text/plain` for UTF-8 text without NUL, else
 * `application/octet-stream`.
 */
export async function sniffType(bytes: Uint8Array): Promise<string> {
  signatures ??= import('magic-bytes.js').then((m) => m.filetypeinfo);
  const known = (await signatures)(bytes.subarray(0, 4100)).find((t) => t.mime !== undefined);
  if (known?.mime !== undefined) return known.mime;
  if (bytes.length === 0 || bytes.includes(0)) return 'application/octet-stream';
  try {
    utf8.decode(bytes);
    return 'text/plain';
  } catch {
    return 'application/octet-stream';
  }
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // Never a shared buffer here: the bytes were read from a request.
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}
