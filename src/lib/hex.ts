// Bytes to lower-case hex, by table: on the hot path twice per submission (key hash, id).
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += HEX[b];
  return out;
}
