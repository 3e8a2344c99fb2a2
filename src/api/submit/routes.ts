// POST /api/v1/submit: the acceptance pipeline (C5) with a bearer key and a JSON body, answered
// with the envelope. Its contract, beside it: the body is the project's own (checked by the
// pipeline, in C5's order, not by a schema here), and every reply it can give.
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import { acceptSubmission, type Intake } from '../../accept/pipeline.ts';
import { TURNSTILE_HEADER } from '../../accept/turnstile.ts';
import { payerOfKey, projectOfKey } from '../../auth/authenticate.ts';
import { config } from '../../config.ts';
import { ruleChecks } from '../../fields/rules.ts';
import { requiredProblem, typeProblem, unknownProblem } from '../../fields/validation.ts';
import { readWithin } from '../../http/body.ts';
import { describeRoute, pagePath } from '../../http/contract.ts';
import type { AppEnv } from '../../http/env.ts';
import { REPLAYED_HEADER } from '../../http/headers.ts';
import { isJsonMediaType } from '../../http/media-type.ts';
import type { Documented } from '../../http/openapi.ts';
import { errorResponses, IDEMPOTENCY_KEY_PARAMETER, JSON_MEDIA } from '../../http/openapi-responses.ts';
import { SUBMIT_PATH } from '../../http/paths.ts';
import * as replies from '../../http/replies.ts';
import { sendJson } from '../../http/send.ts';
import { parseObject } from './body.ts';

/** A key in the Authorization header, and a JSON object in the body. */
const json: Intake<'json'> = {
  async identify(c) {
    const { project, keyHash } = await projectOfKey(c);
    return { project, cacheKey: keyHash, keyHash, payer: payerOfKey(project, keyHash) };
  },
  origin: (c) => c.req.header('Origin'),
  // C9
  mediaType(c) {
    if (!isJsonMediaType(c.req.header('Content-Type'))) throw replies.submitNeedsJson();
    return 'json';
  },
  // C10, C11: within MAX_BODY_BYTES; strict UTF-8, then JSON, then an object.
  async read(c) {
    const bytes = await readWithin(c.req.raw, config(c.env).MAX_BODY_BYTES);
    const { body, notIntegerText } = parseObject(bytes);
    // C20: a retry repeats the body byte for byte.
    return { body, problems: [], notIntegerText, idempotencyBytes: bytes };
  },
};

const CREATED_JSON = JSON.stringify(replies.created());

/** C5: 201 only once D1 has acknowledged the batch that holds the row (or the replay of it, C20). */
async function submit(c: Context<AppEnv>): Promise<Response> {
  const { replayed } = await acceptSubmission(c, json);
  return sendJson(c, 201, CREATED_JSON, replayed ? { [REPLAYED_HEADER]: 'true' } : {});
}

/** What the endpoint can answer on POST, by example: each is the reply the code sends. */
export function postReplies(): Documented[] {
  return [
    {
      name: 'missing key',
      reply: replies.missingKey(),
    },
    { name: 'invalid key', reply: replies.invalidKey() },
    { name: 'rate limited', reply: replies.tooManyRequests() },
    { name: 'origin not allowed', reply: replies.originNotAllowed() },
    { name: 'secret key in a page', reply: replies.secretKeyInPage() },
    { name: 'no fields configured', reply: replies.notConfigured() },
    { name: 'not JSON media type', reply: replies.submitNeedsJson() },
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
        typeProblem('phone', 'integer'),
        ...ruleChecks('name', 'string', { maxLength: 80 }).map((rule) => rule.problem),
        unknownProblem('website'),
        requiredProblem('email'),
      ]),
    },
    { name: 'spam check failed', reply: replies.spamCheckFailed() },
    { name: 'in progress', reply: replies.inProgress() },
    { name: 'Idempotency-Key reused', reply: replies.idempotencyKeyReused() },
    { name: 'storage unavailable', reply: replies.unavailable() },
    { name: 'unexpected fault', reply: replies.internalError('8f2c1d3e4b5a6978-LHR') },
  ];
}

const SUBMIT_TAG = 'Submitting (JSON)';

const submitOperation = describeRoute(() => ({
  tags: [SUBMIT_TAG],
  operationId: 'submit',
  summary: 'Submit a form',
  description:
    "Checks run in this order and the first failure answers: the API key, the client address's rate limit, the page's origin, the project's fields, the media type and Idempotency-Key, the body size, JSON, an object, every field, the key's shared rate limit, Turnstile; then the submission is stored.",
  security: [{ apiKey: [] }],
  parameters: [
    IDEMPOTENCY_KEY_PARAMETER,
    {
      name: TURNSTILE_HEADER,
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
  responses: {
    201: {
      description:
        'Stored, once D1 has acknowledged the write; or the replay of the first request with this Idempotency-Key.',
      headers: {
        'X-Request-Id': { description: 'The request id (CF-Ray in production).', schema: { type: 'string' } },
        [REPLAYED_HEADER]: {
          description: 'On a 201 that replays the first request with this Idempotency-Key (C20).',
          schema: { type: 'string', enum: ['true'] },
        },
      },
      content: {
        [JSON_MEDIA]: { schema: { $ref: '#/components/schemas/Envelope' }, example: replies.created() },
      },
    },
    ...errorResponses(postReplies()),
  },
}));

export function submitRoutes(app: HonoBase<AppEnv>): void {
  app.post(SUBMIT_PATH, submitOperation, submit);
  pagePath(app, SUBMIT_PATH, SUBMIT_TAG, 'preflight');
}
