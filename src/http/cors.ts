// C14: CORS on every reply, so a widget on any page can read even an error.
import type { MiddlewareHandler } from 'hono';
import { cors as honoCors } from 'hono/cors';
import { requestIdOf } from './request-id.ts';

// The preflight cannot carry the API key, so it cannot know the project's origins: it admits any
// origin, and C15 is enforced on the request itself (with a 403 the page can read).
const echoOrigin = (origin: string) => origin || null;

const EXPOSE_HEADERS = 'Retry-After,X-Request-Id,Idempotent-Replayed';

const submitCors = honoCors({
  origin: echoOrigin,
  // One element each, so that the headers read exactly as C14 writes them.
  allowMethods: ['POST, OPTIONS'],
  allowHeaders: ['Authorization, Content-Type, Idempotency-Key'],
  exposeHeaders: EXPOSE_HEADERS.split(','),
  maxAge: 86400,
});

/**
 * C14: the preflight (OPTIONS) of the submit path and (C29) a form's address, which a script sends
 * an Idempotency-Key to: 204, no body.
 */
export const preflight: MiddlewareHandler = async (c, next) => {
  c.header('X-Request-Id', requestIdOf(c));
  return submitCors(c, next);
};

/**
 * The CORS headers of every other reply, written into it by `send` (send.ts). Hono's middleware
 * does the same by copying the finished response twice per request (bench/RESULTS.md).
 */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  return origin
    ? {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Expose-Headers': EXPOSE_HEADERS,
        Vary: 'Origin',
      }
    : { 'Access-Control-Expose-Headers': EXPOSE_HEADERS, Vary: 'Origin' };
}
