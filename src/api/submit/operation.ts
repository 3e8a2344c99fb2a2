// C1–C3, C5: the submit route's operation in the OpenAPI document, and every reply it can give,
// by example. Only the document reads them, generated at build time (src/document.ts): the
// deployed worker's build takes a module of the same names that describe nothing
// (scripts/build-worker.ts), so a form post's start carries none of it.
import type { DescribeRouteOptions } from 'hono-openapi';
import { TURNSTILE_HEADER } from '../../accept/turnstile.ts';
import { ruleChecks } from '../../fields/rules.ts';
import { requiredProblem, typeProblem, unknownProblem } from '../../fields/validation.ts';
import { REPLAYED_HEADER } from '../../http/headers.ts';
import type { Documented } from '../../http/openapi.ts';
import { errorResponses, IDEMPOTENCY_KEY_PARAMETER, JSON_MEDIA } from '../../http/openapi-responses.ts';
import * as replies from '../../http/replies.ts';

/** What the endpoint can answer on POST, by example: each is the reply the code sends. */
export const postReplies = (): Documented[] => [
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
  { name: 'form full', reply: replies.formClosed('full') },
  { name: 'form closed', reply: replies.formClosed('closed') },
  { name: 'in progress', reply: replies.inProgress() },
  { name: 'Idempotency-Key reused', reply: replies.idempotencyKeyReused() },
  { name: 'storage unavailable', reply: replies.unavailable() },
  { name: 'unexpected fault', reply: replies.internalError('8f2c1d3e4b5a6978-LHR') },
];

/** The submit route's operation in the OpenAPI document. */
export const submitDescription = (tag: string): DescribeRouteOptions => ({
  tags: [tag],
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
});
