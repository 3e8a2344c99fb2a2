// C32: how a route of the management API is declared: its contract (parameters, query, body and
// reply, as valibot schemas, in the OpenAPI document), who may call it, and its handler, which
// calls one operation of src/ops with the caller as the actor. The faults of the operations
// become the replies of the catalogue: InvalidInput 400, NotFound 404, Conflict 409.
import type { Context, MiddlewareHandler } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import type { DescribeRouteOptions } from 'hono-openapi';
import type * as v from 'valibot';
import {
  describeRoute,
  jsonBody,
  notAllowed,
  params as paramsOf,
  query as queryOf,
  resolver,
} from '../../http/contract.ts';
import { REASON_PHRASES } from '../../http/envelope.ts';
import { type Documented, okEnvelope } from '../../http/openapi.ts';
import { errorResponses, okResponse } from '../../http/openapi-responses.ts';
import {
  conflict,
  crossSiteSignIn,
  crossSiteWrite,
  internalError,
  invalidBody,
  invalidCredentials,
  invalidParameter,
  invalidRequest,
  MOVING_RETRY_SECONDS,
  manageUnavailable,
  notFoundHere,
  notJson,
  operatorOnly,
  publishableKeyCannotManage,
  tooLarge,
  tooManyRequests,
  unsupportedMediaType,
} from '../../http/replies.ts';
import { sendJson } from '../../http/send.ts';
import {
  Conflict,
  InvalidInput,
  NotFound,
  ProjectLeft,
  ProjectMoving,
  UnavailableError,
} from '../../lib/faults.ts';
import type { Manager } from '../../ops/context.ts';
import { managerOf } from './manager.ts';
import { callerOf, credentialOf, type ManageEnv, ownOrigin, type Principal, refuse } from './principal.ts';

/** The largest body a management route reads. */
export const MAX_MANAGE_BODY = 64 * 1024;

export type Tag =
  | 'Sessions'
  | 'Projects'
  | 'Fields, origins and keys'
  | 'Targets and deliveries'
  | 'Integrations'
  | 'Inbox'
  | 'Places';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a handler answers: 200 or 201, the message, and the results beside it in `data`. */
export type Answer = {
  status?: 200 | 201;
  message: string;
  data?: Record<string, unknown>;
  headers?: Record<string, string>;
};

/**
 * Who may call a route. `project`: the project of `:projectId`, which a secret key may manage if it
 * is its own (any other is 404, as if there were none); `operator`: the operator only (creating or
 * deleting projects); `any`: any caller; `credential`: a credential itself, never a session's
 * cookie (signing in); `optional`: anyone, even with no credential at all (C33: whether one is
 * signed in), though a wrong credential is still refused.
 */
type Access = 'project' | 'operator' | 'any' | 'credential' | 'optional';

/** The caller, and the operations' view of it: none only on an `optional` route. */
type Caller<A extends Access> = A extends 'optional'
  ? { m: Manager | undefined; principal: Principal | undefined }
  : { m: Manager; principal: Principal };
type Call<P, Q, B, A extends Access> = Caller<A> & { c: Context<ManageEnv>; params: P; query: Q; body: B };

export type RouteSpec<
  P extends v.GenericSchema,
  Q extends v.GenericSchema,
  B extends v.GenericSchema,
  A extends Access = Access,
> = {
  method: Method;
  /** Under /api/v1, Hono's syntax: `/projects/:projectId`. */
  path: string;
  tag: Tag;
  operationId: string;
  summary: string;
  description?: string;
  access: A;
  /**
   * C41: the operation finds the project's place itself (and may take up what every other route of
   * the project refuses, 503, until it is done): it is given the default place's database, every
   * place's beside it, and no fence. Unset: a project's route runs on its place, held to its fence.
   */
  findsPlace?: boolean;
  params?: P;
  query?: Q;
  /** The body, as documented and checked (an operation checks its values again). */
  body?: B;
  /** What the body is checked by, when the operation's own check says more (a field's definition). */
  validate?: v.GenericSchema;
  /** The success: an envelope with these members beside `message`, or (`raw`) another body. */
  reply:
    | { status: 200 | 201; description: string; members: v.ObjectEntries; example: Record<string, unknown> }
    | { status: 200; raw: Record<string, unknown> };
  /** Replies of this route beyond those every route gives. */
  refusals?: Documented[];
  /** Further documentation of the operation (a non-JSON reply, headers). */
  extra?: Partial<DescribeRouteOptions>;
  handler: (
    call: Call<v.InferOutput<P>, v.InferOutput<Q>, v.InferOutput<B>, A>,
  ) => Promise<Answer | Response>;
};

