// The OpenAPI 3.1 document, generated from the code that serves the endpoint: every reply
// of src/http/replies.ts (status, texts, headers), the field types' valibot schemas of
// src/fields/validation.ts, the headers of C14 and C20–C22, and the read API (C24, C25). `npm run build:assets` writes it to
// assets/api/v1/openapi.json, which the worker's static assets serve.
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { FIELD_TYPES } from '../../schema/tables.ts';
import { fieldSchema, requiredError, typeError, unknownError } from '../fields/validation.ts';
import { KEY_PREFIX, KIND_PREFIXES } from '../projects/keys.ts';
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

const IDEMPOTENCY_KEY_PARAMETER: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'The same value on every retry of one submission: stored once, replayed after (C20).',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
};

/** C14: the CORS preflight of the submit path and of a form's address. */
function preflight(operationId: string): Json {
  return {
    operationId,
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
  };
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

/** C24, C25: the read API's replies on failure, by operation. */
export function readReplies(
  operation: 'list' | 'get' | 'delete' | 'erase',
): { name: string; reply: ApiError }[] {
  const common = [
    { name: 'invalid key', reply: replies.invalidKey() },
    { name: 'publishable key', reply: replies.secretKeyNeeded() },
    { name: 'rate limited', reply: replies.tooManyRequests() },
    { name: 'storage unavailable', reply: replies.unavailable() },
    { name: 'unexpected fault', reply: replies.internalError('8f2c1d3e4b5a6978-LHR') },
  ];
  const own = {
    list: [
      {
        name: 'invalid parameter',
        reply: replies.invalidParameter('limit', 'must be a whole number from 1 to 1000'),
      },
    ],
    get: [{ name: 'not found', reply: replies.submissionNotFound() }],
    delete: [{ name: 'not found', reply: replies.submissionNotFound() }],
    erase: [
      { name: 'not JSON media type', reply: replies.unsupportedMediaType() },
      { name: 'not JSON', reply: replies.notJson() },
      { name: 'invalid erasure', reply: replies.invalidErasure() },
    ],
  }[operation];
  return [...common, ...own];
}

const STORED_EXAMPLE = {
  id: '019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e',
  receivedAt: '2026-11-22T08:44:13.000Z',
  fields: {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: 2025550123,
    enquiry: true,
    message: 'Hello!',
  },
  spam: false,
};

function readOk(description: string, data: Json, members: Json): Json {
  return {
    description,
    headers: {
      'X-Request-Id': HEADER_DOCS['X-Request-Id'],
      'X-D1-Bookmark': {
        description:
          'The D1 session bookmark: send it back in X-D1-Bookmark to read at least this write (C24).',
        schema: { type: 'string' },
      },
    },
    content: {
      'application/json; charset=utf-8': {
        schema: {
          type: 'object',
          required: ['data', 'status'],
          properties: {
            data: {
              type: 'object',
              required: ['message', ...Object.keys(members)],
              properties: { message: { type: 'string' }, ...members },
            },
            status: { type: 'object', properties: { code: { const: 200 }, message: { const: 'OK' } } },
          },
        },
        example: { data, status: { code: 200, message: 'OK' } },
      },
    },
  };
}

const StoredSubmission: Json = {
  type: 'object',
  required: ['id', 'receivedAt', 'fields', 'spam'],
  properties: {
    id: { type: 'string', description: 'UUIDv7: ordering by id is ordering by arrival.' },
    receivedAt: { type: 'string', format: 'date-time' },
    fields: { $ref: '#/components/schemas/Submission' },
    spam: { type: 'boolean', description: "Filled the project's honeypot (C22)." },
  },
};

function readPaths(): Json {
  const security = [{ secretKey: [] }];
  const bookmark = {
    name: 'X-D1-Bookmark',
    in: 'header',
    required: false,
    description: 'A bookmark from an earlier reply: this read sees at least that write (C24).',
    schema: { type: 'string' },
  };
  const query = (name: string, description: string, schemaJson: Json) => ({
    name,
    in: 'query',
    required: false,
    description,
    schema: schemaJson,
  });
  const notAllowed = (allow: string) => ({
    responses: responses([{ name: 'method not allowed', reply: replies.readMethodNotAllowed('PUT', allow) }]),
  });
  const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  return {
    [replies.READ_PATH]: {
      get: {
        operationId: 'listSubmissions',
        summary: "A page of the key's project's submissions (C24)",
        description:
          'Cursor pagination on the time-ordered id: pass `nextCursor` as `cursor` (with the same order) until it is absent. A page holds at most `limit` submissions and about 4 MiB of them.',
        security,
        parameters: [
          query('limit', 'Submissions per page, 1–1000 (default 100).', {
            type: 'integer',
            minimum: 1,
            maximum: 1000,
          }),
          query('cursor', 'The `nextCursor` of the previous page.', { type: 'string' }),
          query('since', 'Received at or after this ISO 8601 time.', { type: 'string', format: 'date-time' }),
          query('until', 'Received before this ISO 8601 time.', { type: 'string', format: 'date-time' }),
          query('order', 'Oldest first (asc, the default) or newest first.', {
            type: 'string',
            enum: ['asc', 'desc'],
          }),
          query('spam', 'Honeypot spam: left out (exclude, the default), included, or alone.', {
            type: 'string',
            enum: ['exclude', 'include', 'only'],
          }),
          bookmark,
        ],
        responses: {
          '200': readOk(
            'A page, and the cursor of the next one (absent on the last page).',
            { message: '1 submission', submissions: [STORED_EXAMPLE], nextCursor: 'YXNjOjAxOWFiMGMy' },
            { submissions: { type: 'array', items: StoredSubmission }, nextCursor: { type: 'string' } },
          ),
          ...responses(readReplies('list')),
        },
      },
      put: notAllowed('GET'),
      post: notAllowed('GET'),
      delete: notAllowed('GET'),
    },
    [`${replies.READ_PATH}/{id}`]: {
      parameters: [idParameter],
      get: {
        operationId: 'getSubmission',
        summary: 'One submission of the project (404 for any other id)',
        security,
        parameters: [bookmark],
        responses: {
          '200': readOk(
            'The submission.',
            { message: 'Submission found', submission: STORED_EXAMPLE },
            { submission: StoredSubmission },
          ),
          ...responses(readReplies('get')),
        },
      },
      delete: {
        operationId: 'deleteSubmission',
        summary: 'Deletes one submission of the project, with everything attached to it (C25)',
        security,
        parameters: [bookmark],
        responses: {
          '200': readOk(
            'Deleted.',
            { message: 'Submission deleted', deleted: STORED_EXAMPLE.id },
            { deleted: { type: 'string' } },
          ),
          ...responses(readReplies('delete')),
        },
      },
      put: notAllowed('GET, DELETE'),
    },
    [`${replies.READ_PATH}/erase`]: {
      post: {
        operationId: 'eraseSubmissions',
        summary: 'Deletes every submission of the project whose field holds exactly the value (C25)',
        security,
        parameters: [bookmark],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['field', 'value'],
                additionalProperties: false,
                properties: {
                  field: { type: 'string', minLength: 1 },
                  value: { type: ['string', 'number', 'boolean', 'null'] },
                },
              },
              example: { field: 'email', value: 'ada@example.com' },
            },
          },
        },
        responses: {
          '200': readOk(
            'How many were erased.',
            { message: 'Erased 2 submissions', erased: 2 },
            { erased: { type: 'integer' } },
          ),
          ...responses(readReplies('erase')),
        },
      },
      get: notAllowed('POST'),
    },
  };
}

