// Requests to the management API (C32) through the worker's entry point, each reply checked
// against the OpenAPI document as every reply a test receives is.
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { REASON_PHRASES, type StatusCode } from '../../src/http/envelope.ts';
import { fetchWorker } from '../helpers.ts';

export const BASE = 'https://forms.test';

export type Call = {
  /** `Authorization: Bearer <token>`; the operator's unless told (null: none). */
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
};

export const operatorToken = () => env.ADMIN_TOKEN as string;

export function request(method: string, path: string, call: Call = {}): Request {
  const headers = new Headers(call.headers);
  const token = call.token === undefined ? operatorToken() : call.token;
  if (token !== null) headers.set('Authorization', `Bearer ${token}`);
  if (call.body !== undefined && !headers.has('Content-Type'))
    headers.set('Content-Type', 'application/json');
  return new Request(`${BASE}/api/v1${path}`, {
    method,
    headers,
    body: call.body === undefined ? null : JSON.stringify(call.body),
  });
}

export function api(method: string, path: string, call: Call = {}): Promise<Response> {
  return fetchWorker(request(method, path, call));
}

type Body = {
  data: Record<string, unknown> & { message: string; error?: { message: string } };
  status: { code: number };
};

/** The envelope of a reply of this status; its `data`. */
export async function expectReply(res: Response, code: StatusCode): Promise<Body['data']> {
  const body = (await res.json()) as Body;
  expect(res.status, JSON.stringify(body.data)).toBe(code);
  expect(body.status).toEqual({ code, message: REASON_PHRASES[code] });
  return body.data;
}

/** `data` of a 2xx reply, typed as the test expects it. */
export async function ok<T = Record<string, unknown>>(res: Response, code: StatusCode = 200): Promise<T> {
  return (await expectReply(res, code)) as T;
}

/** The one-line problem of an error reply. */
export async function problem(res: Response, code: StatusCode): Promise<string | undefined> {
  return (await expectReply(res, code)).error?.message;
}

/** A project made over the API, with fields; its id and first (publishable) key. */
export async function newProject(
  fields: unknown[] = [
    { name: 'email', type: 'string', required: true, rules: { format: 'email' } },
    { name: 'message', type: 'string' },
  ],
  extra: Record<string, unknown> = {},
): Promise<{ projectId: string; apiKey: string; formId: string }> {
  return ok(await api('POST', '/projects', { body: { name: 'Inbox test', fields, ...extra } }), 201);
}

/** A secret key of the project, made over the API. */
export async function secretKeyOf(projectId: string): Promise<string> {
  const data = await ok<{ key: string }>(
    await api('POST', `/projects/${projectId}/keys`, { body: { kind: 'secret' } }),
    201,
  );
  return data.key;
}

/**
 * C32: a dashboard session made from a credential: the headers a change made with it sends (its
 * cookie, its CSRF token, the worker's own Origin).
 */
export async function signedIn(token: string): Promise<Record<string, string>> {
  const res = await api('POST', '/session', { token });
  const data = await ok<{ session: { csrfToken: string } }>(res, 201);
  const cookie = (res.headers.get('Set-Cookie') ?? '').split(';')[0] ?? '';
  return { Cookie: cookie, 'X-CSRF-Token': data.session.csrfToken, Origin: BASE };
}

/** C30: one file posted with an email through the project's HTML form address; 201 expected. */
export async function upload(formId: string, field: string, bytes: Uint8Array, name: string, type: string) {
  const data = new FormData();
  data.append('email', 'ada@example.com');
  data.append(field, new File([bytes], name, { type }));
  const res = await fetchWorker(
    new Request(`https://forms.test/f/${formId}`, {
      method: 'POST',
      body: data,
      headers: { Accept: 'application/json' },
    }),
  );
  expect(res.status).toBe(201);
}
