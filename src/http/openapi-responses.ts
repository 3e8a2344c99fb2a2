// The OpenAPI descriptions the routes share: each reply of the catalogue (src/http/replies.ts) as
// a documented response with its exact envelope as an example, the headers they carry, a success,
// a CORS preflight. Only descriptions read them, which are built when the document is generated
// (src/document.ts, at build time): the deployed worker's build takes a module of the same names
// that describe nothing (scripts/build-worker.ts), so a form post's start carries none of it.
import type { ResponsesWithResolver } from 'hono-openapi';
import type { Envelope } from './envelope.ts';
import { BOOKMARK_HEADER, IDEMPOTENCY_HEADER, REPLAYED_HEADER } from './headers.ts';
import type { Documented } from './openapi.ts';

type Json = Record<string, unknown>;

export const JSON_MEDIA = 'application/json; charset=utf-8';

export const HEADER_DOCS: Record<string, { description: string; schema: Json }> = {
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'WWW-Authenticate': {
    description: 'The scheme the API key must be sent with: `Bearer`.',
    schema: { type: 'string' },
  },
  Allow: { description: 'The methods of this path.', schema: { type: 'string' } },
  [REPLAYED_HEADER]: {
    description: 'On a 201 that replays the first request with this Idempotency-Key (C20).',
    schema: { type: 'string', enum: ['true'] },
  },
  'X-Request-Id': { description: 'The request id (CF-Ray in production).', schema: { type: 'string' } },
  [BOOKMARK_HEADER]: {
    description: 'The D1 session bookmark: send it back in X-D1-Bookmark to read at least this write (C24).',
    schema: { type: 'string' },
  },
};

/** C20: the header, as a parameter of the operations that take it. */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description: 'The same value on every retry of one submission: stored once, replayed after (C20).',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
} as const;

const envelopeContent = (examples: Record<string, Envelope>) => ({
  [JSON_MEDIA]: {
    schema: { $ref: '#/components/schemas/Envelope' },
    examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])),
  },
});

/** Replies of the catalogue, by status: each with its headers, and its exact envelope as an example. */
export const errorResponses = (list: readonly Documented[]): ResponsesWithResolver => {
  const byStatus = new Map<number, Documented[]>();
  for (const item of list)
    byStatus.set(item.reply.status, [...(byStatus.get(item.reply.status) ?? []), item]);
  const out: Record<string, Json> = {};
  for (const [status, items] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headerNames = new Set(['X-Request-Id', ...items.flatMap((i) => Object.keys(i.reply.headers))]);
    out[String(status)] = {
      description: [...new Set(items.map((i) => i.reply.summary))].join('; '),
      headers: Object.fromEntries(
        [...headerNames].map((h) => [h, HEADER_DOCS[h] ?? { schema: { type: 'string' } }]),
      ),
      content: envelopeContent(Object.fromEntries(items.map((i) => [i.name, i.reply.toEnvelope()]))),
    };
  }
  return out as ResponsesWithResolver;
};

/** A success: its schema (a resolver of the route's valibot schema) and an example. */
export const okResponse = (
  description: string,
  schema: unknown,
  example: unknown,
  headers: string[] = [],
): ResponsesWithResolver[string] =>
  ({
    description,
    headers: Object.fromEntries(['X-Request-Id', ...headers].map((h) => [h, HEADER_DOCS[h] ?? {}])),
    content: { [JSON_MEDIA]: { schema, example } },
  }) as ResponsesWithResolver[string];

/** C14: the CORS preflight of a path that a page's script sends to. */
export const preflightOperation = (operationId: string) => ({
  operationId,
  summary: 'CORS preflight (C14)',
  security: [],
  responses: {
    204: {
      description: 'No body.',
      headers: Object.fromEntries(
        [
          ['Access-Control-Allow-Methods', 'POST, OPTIONS'],
          ['Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key'],
          ['Access-Control-Max-Age', '86400'],
        ].map(([name, value]) => [name, { schema: { type: 'string', const: value } }]),
      ),
    },
  },
});
