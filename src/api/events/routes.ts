// POST /api/v1/events (C40): form analytics' events from the widget, sent with sendBeacon (a
// text/plain body, so no preflight) or fetch with keepalive. Authenticated as the form is (its
// publishable key, or its form id), the page's origin checked as for a submission, limited per
// address; then gathered in memory and written in batches (src/analytics/gather.ts). Answers 204
// with no body and no cookie; a visitor who asks not to be tracked (Sec-GPC: 1, DNT: 1) is answered
// the same and not counted.
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import * as v from 'valibot';
import { checkOrigin } from '../../accept/steps.ts';
import { daySalt, EVENT_TYPES, gather, visitorOf } from '../../analytics/gather.ts';
import { projectOfKeyText } from '../../auth/authenticate.ts';
import { allowed, clientAddress, countFailedAuthentication, mayLookUpKeys } from '../../auth/rate-limit.ts';
import { config } from '../../config.ts';
import { readWithin } from '../../http/body.ts';
import { describeRoute, pagePath } from '../../http/contract.ts';
import { corsHeaders } from '../../http/cors.ts';
import type { AppEnv } from '../../http/env.ts';
import type { Documented } from '../../http/openapi.ts';
import { errorResponses } from '../../http/openapi-responses.ts';
import { EVENTS_PATH } from '../../http/paths.ts';
import * as replies from '../../http/replies.ts';
import { requestIdOf } from '../../http/request-id.ts';
import { FORM_ID, type ResolvedProject, resolveForm } from '../../projects/cache.ts';
import { placeOf } from '../../store/places.ts';

/** The largest event body: an event is a few short values. */
export const MAX_EVENT_BYTES = 1024;
/** The longest time an event reports (from the first input to leaving or submitting): a day. */
export const MAX_EVENT_MS = 86_400_000;

/** An event: the form (by its publishable key or its form id, exactly one), what happened, where and when. */
export const EventBody = v.pipe(
  v.strictObject({
    key: v.optional(v.pipe(v.string(), v.maxLength(200))),
    form: v.optional(v.pipe(v.string(), v.regex(FORM_ID, 'must be a form id (f_…)'))),
    type: v.picklist(EVENT_TYPES),
    field: v.optional(v.pipe(v.string(), v.maxLength(200))),
    ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_EVENT_MS))),
  }),
  v.check((e) => (e.key === undefined) !== (e.form === undefined), 'give the key or the form id, not both'),
);
export type EventBody = v.InferOutput<typeof EventBody>;

/** C40: a visitor who sends Global Privacy Control or Do Not Track is not counted. */
export const declines = (c: Context) => c.req.header('Sec-GPC') === '1' || c.req.header('DNT') === '1';

/** A small JSON body (text/plain or JSON: the widget sends it without a preflight), by its schema. */
export async function readSmall<T extends v.GenericSchema>(
  c: Context,
  max: number,
  schema: T,
  what: string,
): Promise<v.InferOutput<T>> {
  let bytes: Uint8Array;
  try {
    bytes = await readWithin(c.req.raw, max);
  } catch (error) {
    if (error instanceof Error && 'status' in error && error.status === 413)
      throw replies.invalidBody(`${what} is at most ${max} bytes`);
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    throw replies.notJson();
  }
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = issue?.path?.map((p) => p.key).join('.');
    throw replies.invalidBody(
      `Invalid ${what.replace(/^An? /, '').toLowerCase()}${path ? ` (${path})` : ''}: ${issue?.message ?? 'malformed'}`,
    );
  }
  return parsed.output;
}

const parseEvent = (c: Context) => readSmall(c, MAX_EVENT_BYTES, EventBody, 'An event');

/** The project a page's request is for: its publishable key's, or its form id's. */
async function projectOf(
  c: Context<AppEnv>,
  event: { key?: string | undefined; form?: string | undefined },
): Promise<ResolvedProject> {
  if (event.key !== undefined) {
    const { project } = await projectOfKeyText(c, event.key);
    // An event comes from a page: a secret key has no business there (C23).
    if (project.keyKind === 'secret') throw replies.secretKeyInPage();
    return project;
  }
  const project = await resolveForm(c.env, event.form ?? '', config(c.env).CONFIG_CACHE_SECONDS, () => {
    if (!mayLookUpKeys(clientAddress(c))) throw replies.tooManyRequests();
  });
  if (project === undefined) {
    await countFailedAuthentication(c, c.env);
    throw replies.formNotFound();
  }
  return project;
}

/**
 * C15, C21, C40: the project of a page's request (an event, the widget's token), its origin
 * checked as a submission's, and the request limited per project and client address, by its own
 * limiter (C39: tokens apart from events, so that analytics never costs a person their token).
 */
