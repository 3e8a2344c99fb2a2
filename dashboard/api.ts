// C33: the dashboard speaks to the management API (C32) and nothing else: same origin, with the
// session cookie (HttpOnly: no script here can read it), and the session's CSRF token, kept in
// this module's memory only — never in the URL or web storage. What it offers of each delivery
// kind is a static file beside it, built from the channels.
import type { Channels, Session } from './server-types.ts';

export type Envelope = { message: string; error?: { message: string }; errors?: string[] };

/** A refusal of the API, with the sentence it gave. */
export class Problem extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

let csrfToken = '';
let onSignedOut: () => void = () => {};

export function startSession(token: string, signedOut: () => void): void {
  csrfToken = token;
  onSignedOut = signedOut;
}

const e = encodeURIComponent;

/** A path of the management API for one project. */
export const projectPath = (projectId: string, rest = '') => `/projects/${e(projectId)}${rest}`;

/** Where a submission's file is shown (a picture or a PDF) or downloaded. */
export const fileUrl = (projectId: string, submissionId: string, field: string) =>
  `/api/v1${projectPath(projectId, `/submissions/${e(submissionId)}/files/${e(field)}`)}`;

/**
 * A submission's file, from the address its preview frames (same origin, with the session cookie),
 * to judge its bytes before framing them (C33); a refusal is a Problem.
 */
export async function fileBytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Problem(res.status, `The server answered ${res.status} ${res.statusText}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** A query string of the values given (absent and empty ones left out). */
export function query(values: Record<string, string | number | boolean | undefined>): string {
  const entries = Object.entries(values).filter(([, v]) => v !== undefined && v !== '');
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}`;
}

/**
 * One request: the reply's `data` (its `message` and results), or a Problem with the API's own
 * sentence. A 401 means the session has ended: the sign-in page comes back.
 */
export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T & Envelope> {
  const res = await fetch(`/api/v1${path}`, {
    method,
    credentials: 'same-origin',
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(method === 'GET' ? {} : { 'X-CSRF-Token': csrfToken }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  let data: T & Envelope;
  try {
    data = ((await res.json()) as { data: T & Envelope }).data;
  } catch {
    throw new Problem(res.status, `The server answered ${res.status} ${res.statusText}`);
  }
  if (res.status === 401 && path !== '/session') onSignedOut();
  if (!res.ok) throw new Problem(res.status, data.error?.message ?? data.errors?.join('\n') ?? data.message);
  return data;
}

/**
 * C33: the cookie's session; else, behind Cloudflare Access (`access: true`), the one Access's own
 * header makes; else null, and the sign-in page. Signed out, it makes no request bound to fail: the
 * GET answers `session: null` rather than 401, and the POST is made only when Access vouches.
 */
export async function currentSession(): Promise<Session | null> {
  const current = await api<{ session: Session | null; access: boolean }>('GET', '/session');
  if (current.session !== null || !current.access) return current.session;
  return (await api<{ session: Session }>('POST', '/session')).session;
}

let channels: Promise<Channels> | undefined;

/** The delivery kinds the dashboard offers (`/admin/channels.json`), fetched once. */
export function loadChannels(): Promise<Channels> {
  channels ??= fetch('/admin/channels.json').then((res) => {
    if (!res.ok) throw new Problem(res.status, `The server answered ${res.status} ${res.statusText}`);
    return res.json() as Promise<Channels>;
  });
  return channels;
}
