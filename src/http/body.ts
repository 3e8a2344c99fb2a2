// C10, C11, C29: a request's body, read no further than a limit: judged on Content-Length when it
// is given (the body cannot be longer), else counted as it streams; the rest is never read.
import { readAtMost } from '../lib/stream.ts';
import { bodyBrokenOff, tooLarge } from './replies.ts';

/** The body's size as the client declares it (NaN: not declared, and never over a limit). */
export const declaredLength = (request: Request) =>
  Number(request.headers.get('Content-Length') ?? Number.NaN);

/**
 * The body's bytes, up to `max`; one more is 413. A body that breaks off (the client hung up) is
 * the client's doing: 400, never logged as a fault of ours (C11).
 */
export async function readWithin(request: Request, max: number): Promise<Uint8Array> {
  const declared = declaredLength(request);
  if (declared > max) throw tooLarge(max);
  if (request.body === null) return new Uint8Array(0);
  if (!Number.isNaN(declared)) {
    return new Uint8Array(
      await request.arrayBuffer().catch(() => {
        throw bodyBrokenOff();
      }),
    );
  }
  const read = await readAtMost(request.body, max).catch(() => {
    throw bodyBrokenOff();
  });
  if (read.over) throw tooLarge(max);
  return read.bytes;
}
