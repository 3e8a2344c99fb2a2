// Reading a body no further than a limit: what a webhook receiver answers (C26) and a form's
// urlencoded body (C29, C10) are both read so, and the rest is cancelled, never buffered.

/**
 * Reads `stream` until it ends or holds more than `max` bytes, then cancels what is left. `over`:
 * it held more than `max` (the bytes then hold the first chunks past it).
 */
export async function readAtMost(
  stream: ReadableStream<Uint8Array>,
  max: number,
): Promise<{ bytes: Uint8Array; over: boolean }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > max) {
      over = true;
      await reader.cancel().catch(() => {});
      break;
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  return { bytes, over };
}