export async function projectOfPageRequest(
  c: Context<AppEnv>,
  asked: { key?: string | undefined; form?: string | undefined },
  limiter: 'EVENT_RATE_LIMIT' | 'TOKEN_RATE_LIMIT' | 'DRAFT_RATE_LIMIT',
): Promise<ResolvedProject> {
  const project = await projectOf(c, asked);
  checkOrigin(c, project, c.req.header('Origin'));
  const address = clientAddress(c);
  if (address !== undefined && !(await allowed(c, c.env[limiter], limiter, `${project.id} ${address}`)))
    throw replies.tooManyRequests();
  return project;
}

const noContent = (c: Context) =>
  new Response(null, {
    status: 204,
    headers: { 'X-Request-Id': requestIdOf(c), ...corsHeaders(c.req.header('Origin')) },
  });

const waitUntilOf = (c: Context) => {
  try {
    const ctx = c.executionCtx;
    return (work: Promise<unknown>) => ctx.waitUntil(work);
  } catch {
    // A request made without an execution context (app.request): the work runs on its own.
    return (work: Promise<unknown>) => void work.catch(() => {});
  }
};

async function record(c: Context<AppEnv>): Promise<Response> {
  if (declines(c)) return noContent(c);
  const event = await parseEvent(c);
  const project = await projectOfPageRequest(c, event, 'EVENT_RATE_LIMIT');
  const day = new Date().toISOString().slice(0, 10);
  // C41: the visitor's day salt and counts are kept in the project's place.
  const salt = await daySalt(placeOf(c.env, project.place).d1, day);
  const visitor = await visitorOf(
    salt,
    c.req.header('CF-Connecting-IP') ?? '',
    c.req.header('User-Agent') ?? '',
    project.id,
  );
  // Only a field of the project is kept: the rest of a page's names (a honeypot, a token) are not its own.
  const field = project.fields.some((f) => f.name === event.field) ? event.field : undefined;
  gather(c.env, project.place, waitUntilOf(c), config(c.env).ANALYTICS_FLUSH_MS, project.id, day, visitor, {
    type: event.type,
    field,
    ms: event.ms,
  });
  return noContent(c);
}

/** What the endpoint can answer besides 204, by example. */
export function eventReplies(): Documented[] {
  return [
    { name: 'not JSON', reply: replies.notJson() },
    { name: 'invalid event', reply: replies.invalidBody('Invalid event (type): Invalid type: Expected ...') },
    { name: 'too large', reply: replies.invalidBody(`An event is at most ${MAX_EVENT_BYTES} bytes`) },
    { name: 'invalid key', reply: replies.invalidKey() },
    { name: 'secret key in a page', reply: replies.secretKeyInPage() },
    { name: 'origin not allowed', reply: replies.originNotAllowed() },
    { name: 'no such form', reply: replies.formNotFound() },
    { name: 'rate limited', reply: replies.tooManyRequests() },
    { name: 'storage unavailable', reply: replies.unavailable() },
  ];
}

const EVENTS_TAG = 'Form analytics';

const eventOperation = describeRoute(() => ({
  tags: [EVENTS_TAG],
  operationId: 'recordEvent',
  summary: "Record a form's view, start, leave or submission (C40)",
  description:
    'Sent by /widget.js with sendBeacon. No cookie is read or set; no address or user agent is stored: a visitor is a hash of both with the project and a salt that changes every day and is deleted after it. A request with `Sec-GPC: 1` or `DNT: 1` is answered 204 and not counted. The body may be sent as text/plain (no preflight).',
  security: [],
  requestBody: {
    required: true,
    content: {
      'text/plain': {
        schema: {
          type: 'object',
          required: ['type'],
          properties: {
            key: { type: 'string', description: "The form's publishable key (or `form`)." },
            form: { type: 'string', pattern: FORM_ID.source, description: "The form's id (or `key`)." },
            type: { type: 'string', enum: [...EVENT_TYPES] },
            field: { type: 'string', description: 'On `leave`: the last field the visitor touched.' },
            ms: {
              type: 'integer',
              minimum: 0,
              maximum: MAX_EVENT_MS,
              description: 'On `leave` and `submit`: milliseconds since the first input.',
            },
          },
        },
        example: { key: 'edgeform_pk_…', type: 'leave', field: 'message', ms: 42000 },
      },
    },
  },
  responses: {
    204: { description: 'Recorded (or, for a visitor who asked not to be tracked, ignored).' },
    ...errorResponses(eventReplies()),
  },
}));

export function eventRoutes(app: HonoBase<AppEnv>): void {
  app.post(EVENTS_PATH, eventOperation, record);
  pagePath(app, EVENTS_PATH, EVENTS_TAG, 'eventsPreflight');
}
