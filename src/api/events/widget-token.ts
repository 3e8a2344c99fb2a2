// POST /api/v1/widget-token (C39): the widget's token, asked for when a form is first seen and
// renewed before it expires, and (for a project that requires one) a proof-of-work challenge.
// Authenticated as the form is (its publishable key, or its form id), the page's origin checked as
// for a submission, limited per address like analytics' events; signed in the isolate, stored
// nowhere. Loaded with the events app: a form post never evaluates it.
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import * as v from 'valibot';
import { issueToken } from '../../accept/widget-token.ts';
import { widgetKeys } from '../../auth/operator-secret.ts';
import { describeRoute, pagePath, resolver } from '../../http/contract.ts';
import type { AppEnv } from '../../http/env.ts';
import { REASON_PHRASES } from '../../http/envelope.ts';
import { type Documented, okEnvelope } from '../../http/openapi.ts';
import { errorResponses, okResponse } from '../../http/openapi-responses.ts';
import { WIDGET_TOKEN_PATH } from '../../http/paths.ts';
import * as replies from '../../http/replies.ts';
import { sendJson } from '../../http/send.ts';
import { UnavailableError } from '../../lib/faults.ts';
import { FORM_ID } from '../../projects/cache.ts';
import { projectOfPageRequest, readSmall } from './routes.ts';

/** A token request is a key or a form id and the token held, nothing more. */
const MAX_TOKEN_REQUEST_BYTES = 1024;

const TokenRequest = v.pipe(
  v.strictObject({
    key: v.optional(v.pipe(v.string(), v.maxLength(200))),
    form: v.optional(v.pipe(v.string(), v.regex(FORM_ID, 'must be a form id (f_…)'))),
    previous: v.optional(v.pipe(v.string(), v.maxLength(100))),
  }),
  v.check((e) => (e.key === undefined) !== (e.form === undefined), 'give the key or the form id, not both'),
);

const TokenReply = okEnvelope(200, {
  token: v.string(),
  expiresAt: v.pipe(v.string(), v.isoTimestamp()),
  challenge: v.optional(v.record(v.string(), v.unknown())),
});

async function issue(c: Context<AppEnv>): Promise<Response> {
  const asked = await readSmall(c, MAX_TOKEN_REQUEST_BYTES, TokenRequest, 'A token request');
  const project = await projectOfPageRequest(c, asked, 'TOKEN_RATE_LIMIT');
  const now = Date.now();
  const keys = widgetKeys(c.env, now);
  if (keys === undefined) throw new UnavailableError('secret', new Error('ADMIN_TOKEN is not set'));
  const { token, expiresAt } = await issueToken(keys, project.id, now, asked.previous);
  const challenge = project.proofOfWork
    ? await (await import('../../accept/proof-of-work.ts')).newChallenge(keys.current, project.id, now)
    : undefined;
  const data = {
    message: 'Token issued',
    token,
    expiresAt: new Date(expiresAt).toISOString(),
    ...(challenge === undefined ? {} : { challenge }),
  };
  return sendJson(c, 200, JSON.stringify({ data, status: { code: 200, message: REASON_PHRASES[200] } }), {
    'Cache-Control': 'no-store',
  });
}

/** What the endpoint can answer besides 200, by example. */
function tokenReplies(): Documented[] {
  return [
    { name: 'not JSON', reply: replies.notJson() },
    {
      name: 'invalid request',
      reply: replies.invalidBody('Invalid token request (form): must be a form id (f_…)'),
    },
    { name: 'invalid key', reply: replies.invalidKey() },
    { name: 'secret key in a page', reply: replies.secretKeyInPage() },
    { name: 'origin not allowed', reply: replies.originNotAllowed() },
    { name: 'no such form', reply: replies.formNotFound() },
    { name: 'rate limited', reply: replies.tooManyRequests() },
    { name: 'storage unavailable', reply: replies.unavailable() },
  ];
}

const TAG = 'Widget';

const tokenOperation = describeRoute(() => ({
  tags: [TAG],
  operationId: 'widgetToken',
  summary: "The widget's token, and a proof-of-work challenge when the project requires one (C39)",
  description:
    'Asked for by /widget.js when a form is first seen, and sent back with the submission (`_widget_token`), with the milliseconds from the first input to the send (`_fill_ms`) and the solved challenge (`altcha`, an ALTCHA payload). A token is good for an hour; `previous` renews it keeping the time the form was first seen. Signed by the worker, stored nowhere; a second submission with the same token is spam. The body may be sent as text/plain (no preflight).',
  security: [],
  requestBody: {
    required: true,
    content: {
      'text/plain': {
        schema: {
          type: 'object',
          properties: {
            key: { type: 'string', description: "The form's publishable key (or `form`)." },
            form: { type: 'string', pattern: FORM_ID.source, description: "The form's id (or `key`)." },
            previous: { type: 'string', description: 'The token the page holds, to renew.' },
          },
        },
        example: { key: 'edgeform_pk_…' },
      },
    },
  },
  responses: {
    200: okResponse('A token (and a challenge).', resolver(TokenReply), {
      data: {
        message: 'Token issued',
        token: 'mi3k2f1c.mi3k2f1c.q0Zk2mJc9Ue3b1aN.8pQ0xJm3vT5zR1yW2aB4cD',
        expiresAt: '2026-11-26T21:00:00.000Z',
      },
      status: { code: 200, message: REASON_PHRASES[200] },
    }),
    ...errorResponses(tokenReplies()),
  },
}));

export function tokenRoutes(app: HonoBase<AppEnv>): void {
  app.post(WIDGET_TOKEN_PATH, tokenOperation, issue);
  pagePath(app, WIDGET_TOKEN_PATH, TAG, 'widgetTokenPreflight');
}
