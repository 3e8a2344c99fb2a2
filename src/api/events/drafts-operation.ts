// C46: the drafts' routes in the OpenAPI document (src/api/events/drafts.ts), and every refusal
// they can give, by example. Only the document reads them, generated at build time: the deployed
// worker's build takes a module of the same names that describe nothing (scripts/build-worker.ts).
import type { DescribeRouteOptions } from 'hono-openapi';
import { REASON_PHRASES } from '../../http/envelope.ts';
import type { Documented } from '../../http/openapi.ts';
import { errorResponses, okResponse } from '../../http/openapi-responses.ts';
import * as replies from '../../http/replies.ts';

function draftReplies(): Documented[] {
  return [
    { name: 'not JSON', reply: replies.notJson() },
    {
      name: 'invalid request',
      reply: replies.invalidBody('Invalid draft (token): must be 22 to 64 characters of base64url'),
    },
    { name: 'origin not allowed', reply: replies.originNotAllowed() },
    { name: 'no such form', reply: replies.formNotFound() },
    { name: 'no drafts, or none here', reply: replies.notFoundHere('This form keeps no drafts') },
    { name: 'rate limited', reply: replies.tooManyRequests() },
    { name: 'storage unavailable', reply: replies.unavailable() },
  ];
}

const TAG = 'Widget';
const EXAMPLE_TOKEN = 'q0Zk2mJc9Ue3b1aN8pQ0xJ';

export const saveDraftDescription = (reply: unknown): DescribeRouteOptions => ({
  tags: [TAG],
  operationId: 'saveDraft',
  summary: 'Save a draft of a hosted page in steps (C46)',
  description:
    "Sent by /widget/steps.js after each step of a page whose project keeps partial submissions (`partials.enabled`). `token` is the page's own (at least 128 random bits, in the page's address as `?resume=`), kept only as its SHA-256; saving again under it replaces the values and the step, and keeps the draft `partials.keepDays` more days. Only the project's fields that are not files are kept. A submission sent with `_draft=<token>` deletes it. The body may be sent as text/plain (no preflight).",
  security: [],
  requestBody: {
    required: true,
    content: {
      'text/plain': {
        schema: { type: 'object' },
        example: { form: 'f_abc123', token: EXAMPLE_TOKEN, step: 2, values: { name: 'Ada' } },
      },
    },
  },
  responses: {
    200: okResponse('Saved.', reply, {
      data: { message: 'Draft saved', expiresAt: '2026-12-28T12:00:00.000Z' },
      status: { code: 200, message: REASON_PHRASES[200] },
    }),
    ...errorResponses(draftReplies()),
  },
});

export const openDraftDescription = (reply: unknown): DescribeRouteOptions => ({
  tags: [TAG],
  operationId: 'openDraft',
  summary: 'Open a draft of a hosted page in steps by its token (C46)',
  description:
    "What a page's `?resume=<token>` opens: the values typed and the step reached, while the draft's days last. 404 when it was sent, its days ended, or the token is another project's.",
  security: [],
  requestBody: {
    required: true,
    content: {
      'text/plain': { schema: { type: 'object' }, example: { form: 'f_abc123', token: EXAMPLE_TOKEN } },
    },
  },
  responses: {
    200: okResponse('The draft.', reply, {
      data: {
        message: 'Draft found',
        step: 2,
        values: { name: 'Ada' },
        expiresAt: '2026-12-28T12:00:00.000Z',
      },
      status: { code: 200, message: REASON_PHRASES[200] },
    }),
    ...errorResponses(draftReplies()),
  },
});
