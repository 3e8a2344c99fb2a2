// Each route declares its contract beside its handler: its parameters and body as valibot schemas,
// validated by middleware (hono-openapi, over @hono/standard-validator), and its replies; the
// OpenAPI document is generated from the app. The first problem found answers with the catalogue's
// reply that names it (C24: `Query parameter '<name>' …`).
//
// Only the description and validation halves of hono-openapi run in the worker: the generator's
// schema converters are swapped out of the worker's bundle (wrangler.toml `[alias]`), since the
// document is generated at build time (src/document.ts), never at run time.
import type { Context, MiddlewareHandler } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import { type DescribeRouteOptions, describeRoute as describe, uniqueSymbol, validator } from 'hono-openapi';
import * as v from 'valibot';
import { readWithin } from './body.ts';
import { preflight } from './cors.ts';
import type { ApiError } from './envelope.ts';
import { isJsonMediaType } from './media-type.ts';
import { errorResponses, preflightOperation } from './openapi-responses.ts';
import {
  invalidParameter,
  methodNotAllowed,
  notJson,
  readMethodNotAllowed,
  unsupportedMediaType,
} from './replies.ts';
import { send, sendMethodNotAllowed } from './send.ts';

export { resolver } from 'hono-openapi';

/**
 * A route's operation, as hono-openapi's `describeRoute`, but given as a function: the description
 * (its examples, its schemas) is built only when the document is generated, never when an isolate
 * starts and declares its routes.
 */
export function describeRoute(spec: DescribeRouteOptions | (() => DescribeRouteOptions)): MiddlewareHandler {
  if (typeof spec !== 'function') return describe(spec);
  const middleware = describe({});
  let built: { spec: DescribeRouteOptions } | undefined;
  Object.defineProperty(middleware, uniqueSymbol, {
    get: () => {
      built ??= { spec: spec() };
      return built;
    },
  });
  return middleware;
}

type Issues = readonly { message: string; path?: readonly (PropertyKey | { key: PropertyKey })[] }[];

/** The parameter an issue is about: the first key of its path. */
function parameterOf(issue: Issues[number]): string {
  const [first] = issue.path ?? [];
  return String(typeof first === 'object' && first !== null ? first.key : (first ?? ''));
}

/**
 * The query parameters of a route, by a valibot object whose messages say what each must be
 * (`must be one of: asc, desc`); an unknown parameter is refused too, so a typo is never ignored.
 * The first problem → 400 `Query parameter '<name>' <message>`, unknown names first.
 */
export function query<S extends v.GenericSchema>(schema: S) {
  return validator('query', schema, (result) => {
    if (result.success) return;
    const issues = result.error as Issues;
    const first = issues.find((i) => i.message.startsWith('is not known')) ?? issues[0];
    if (first !== undefined) throw invalidParameter(parameterOf(first), first.message);
  });
}

/** The path parameters of a route; one that cannot be valid answers `refused()` (a 404, say). */
export function params<S extends v.GenericSchema>(schema: S, refused: () => ApiError) {
  return validator('param', schema, (result) => {
    if (!result.success) throw refused();
  });
}

/**
 * A JSON body, read no further than `maxBytes` (413), in a JSON media type (415), parsed (400 not
 * JSON) and checked by the schema (`invalid()`). The value is `c.get('body')`.
 */
export function jsonBody<S extends v.GenericSchema>(
  schema: S,
  options: { maxBytes: number; invalid: (issues: Issues) => ApiError },
): MiddlewareHandler {
  return async (c, next) => {
    if (!isJsonMediaType(c.req.header('Content-Type'))) throw unsupportedMediaType();
    const text = new TextDecoder().decode(await readWithin(c.req.raw, options.maxBytes));
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw notJson();
    }
    const result = v.safeParse(schema, parsed);
    if (!result.success) throw options.invalid(result.issues as unknown as Issues);
    c.set('body', result.output);
    await next();
  };
}

/** C16: the methods a submitting path does not take, documented; any other gets the same 405. */
export const NOT_ALLOWED = ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'];
export const notAllowedOperation = describeRoute(() => ({
  description: 'Not a method of this path: 405, with `Allow`.',
  responses: errorResponses([{ name: 'method not allowed', reply: methodNotAllowed('GET') }]),
}));

/**
 * C14, C16: a path a page's script posts to (the submit path, a form's address, the widget's):
 * its CORS preflight, and 405 for every method it does not take, each documented under its tag.
 */
export function pagePath(
  // biome-ignore lint/suspicious/noExplicitAny: any app's environment
  app: HonoBase<any>,
  path: string,
  tag: string,
  preflightId: string,
  parameters?: readonly unknown[],
  // C44: a path that serves GET too (a form address, its hosted page) refuses fewer methods.
  notAllowed: readonly string[] = NOT_ALLOWED,
  refuse: (c: Context) => Response = sendMethodNotAllowed,
): void {
  const withParameters = parameters === undefined ? {} : { parameters: [...parameters] };
  app.options(
    path,
    describeRoute(
      () => ({ ...preflightOperation(preflightId), tags: [tag], ...withParameters }) as DescribeRouteOptions,
    ),
    preflight,
  );
  app.on(
    [...notAllowed],
    path,
    describeRoute({ tags: [tag], ...withParameters } as DescribeRouteOptions),
    notAllowedOperation,
    refuse,
  );
  app.all(path, refuse);
}

const METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * C16, C24, C32: the methods a path of the read or management API does not take: 405 with its
 * `Allow`. The common ones are documented; any other method gets the same answer.
 */
// biome-ignore lint/suspicious/noExplicitAny: any app's environment
export function notAllowed(app: HonoBase<any>, path: string, allow: string, tag: string): void {
  const allowed = allow.split(', ');
  const methods = METHODS.filter((m) => !allowed.includes(m));
  const answer = (c: Context) => {
    const reply = readMethodNotAllowed(c.req.method, allow);
    return send(c, reply.toEnvelope(), reply.headers);
  };
  app.on(
    methods,
    path,
    describeRoute({
      tags: [tag],
      description: 'Not a method of this path: 405, with `Allow`.',
      responses: errorResponses([
        { name: 'method not allowed', reply: readMethodNotAllowed(methods[0] ?? 'PUT', allow) },
      ]),
    }),
    answer,
  );
  app.all(path, answer);
}
