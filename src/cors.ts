// C14: CORS on every reply, so a widget on any page can read even an error.
import type { MiddlewareHandler } from 'hono';
import { cors as honoCors } from 'hono/cors';

// The preflight cannot carry the API key, so it cannot know the project's origins: it admits any
// origin, and C15 is enforced on the request itself (with a 403 the page can read).
const echoOrigin = (origin: string) => origin || null;

const submitCors = honoCors({
  origin: echoOrigin,
  // One element each, so that the headers read exactly as C14 writes them.
  allowMethods: ['POST, OPTIONS'],
  allowHeaders: ['Authorization, Content-Type, Idempotency-Key'],
  exposeHeaders: ['Retry-After', 'X-Request-Id', 'Idempotent-Replayed'],
  maxAge: 86400,
});

/** Preflight on the submit path only; elsewhere an OPTIONS request falls through to 404 (C16). */
export function cors(submitPath: string): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'OPTIONS' || c.req.path === submitPath) return submitCors(c, next);
    await next();
    const origin = c.req.header('Origin');
    if (origin) {
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Vary', 'Origin', { append: true });
    }
  };
}
