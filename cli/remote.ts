// C32: the tool's requests to a worker's management API (`--url`), each built from the route's
// entry in the API's own table (method, path, query and body as its schemas take them; C44: a
// logo's bytes as they are), and each refusal made the fault the operation itself would raise.
import type * as v from 'valibot';
import type { MANAGE_ROUTES, ManageRouteName } from '../src/api/manage/table.ts';
import { Conflict, InvalidInput, NotFound } from '../src/lib/faults.ts';

/** The worker answered with a refusal the tool cannot name otherwise (401, 403, 429, 5xx). */
export class RemoteRefusal extends Error {
  override name = 'RemoteRefusal';
}

type Reply = {
  data: Record<string, unknown> & { message: string; error?: { message: string }; errors?: string[] };
};

export type Route = (typeof MANAGE_ROUTES)[ManageRouteName];
export type Input<R, K extends string> = R extends { [P in K]: infer S extends v.GenericSchema }
  ? v.InferInput<S>
  : undefined;
type QueryValues = Record<string, string | number | boolean | undefined>;
/** What a request to the route `R` carries: its path's parameters, and its query and body as the route's schemas take them. */
type RequestOf<R extends Route> = {
  params?: Record<string, string>;
  query?: { [K in keyof Input<R, 'query'>]?: string | number | boolean | undefined };
  body?: Input<R, 'body'>;
  /** C44: a body sent as it is (an image), with its type, in place of JSON. */
  raw?: { bytes: Uint8Array; type: string };
  headers?: Record<string, string>;
};

/** The route's path with its parameters filled in, each encoded as one segment. */
function pathOf(route: Route, params: Record<string, string> = {}): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.operationId}: no value for :${name}`);
    return encodeURIComponent(value);
  });
}

function queryString(params: QueryValues = {}): string {
  const entries = Object.entries(params).filter(
    (kv): kv is [string, string | number | boolean] => kv[1] !== undefined,
  );
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}`;
}

/**
 * Requests to the worker at `base` with the operator token (or a project's secret key). Each
 * refusal becomes the fault the operation itself would raise: 400 (and 413, 415) InvalidInput, 404
 * NotFound, 409 Conflict; anything else a RemoteRefusal with the worker's words.
 */
export function transport(base: string, token: string, fetchImpl: typeof fetch) {
  const root = `${base.replace(/\/+$/, '')}/api/v1`;
  async function send<R extends Route>(route: R, request: RequestOf<R> = {}): Promise<Response> {
    const { body, raw, headers = {} } = request;
    const content =
      raw !== undefined
        ? { type: raw.type, body: raw.bytes }
        : body === undefined
          ? undefined
          : { type: 'application/json', body: JSON.stringify(body) };
    const url = `${root}${pathOf(route, request.params)}${queryString(request.query as QueryValues)}`;
    const res = await fetchImpl(url, {
      method: route.method.toUpperCase(),
      headers: {
        Authorization: `Bearer ${token}`,
        ...(content === undefined ? {} : { 'Content-Type': content.type }),
        ...headers,
      },
      ...(content === undefined ? {} : { body: content.body as BodyInit }),
    }).catch((cause: unknown) => {
      const why =
        cause instanceof Error
          ? cause.cause instanceof Error
            ? cause.cause.message
            : cause.message
          : String(cause);
      throw new RemoteRefusal(`cannot reach ${base}: ${why}`);
    });
    if (res.ok) return res;
    let reason = `${res.status} ${res.statusText}`;
    try {
      const reply = (await res.json()) as Reply;
      reason = reply.data.error?.message ?? reply.data.errors?.join('; ') ?? reply.data.message;
    } catch {
      // Not the envelope (a proxy's page): the status says it.
    }
    if (res.status === 400 || res.status === 413 || res.status === 415) throw new InvalidInput(reason);
    if (res.status === 404) throw new NotFound(reason);
    if (res.status === 409) throw new Conflict(reason);
    throw new RemoteRefusal(`the worker answered ${res.status}: ${reason}`);
  }
  async function call<T, R extends Route = Route>(route: R, request?: RequestOf<R>): Promise<T> {
    const { data } = (await (await send(route, request)).json()) as Reply;
    const { message: _, ...rest } = data;
    return rest as T;
  }
  return { send, call };
}
