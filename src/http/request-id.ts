import type { Context } from 'hono';

// C18: the id a fault is logged under. The client's own X-Request-Id if it is a plain token (as
// Hono's requestId middleware accepts), else Cloudflare's Ray ID, else a random UUID.
const REQUEST_ID = /^[\w\-=]{1,255}$/;

export function requestIdOf(c: Context): string {
  let id = c.get('requestId') as string | undefined;
  if (id === undefined) {
    const given = c.req.header('X-Request-Id');
    id =
      given !== undefined && REQUEST_ID.test(given) ? given : (c.req.header('cf-ray') ?? crypto.randomUUID());
    c.set('requestId', id);
  }
  return id;
}