/** C29: the HTML form endpoint's refusals (as pages, or this envelope with Accept: application/json). */
export function formReplies(): { name: string; reply: ApiError }[] {
  return [
    { name: 'validation failed', reply: replies.validationFailed(["Field 'phone' is not of type integer"]) },
    { name: 'malformed multipart', reply: replies.malformedForm() },
    { name: 'redirect not allowed', reply: replies.redirectNotAllowed('_next') },
    { name: 'no fields', reply: replies.noFields() },
    { name: 'origin not allowed', reply: replies.originNotAllowed() },
    { name: 'spam check failed', reply: replies.spamCheckFailed() },
    { name: 'no such form', reply: replies.formNotFound() },
    { name: 'body too large', reply: replies.tooLarge(65536) },
    { name: 'file too large', reply: replies.fileTooLarge("Field 'cv' must be at most 5 MB") },
    { name: 'files too large', reply: replies.uploadTooLarge(10_000_000) },
    { name: 'not a form', reply: replies.notAForm() },
    { name: 'rate limited', reply: replies.tooManyRequests() },
    { name: 'invalid Idempotency-Key', reply: replies.invalidIdempotencyKey() },
    { name: 'in progress', reply: replies.inProgress() },
    { name: 'Idempotency-Key reused', reply: replies.idempotencyKeyReused() },
    { name: 'storage unavailable', reply: replies.unavailable() },
  ];
}

