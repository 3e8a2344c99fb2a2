// C29, C30: the form address's POST in the OpenAPI document, and every refusal it can give (as a
// page, or the envelope with Accept: application/json), by example. Only the document reads them,
// generated at build time (src/document.ts): the deployed worker's build takes a module of the same
// names that describe nothing (scripts/build-worker.ts), so a form post's start carries none of it.
import type { DescribeRouteOptions, ResponsesWithResolver } from 'hono-openapi';
import { typeProblem } from '../../fields/validation.ts';
import { REPLAYED_HEADER } from '../../http/headers.ts';
import type { Documented } from '../../http/openapi.ts';
import {
  errorResponses,
  HEADER_DOCS,
  IDEMPOTENCY_KEY_PARAMETER,
  JSON_MEDIA,
} from '../../http/openapi-responses.ts';
import * as replies from '../../http/replies.ts';

/** C29: the form endpoint's refusals (as pages, or this envelope with Accept: application/json). */
export const formReplies = (): Documented[] => [
  { name: 'validation failed', reply: replies.validationFailed([typeProblem('phone', 'integer')]) },
  { name: 'malformed multipart', reply: replies.malformedForm() },
  { name: 'redirect not allowed', reply: replies.redirectNotAllowed('_next') },
  { name: 'no fields', reply: replies.noFields() },
  { name: 'origin not allowed', reply: replies.originNotAllowed() },
  { name: 'spam check failed', reply: replies.spamCheckFailed() },
  { name: 'form not open yet', reply: replies.formClosed('not_open') },
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
  { name: 'unexpected fault', reply: replies.internalError('8f2c1d3e4b5a6978-LHR') },
];

/** C29: an error as a page, when the client did not ask for JSON. */
const withPages = (responses: ResponsesWithResolver): ResponsesWithResolver =>
  Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      'content' in response
        ? {
            ...response,
            content: { ...response.content, 'text/html; charset=utf-8': { schema: { type: 'string' } } },
          }
        : response,
    ]),
  );

/** The form address's POST in the OpenAPI document. */
export const formDescription = (tag: string, formIdParameter: unknown): DescribeRouteOptions =>
  ({
    tags: [tag],
    operationId: 'submitHtmlForm',
    summary: 'Submit a plain HTML form, with files (C29, C30)',
    description:
      "No key: the form address names the project. Each value is converted by its field's type (integer and number from decimal text; a defined field's empty text, but a checkbox's, is a field not filled in, absent or, when required, missing; a boolean from on/true/1 or off/false/0, false when its checkbox was not sent), then validated as the JSON endpoint validates. Names starting with `_` are controls and never stored: `_next` and `_error` (redirects, on an allowed origin only) and `_gotcha` (a honeypot). With `Accept: application/json` every answer is the JSON envelope; otherwise a 303 or a small HTML page.",
    security: [],
    parameters: [formIdParameter, IDEMPOTENCY_KEY_PARAMETER],
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': { schema: { type: 'object' } },
        'multipart/form-data': { schema: { type: 'object' } },
      },
    },
    responses: {
      200: {
        description: 'The built-in thank-you page (no `_next` and no thank-you URL).',
        content: { 'text/html; charset=utf-8': { schema: { type: 'string' } } },
      },
      201: {
        description:
          'Stored (with Accept: application/json); or the replay of the first request with this Idempotency-Key.',
        headers: { [REPLAYED_HEADER]: HEADER_DOCS[REPLAYED_HEADER] ?? {} },
        content: {
          [JSON_MEDIA]: { schema: { $ref: '#/components/schemas/Envelope' }, example: replies.created() },
        },
      },
      303: {
        description:
          "Stored: to `_next`, else the project's thank-you URL; or, refused, to `_error`. Only ever to an allowed origin.",
        headers: { Location: { schema: { type: 'string', format: 'uri' } } },
      },
      ...withPages(errorResponses(formReplies())),
    },
  }) as DescribeRouteOptions;
