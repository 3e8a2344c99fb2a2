import type { Context } from 'hono';

// C18: the id a fault is logged under and every reply carries as X-Request-Id: Cloudflare's Ray ID
// (which Cloudflare's own logs show too), else a random UUID. A client's own X-Request-Id never
// replaces it, or a client could make its faults be logged under another request's id; it is
// logged beside it when it is a plain token.
const CLIENT_REQUEST_ID = /^[\w\-=.:]{1,128}$/;

export function requestIdOf(c: Context): string {
  let id = c.get('requestId') as string | undefined;
  if (id === undefined) {
    id = c.req.header('cf-ray') ?? crypto.randomUUID();
    c.set('requestId', id);
  }
  return id;
}

/** The client's X-Request-Id, when it is a plain token: for the log line, beside ours. */
export function clientRequestIdOf(c: Context): string | undefined {
  const given = c.req.header('X-Request-Id');
  return given !== undefined && CLIENT_REQUEST_ID.test(given) ? given : undefined;
}