function formPaths(): Json {
  const page = (description: string) => ({
    description,
    content: { 'text/html; charset=utf-8': { schema: { type: 'string' } } },
  });
  return {
    '/f/{formId}': {
      parameters: [
        {
          name: 'formId',
          in: 'path',
          required: true,
          description: "The project's form address, printed by `forms project create` and `project show`.",
          schema: { type: 'string', pattern: '^f_[a-z0-9]{4,32}$' },
        },
      ],
      post: {
        operationId: 'submitHtmlForm',
        summary: 'Submit a plain HTML form, with files (C29, C30)',
        description:
          "No key: the form address names the project. Each value is converted by its field's type (integer and number from decimal text, an empty one absent; a boolean from on/true/1 or off/false/0, false when its checkbox was not sent), then validated as the JSON endpoint validates. Names starting with `_` are controls and never stored: `_next` and `_error` (redirects, on an allowed origin only) and `_gotcha` (a honeypot). With `Accept: application/json` every answer is the JSON envelope; otherwise a 303 or a small HTML page.",
        security: [],
        parameters: [IDEMPOTENCY_KEY_PARAMETER],
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': { schema: { type: 'object' } },
            'multipart/form-data': { schema: { type: 'object' } },
          },
        },
        responses: {
          '200': page('The built-in thank-you page (no `_next` and no thank-you URL).'),
          '201': {
            description:
              'Stored (with Accept: application/json); or the replay of the first request with this Idempotency-Key.',
            headers: { 'Idempotent-Replayed': HEADER_DOCS['Idempotent-Replayed'] },
            content: envelopeContent({ created: replies.created() }),
          },
          '303': {
            description:
              "Stored: to `_next`, else the project's thank-you URL; or, refused, to `_error`. Only ever to an allowed origin.",
            headers: { Location: { schema: { type: 'string', format: 'uri' } } },
          },
          ...responses(formReplies()),
        },
      },
      options: preflight('formPreflight'),
    },
    [`${replies.READ_PATH}/{id}/files/{field}`]: {
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'field', in: 'path', required: true, schema: { type: 'string' } },
      ],
      get: {
        operationId: 'downloadFile',
        summary: "A submission's file, as uploaded (C30), with a secret key",
        security: [{ secretKey: [] }],
        responses: {
          '200': {
            description:
              'The bytes, with the type judged from them, as an attachment (`Content-Disposition`).',
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          },
          ...responses([
            ...readReplies('get').filter((r) => r.reply.status !== 404),
            { name: 'no such file', reply: replies.fileNotFound('cv') },
          ]),
        },
      },
    },
  };
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
            IDEMPOTENCY_KEY_PARAMETER,
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
        options: preflight('preflight'),
        get: notAllowed,
        put: notAllowed,
        patch: notAllowed,
        delete: notAllowed,
      },
      ...readPaths(),
      ...formPaths(),
    },
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: `The project's API key: \`${KIND_PREFIXES.publishable}\` (publishable, for pages) or \`${KIND_PREFIXES.secret}\` (secret, for servers) and 32 letters and digits; keys made before the two kinds, \`${KEY_PREFIX}\` and 32, are publishable.`,
        },
        secretKey: {
          type: 'http',
          scheme: 'bearer',
          description: `A secret key of the project: \`${KIND_PREFIXES.secret}\` and 32 letters and digits (C23). A publishable key gets 403.`,
        },
      },
      schemas: {
        Envelope: schema(EnvelopeSchema),
        FieldValue: {
          description:
            "A value of one of the project's field types (C13); `null` matches none. A field may also carry rules (C28: format, minLength, maxLength, minimum, maximum, enum, pattern): `forms project schema <project>` prints a project's fields as JSON Schema with those keywords. A `file` field (C30) takes no JSON value: it is sent as multipart to `/f/{formId}`, and read back as `{name, type, size, sha256}`.",
          // C30: no JSON value is a file; a file field is sent as multipart to /f/{formId}, and read
          // back as its metadata {name, type, size, sha256}.
          anyOf: FIELD_TYPES.filter((type) => type !== 'file').map((type) => ({
            title: type,
            ...schema(fieldSchema('field', type)),
          })),
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
