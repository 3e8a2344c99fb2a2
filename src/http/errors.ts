// C3, C4, C18: errors are shaped once, here, for every app of the worker. Unknown faults are logged
// with the request id only: never the key, the body, or anything the reply would leak.
import type { Context } from 'hono';
import { causeText, ProjectLeft, ProjectMoving, UnavailableError } from '../lib/faults.ts';
import { ApiError } from './envelope.ts';
import { internalError, invalidKey, MOVING_RETRY_SECONDS, notFound, unavailable } from './replies.ts';
import { clientRequestIdOf, requestIdOf } from './request-id.ts';
import { send } from './send.ts';

export function answerError(err: Error, c: Context): Response {
  if (err instanceof ApiError) return send(c, err.toEnvelope(), err.headers);
  // C41: not faults but the project's whereabouts (the read API's fence): moving, 503 until it is
  // done; moved since the key was cached, 503 once; deleted, the key is no more.
  if (err instanceof ProjectMoving || err instanceof ProjectLeft) {
    const reply =
      err instanceof ProjectMoving
        ? unavailable(MOVING_RETRY_SECONDS)
        : err.moved
          ? unavailable(1)
          : invalidKey();
    return send(c, reply.toEnvelope(), reply.headers);
  }
  const requestId = requestIdOf(c);
  console.error(
    JSON.stringify({
      level: 'error',
      requestId,
      clientRequestId: clientRequestIdOf(c),
      method: c.req.method,
      path: c.req.path,
      error: err.name,
      cause: causeText(err, 500),
    }),
  );
  const reply = err instanceof UnavailableError ? unavailable() : internalError(requestId);
  return send(c, reply.toEnvelope(), reply.headers);
}

/** C16: every path no route takes is 404. */
export const answerNotFound = (c: Context): Response => send(c, notFound().toEnvelope());
