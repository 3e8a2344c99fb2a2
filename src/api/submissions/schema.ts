// C43: GET /api/v1/schema: the key's project's submission as JSON Schema (the document `forms project
// schema` prints), for a page's or a server's own validation before it submits. Any key of the
// project may read it, a publishable one from a page too: the fields are what the page's form shows
// anyway. So unlike the rest of this surface it answers with CORS (C14), and the project's allowed
// origins apply as for a submission (C15); a secret key from a page is refused (C23). It reads the
// key's cached project, and (C44) its fields' labels and help and its default language, which the
// cache does not hold (one query more, held to the project's fence as the read API's are), and is
// never stored by a cache: the fields change when the project's owner changes them.
import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { HonoBase } from 'hono/hono-base';
import * as v from 'valibot';
import { checkOrigin } from '../../accept/steps.ts';
import { authenticate, rateLimit } from '../../auth/authenticate.ts';
import { submissionJsonSchema } from '../../fields/json-schema.ts';
import { describeRoute, notAllowed, resolver } from '../../http/contract.ts';
import type { AppEnv } from '../../http/env.ts';
import { REASON_PHRASES } from '../../http/envelope.ts';
import { okEnvelope } from '../../http/openapi.ts';
import { errorResponses, okResponse } from '../../http/openapi-responses.ts';
import { SCHEMA_PATH } from '../../http/paths.ts';
import * as replies from '../../http/replies.ts';
import { requestIdOf } from '../../http/request-id.ts';
import { sendJson } from '../../http/send.ts';
import { forgetCached } from '../../projects/cache.ts';
import { fencedDatabase } from '../../store/db.ts';
import { fieldTexts } from '../../store/display.ts';
import { placeOf } from '../../store/places.ts';

const TAG = 'Schema (any key)';
export const SCHEMA_MESSAGE = 'Schema of the project’s submission';

const SchemaReply = okEnvelope(200, { schema: v.record(v.string(), v.unknown()) });

const EXAMPLE_SCHEMA = submissionJsonSchema(
  [
    {
      name: 'email',
      type: 'string',
      required: true,
      rules: { format: 'email' },
      label: { en: 'Your email' },
    },
    { name: 'message', type: 'string', required: false, rules: { maxLength: 2000 } },
  ],
  'reject',
);

// A GET with Authorization is preflighted: any origin may ask (C14); the list is checked on the GET.
const schemaCors = cors({
  origin: (origin) => origin || null,
  allowMethods: ['GET, OPTIONS'],
  allowHeaders: ['Authorization'],
  exposeHeaders: ['Retry-After', 'X-Request-Id'],
  maxAge: 86400,
});
const preflight: MiddlewareHandler = async (c, next) => {
  c.header('X-Request-Id', requestIdOf(c));
  return schemaCors(c, next);
};

/** C15, C23: the page's origin, as a submission's; a secret key has no business in a page. */
const originAllowed: MiddlewareHandler<AppEnv> = async (c, next) => {
  checkOrigin(c, c.var.project, c.req.header('Origin'));
  await next();
};

/** 200 (C1): the envelope, the schema beside the message; C44: titled in the project's default language. */
async function schemaOf(c: Context<AppEnv>): Promise<Response> {
  const { id, place, fields, unknownFields } = c.var.project;
  const d1 = placeOf(c.env, place).d1;
  const db = fencedDatabase(d1, {
    projectId: id,
    place,
    keyed: true,
    left: (moved) => forgetCached(d1, c.var.keyHash, !moved),
  });
  const { language, texts } = await fieldTexts(db, id);
  const defs = fields.map((f) => ({ ...f, ...texts.get(f.name) }));
  const json = JSON.stringify({
    data: { message: SCHEMA_MESSAGE, schema: submissionJsonSchema(defs, unknownFields, language) },
    status: { code: 200, message: REASON_PHRASES[200] },
  });
  return sendJson(c, 200, json, { 'Cache-Control': 'no-store' });
}

const PREFLIGHT_HEADERS = Object.fromEntries(
  [
    ['Access-Control-Allow-Methods', 'GET, OPTIONS'],
    ['Access-Control-Allow-Headers', 'Authorization'],
    ['Access-Control-Max-Age', '86400'],
  ].map(([name, value]) => [name, { schema: { type: 'string', const: value } }]),
);

export function schemaRoutes(app: HonoBase<AppEnv>): void {
  app.get(
    SCHEMA_PATH,
    describeRoute(() => ({
      tags: [TAG],
      operationId: 'getSchema',
      summary: "The key's project's submission as JSON Schema (C28, C43)",
      description:
        "Any key of the project, a publishable one from a page too (with CORS; the project's allowed origins apply, C15). The same document as `forms project schema`; `forms types` makes a TypeScript module with a validator from the same fields.",
      security: [{ apiKey: [] }],
      responses: {
        200: okResponse(
          'The JSON Schema (2020-12) of a submission. `Cache-Control: no-store`: it changes when the fields do.',
          resolver(SchemaReply),
          {
            data: { message: SCHEMA_MESSAGE, schema: EXAMPLE_SCHEMA },
            status: { code: 200, message: REASON_PHRASES[200] },
          },
        ),
        ...errorResponses([
          {
            name: 'missing key',
            reply: replies.missingKey(),
          },
          { name: 'invalid key', reply: replies.invalidKey() },
          { name: 'origin not allowed', reply: replies.originNotAllowed() },
          { name: 'secret key in a page', reply: replies.secretKeyInPage() },
          { name: 'rate limited', reply: replies.tooManyRequests() },
          { name: 'storage unavailable', reply: replies.unavailable() },
          { name: 'unexpected fault', reply: replies.internalError('8f2c1d3e4b5a6978-LHR') },
        ]),
      },
    })),
    authenticate,
    rateLimit,
    originAllowed,
    schemaOf,
  );
  app.options(
    SCHEMA_PATH,
    describeRoute(() => ({
      tags: [TAG],
      operationId: 'schemaPreflight',
      summary: 'CORS preflight (C14)',
      security: [],
      responses: { 204: { description: 'No body.', headers: PREFLIGHT_HEADERS } },
    })),
    preflight,
  );
  notAllowed(app, SCHEMA_PATH, 'GET, OPTIONS', TAG);
}