/** The credentials a route of the management API takes (OpenAPI's security schemes). */
const SECURITY = [{ operatorToken: [] }, { accessJwt: [] }, { secretKey: [] }, { session: [] }];

/** The replies every route of the management API may give. */
export const COMMON_REFUSALS: Documented[] = [
  { name: 'invalid credentials', reply: invalidCredentials() },
  { name: 'publishable key', reply: publishableKeyCannotManage() },
  { name: 'cookie without CSRF token or from another origin', reply: crossSiteWrite() },
  { name: 'rate limited', reply: tooManyRequests() },
  { name: 'storage unavailable', reply: manageUnavailable() },
  { name: 'unexpected fault', reply: internalError('8f2c1d3e4b5a6978-LHR') },
];

const BODY_REFUSALS: Documented[] = [
  { name: 'not JSON media type', reply: unsupportedMediaType() },
  { name: 'not JSON', reply: notJson() },
  {
    name: 'invalid body',
    reply: invalidBody("Member 'name': Invalid type: Expected string but received 42"),
  },
  { name: 'body too large', reply: tooLarge(MAX_MANAGE_BODY) },
];

type Issue = v.BaseIssue<unknown>;

/** A body's first problem, naming the member it is about. */
function issueText(issues: readonly Issue[]): string {
  const [issue] = issues;
  if (issue === undefined) return 'Invalid body';
  const path = (issue.path ?? []).map((p) => String(p.key)).join('.');
  if (issue.kind === 'schema' && issue.type === 'strict_object' && issue.expected === 'never') {
    return `Unknown member '${path}'`;
  }
  // A string sent where something else belongs is never repeated: it may be a secret (a token, a
  // service account's key sent as text).
  const message = issue.message.replace(/ but received ".*"$/s, ' but received a string');
  return path === '' ? message : `Member '${path}': ${message}`;
}

/** The operations' faults as replies (C19, C32); an outage is 503 (C18). */
function asReply(error: unknown): unknown {
  if (error instanceof InvalidInput) return invalidRequest(error.message);
  if (error instanceof NotFound) return notFoundHere(error.message);
  if (error instanceof Conflict) return conflict(error.message);
  // C41: moving, 503 until it is done; a key's cached place the project has left, 503 once (the
  // retry finds where it went) or, deleted, the key is no more.
  if (error instanceof ProjectMoving) return manageUnavailable(MOVING_RETRY_SECONDS);
  if (error instanceof ProjectLeft) return error.moved ? manageUnavailable(1) : invalidCredentials();
  if (error instanceof UnavailableError) return manageUnavailable();
  return error;
}

/** The caller, and whether it may call this route on this project. */
function guard(access: Access): MiddlewareHandler<ManageEnv> {
  return async (c, next) => {
    let principal: Principal | undefined;
    try {
      // C37: signing in is same-site only, whatever the credential: a page of another origin
      // cannot have a browser trade a credential (Access adds its token to every request) for a
      // session.
      const origin = c.req.header('Origin');
      if (access === 'credential' && origin !== undefined && origin !== ownOrigin(c)) throw crossSiteSignIn();
      const credential = access === 'credential' ? await credentialOf(c) : undefined;
      if (access === 'credential' && credential === undefined) await refuse(c);
      principal = credential ?? (await callerOf(c));
      // C32: no credential is 401, and counts as a failed authentication, but where none is needed.
      if (principal === undefined && access !== 'optional') await refuse(c);
    } catch (error) {
      throw asReply(error);
    }
    if (access === 'operator' && principal?.projectId !== undefined) throw operatorOnly();
    const projectId = c.req.param('projectId');
    if (access === 'project' && principal?.projectId !== undefined && projectId !== principal.projectId) {
      // C32: another project's id is as unknown to a secret key as one that does not exist.
      throw notFoundHere(`Unknown project '${projectId}'`);
    }
    c.set('principal', principal);
    await next();
  };
}

/** `1 project`, `2 projects`; `many` where the plural is not the word and an s. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The envelope of an answer. */
export function answer(c: Context, a: Answer): Response {
  const status = a.status ?? 200;
  const data = { message: a.message, ...a.data };
  return sendJson(
    c,
    status,
    JSON.stringify({ data, status: { code: status, message: REASON_PHRASES[status] } }),
    a.headers,
  );
}

/**
 * The routes of the management API, declared one by one and then closed: each path's other
 * methods answer 405 with its `Allow`.
 */
