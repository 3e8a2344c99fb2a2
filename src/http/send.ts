// Every reply leaves through here, built in one step with all its headers: the request id, CORS
// (C14), and its own. (Setting headers through Hono's context costs a Headers object and response
// copies per request.)
import type { Context } from 'hono';
import { corsHeaders } from './cors.ts';
import { type Envelope, type EnvelopeStatus, JSON_CONTENT_TYPE } from './envelope.ts';
import { MANAGE_PATH, READ_PATH, SESSION_PATH } from './paths.ts';
import { methodNotAllowed } from './replies.ts';
import { requestIdOf } from './request-id.ts';

const NO_CORS = [READ_PATH, MANAGE_PATH, SESSION_PATH];

export function send(c: Context, body: Envelope, headers: Record<string, string> = {}): Response {
  return sendJson(c, body.status.code, JSON.stringify(body), headers);
}

/** `send`, for an envelope serialised once and kept (the 201 of every accepted submission). */
export function sendJson(
  c: Context,
  status: EnvelopeStatus,
  json: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(json, {
    status,
    headers: {
      'Content-Type': JSON_CONTENT_TYPE,
      'X-Request-Id': requestIdOf(c),
      // C24, C32: the read and management APIs are for servers and the worker's own pages: no
      // CORS headers, so that no other page can read them.
      ...(NO_CORS.some((path) => c.req.path.startsWith(path)) ? {} : corsHeaders(c.req.header('Origin'))),
      ...headers,
    },
  });
}

/** C16: 405 for a method a submitting path (the submit path, a form's address) does not take. */
export function sendMethodNotAllowed(c: Context): Response {
  const reply = methodNotAllowed(c.req.method);
  return send(c, reply.toEnvelope(), reply.headers);
}
