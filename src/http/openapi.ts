// The OpenAPI 3.1 document, generated from the code that serves the endpoint: every reply
// of src/replies.ts (status, texts, headers), the field types' valibot schemas of
// src/validation.ts, the headers of C14 and C20–C22. `npm run build:assets` writes it to
// assets/api/v1/openapi.json, which the worker's static assets serve.
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { FIELD_TYPES } from '../../schema/tables.ts';
import { fieldSchema, requiredError, typeError, unknownError } from '../fields/validation.ts';
import { KEY_PREFIX } from '../projects/keys.ts';
import { type ApiError, type Envelope, REASON_PHRASES } from './envelope.ts';
import * as replies from './replies.ts';

type Json = Record<string, unknown>;

const schema = (s: v.GenericSchema): Json => {
  const { $schema: _, ...rest } = toJsonSchema(s, { errorMode: 'ignore' }) as Json;
  return rest;
};

/** C1–C3, as a valibot schema. */
const EnvelopeSchema = v.object({
  data: v.object({
    message: v.string(),
    error: v.optional(v.object({ message: v.string() })),
    errors: v.optional(v.array(v.string())),
  }),
  status: v.object({
    code: v.picklist(Object.keys(REASON_PHRASES).map(Number)),
    message: v.picklist(Object.values(REASON_PHRASES)),
  }),
});

/** What the endpoint can answer on POST, by example: each is the reply the code sends. */
export function postReplies(): { name: string; reply: ApiError }[] {
  return [
    {
      name: 'missing key',
      reply: replies.unauthorized("Missing API key: send it as 'Authorization: Bearer <API_KEY>'"),
    },
    { name: 'invalid key', reply: replies.invalidKey() },
    { name: 'rate limited', reply: replies.tooManyRequests() },
    { name: 'origin not allowed', reply: replies.originNotAllowed() },
    { name: 'no fields configured', reply: replies.notConfigured() },
    { name: 'not JSON media type', reply: replies.unsupportedMediaType() },
    { name: 'invalid Idempotency-Key', reply: replies.invalidIdempotencyKey() },
    { name: 'body too large', reply: replies.tooLarge(65536) },
    { name: 'too large to store', reply: replies.tooLargeToStore() },
    { name: 'not JSON', reply: replies.notJson() },
    { name: 'body broken off', reply: replies.bodyBrokenOff() },
    { name: 'not an object', reply: replies.notObject() },
    { name: 'no fields', reply: replies.noFields() },
    {
      name: 'validation failed',
      reply: replies.validationFailed([
        typeError('phone', 'integer'),
        unknownError('website'),
        requiredError('email'),
      ]),
    },
    { name: 'spam check failed', reply: replies.spamCheckFailed() },
    { name: 'in progress', reply: replies.inProgress() },
    { name: 'Idempotency-Key reused', reply: replies.idempotencyKeyReused() },
    { name: 'storage unavailable', reply: replies.unavailable() },
    { name: 'unexpected fault', reply: replies.internalError('8f2c1d3e4b5a6978-LHR') },
  ];
}

const HEADER_DOCS: Record<string, Json> = {
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'WWW-Authenticate': {
    description: 'The scheme the API key must be sent with: `Bearer`.',
    schema: { type: 'string' },
  },
  Allow: { description: 'The methods of this path.', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description: 'On a 201 that replays the first request with this Idempotency-Key (C20).',
    schema: { type: 'string', enum: ['true'] },
  },
  'X-Request-Id': { description: 'The request id (CF-Ray in production).', schema: { type: 'string' } },
};

const envelopeContent = (examples: Record<string, Envelope>) => ({
  'application/json; charset=utf-8': {
    schema: { $ref: '#/components/schemas/Envelope' },
    examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])),
  },
});

function responses(list: { name: string; reply: ApiError }[]): Json {
  const byStatus = new Map<number, { name: string; reply: ApiError }[]>();
  for (const item of list)
    byStatus.set(item.reply.status, [...(byStatus.get(item.reply.status) ?? []), item]);
  const out: Json = {};
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
  return out;
}

export function openApiDocument(): Json {
  const created = {
    description:
      'Stored, once D1 has acknowledged the write; or the replay of the first request with this Idempotency-Key.',
    headers: {
      'X-Request-Id': HEADER_DOCS['X-Request-Id'],
      'Idempotent-Replayed': HEADER_DOCS['Idempotent-Replayed'],
    },
    content: envelopeContent({ created: replies.created() }),
  };
  const notAllowed = {
    responses: responses([{ name: 'method not allowed', reply: replies.methodNotAllowed('GET') }]),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'edge-forms',
      version: '1.0.0',
      description:
        'A typed form-submission endpoint. Every reply but the CORS preflight is the JSON envelope `{data, status}`; any other path answers 404 in it: ' +
        JSON.stringify(replies.notFound().toEnvelope()),
    },
    paths: {
      [replies.SUBMIT_PATH]: {
        post: {
          operationId: 'submit',
          summary: 'Submit a form',
          description:
            "Checks run in this order and the first failure answers: the API key, the rate limit, the page's origin, the project's fields, the media type and Idempotency-Key, the body size, JSON, an object, every field, Turnstile; then the submission is stored.",
          security: [{ apiKey: [] }],
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description:
                'The same value on every retry of one submission: stored once, replayed after (C20).',
              schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
            },
            {
              name: 'CF-Turnstile-Response',
              in: 'header',
              required: false,
              description:
                'A Turnstile token, for projects that require one (or the body field `cf-turnstile-response`).',
              schema: { type: 'string' },
            },
            {
              name: 'Origin',
              in: 'header',
              required: false,
              description: "Sent by browsers; checked against the project's allowed origins (C15).",
              schema: { type: 'string' },
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/Submission' },
                example: {
                  name: 'Ada Lovelace',
                  email: 'ada@example.com',
                  phone: 2025550123,
                  enquiry: true,
                  message: 'Hello!',
                },
              },
            },
          },
          responses: { '201': created, ...responses(postReplies()) },
        },
        options: {
          operationId: 'preflight',
          summary: 'CORS preflight (C14)',
          security: [],
          responses: {
            '204': {
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
        },
        get: notAllowed,
        put: notAllowed,
        patch: notAllowed,
        delete: notAllowed,
      },
    },
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: `The project's API key: \`${KEY_PREFIX}\` and 32 letters and digits.`,
        },
      },
      schemas: {
        Envelope: schema(EnvelopeSchema),
        FieldValue: {
          description: "A value of one of the project's field types (C13); `null` matches none.",
          anyOf: FIELD_TYPES.map((type) => ({ title: type, ...schema(fieldSchema('field', type)) })),
        },
        Submission: {
          type: 'object',
          description:
            "The project's fields by name. Unknown fields are refused or dropped, as the project says; `cf-turnstile-response` and the project's honeypot are never stored.",
          minProperties: 1,
          additionalProperties: { $ref: '#/components/schemas/FieldValue' },
        },
      },
    },
  };
}