export class ManageRoutes {
  private readonly methods = new Map<string, { tag: Tag; allowed: Set<string> }>();
  private readonly app: HonoBase<ManageEnv>;
  constructor(app: HonoBase<ManageEnv>) {
    this.app = app;
  }

  add<P extends v.GenericSchema, Q extends v.GenericSchema, B extends v.GenericSchema, A extends Access>(
    spec: RouteSpec<P, Q, B, A>,
  ): void {
    const path = `/api/v1${spec.path}`;
    const known = this.methods.get(path) ?? { tag: spec.tag, allowed: new Set<string>() };
    known.allowed.add(spec.method.toUpperCase());
    this.methods.set(path, known);
    const refusals = [
      ...COMMON_REFUSALS,
      ...(spec.access === 'operator' ? [{ name: 'secret key', reply: operatorOnly() }] : []),
      ...(spec.body === undefined ? [] : BODY_REFUSALS),
      ...(spec.params === undefined
        ? []
        : [{ name: 'not found', reply: notFoundHere("Unknown project 'p_k3jd8s2mq0zx'") }]),
      ...(spec.query === undefined
        ? []
        : [
            {
              name: 'invalid parameter',
              reply: invalidParameter('limit', 'must be a whole number from 1 to 500'),
            },
          ]),
      ...(spec.method === 'get'
        ? []
        : [
            {
              name: 'invalid input',
              reply: invalidRequest(
                "Invalid origin 'example.com': expected scheme://host[:port], e.g. https://example.com",
              ),
            },
            { name: 'conflict', reply: conflict("Field 'email' already exists in project 'p_k3jd8s2mq0zx'") },
          ]),
      ...(spec.refusals ?? []),
    ];
    const middleware: MiddlewareHandler<ManageEnv>[] = [guard(spec.access)];
    if (spec.params !== undefined) {
      middleware.push(
        // Path parameters are only bounded here: the operation says what it does not know (404).
        paramsOf(spec.params, () =>
          notFoundHere('No such resource'),
        ) as unknown as MiddlewareHandler<ManageEnv>,
      );
    }
    if (spec.query !== undefined)
      middleware.push(queryOf(spec.query) as unknown as MiddlewareHandler<ManageEnv>);
    if (spec.body !== undefined) {
      middleware.push(
        jsonBody(spec.validate ?? spec.body, {
          maxBytes: MAX_MANAGE_BODY,
          invalid: (issues) => invalidBody(issueText(issues as unknown as Issue[])),
        }) as unknown as MiddlewareHandler<ManageEnv>,
      );
    }
    const handler = async (c: Context<ManageEnv>) => {
      const principal = c.var.principal;
      try {
        // Only an `optional` route is ever called by no one (its guard lets no other through).
        const result = await spec.handler({
          c,
          m: principal === undefined ? undefined : await managerOf(c, principal, spec.findsPlace ?? false),
          principal,
          params: spec.params === undefined ? {} : c.req.valid('param' as never),
          query: spec.query === undefined ? {} : c.req.valid('query' as never),
          body: c.get('body'),
        } as Call<v.InferOutput<P>, v.InferOutput<Q>, v.InferOutput<B>, A>);
        return result instanceof Response ? result : answer(c, result);
      } catch (error) {
        throw asReply(error);
      }
    };
    this.app.on(
      spec.method.toUpperCase(),
      path,
      describeRoute({
        tags: [spec.tag],
        operationId: spec.operationId,
        summary: spec.summary,
        ...(spec.description === undefined ? {} : { description: spec.description }),
        // An `optional` route may be called with none of them (`{}`).
        security: spec.access === 'optional' ? [...SECURITY, {}] : SECURITY,
        ...(spec.body === undefined
          ? {}
          : {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: resolver(spec.body) } },
              },
            }),
        responses: {
          [spec.reply.status]:
            'raw' in spec.reply
              ? spec.reply.raw
              : okResponse(
                  spec.reply.description,
                  resolver(okEnvelope(spec.reply.status, spec.reply.members)),
                  {
                    data: spec.reply.example,
                    status: { code: spec.reply.status, message: REASON_PHRASES[spec.reply.status] },
                  },
                ),
          ...errorResponses(refusals),
        },
        ...spec.extra,
      }),
      ...middleware,
      handler,
    );
  }

  /** Every other method of each path: 405, with `Allow`. */
  close(): void {
    for (const [path, { tag, allowed }] of this.methods)
      notAllowed(this.app, path, [...allowed].join(', '), tag);
  }
}
