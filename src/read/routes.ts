// C24, C25: the read API, for a site's own server: list, read, delete and erase the key's project's
// submissions, with a secret key (C23). Replies are the envelope with the results as further
// members of `data`, and carry no CORS headers. Reads go through a D1 session, so that with read
// replication on they are served near the reader; the session's bookmark travels in a header.
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import { type AppEnv, authenticate, rateLimit, requireSecretKey } from '../auth/authenticate.ts';
import { scriptCapable } from '../fields/file.ts';
import { fileKey } from '../files/r2.ts';
import { readWithin } from '../http/body.ts';
import { REASON_PHRASES } from '../http/envelope.ts';
import { isJsonMediaType } from '../http/media-type.ts';
import {
  fileNotFound,
  invalidErasure,
  invalidParameter,
  notJson,
  READ_PATH,
  readMethodNotAllowed,
  submissionNotFound,
  unsupportedMediaType,
} from '../http/replies.ts';
import { requestIdOf } from '../http/request-id.ts';
import { send, sendJson } from '../http/send.ts';
import { parseTime } from '../lib/time.ts';
import { sessionDatabase } from '../store/db.ts';
import {
  deleteSubmission,
  eraseSubmissions,
  type FieldValue,
  findSubmission,
  listSubmissionPage,
  type Order,
  type SpamFilter,
  type StoredSubmission,
} from '../store/submissions.ts';

/** C24: the header a reply's D1 bookmark is in, and a request's is read from (read-after-write). */
export const BOOKMARK_HEADER = 'X-D1-Bookmark';
export const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 100;
/** A page holds at most about this much stored JSON, whatever its limit (always one row at least). */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// A bookmark is D1's own opaque token: bounded, printable, and passed on as it came.
const BOOKMARK = /^[\x21-\x7e]{1,512}$/;

type ReadContext = Context<AppEnv>;

/** A D1 session for this request: after the client's bookmark when it sent a valid one. */
function session(c: ReadContext, writes: boolean) {
  const given = c.req.header(BOOKMARK_HEADER);
  const start =
    given !== undefined && BOOKMARK.test(given) ? given : writes ? 'first-primary' : 'first-unconstrained';
  return sessionDatabase(c.env.DB, start);
}

/** 200: the envelope with `members` after `message`, each given as JSON text. */
function ok(c: ReadContext, message: string, members: Record<string, string>, bookmark: string | null) {
  const data = [
    `"message":${JSON.stringify(message)}`,
    ...Object.entries(members).map(([k, v]) => `"${k}":${v}`),
  ];
  const json = `{"data":{${data.join(',')}},"status":{"code":200,"message":"${REASON_PHRASES[200]}"}}`;
  return sendJson(c, 200, json, bookmark === null ? {} : { [BOOKMARK_HEADER]: bookmark });
}

/** A stored submission as the read API shows it; `fields` is the stored JSON, as stored. */
function item(s: StoredSubmission): string {
  return `{"id":${JSON.stringify(s.id)},"receivedAt":${JSON.stringify(s.receivedAt)},"fields":${s.data},"spam":${s.spam}}`;
}

// Cursors are opaque to clients: the order and the last id of the page, in base64url.
function encodeCursor(order: Order, id: string): string {
  return btoa(`${order}:${id}`).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
}

function decodeCursor(cursor: string, order: Order): string {
  let text = '';
  try {
    text = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    // falls through to the refusal below
  }
  const [cursorOrder, id = ''] = text.split(':');
  if (cursorOrder !== order || !ID.test(id)) {
    throw invalidParameter(
      'cursor',
      'is not a cursor of this listing (use nextCursor as given, with the same order)',
    );
  }
  return id;
}

function isoTime(c: ReadContext, name: 'since' | 'until'): string | undefined {
  const text = c.req.query(name);
  if (text === undefined) return undefined;
  // A day that does not exist (2026-02-31) is refused, never rolled over into March.
  const time = parseTime(text);
  if (time === undefined) throw invalidParameter(name, 'must be an ISO 8601 time, e.g. 2026-11-22T09:00:00Z');
  return time;
}

function oneOf<T extends string>(c: ReadContext, name: string, allowed: readonly T[], fallback: T): T {
  const text = c.req.query(name);
  if (text === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(text)) {
    throw invalidParameter(name, `must be one of: ${allowed.join(', ')}`);
  }
  return text as T;
}

const KNOWN_PARAMETERS = new Set(['limit', 'cursor', 'since', 'until', 'order', 'spam']);

/** GET /api/v1/submissions: a page, oldest first unless `order=desc`, and the cursor of the next. */
async function list(c: ReadContext): Promise<Response> {
  for (const name of Object.keys(c.req.queries())) {
    if (!KNOWN_PARAMETERS.has(name))
      throw invalidParameter(name, `is not known: use ${[...KNOWN_PARAMETERS].join(', ')}`);
  }
  const limitText = c.req.query('limit');
  const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
  if (!/^\d+$/.test(limitText ?? '1') || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw invalidParameter('limit', `must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  const order = oneOf(c, 'order', ['asc', 'desc'] as const, 'asc');
  const spam = oneOf<SpamFilter>(c, 'spam', ['exclude', 'include', 'only'], 'exclude');
  const cursor = c.req.query('cursor');
  const since = isoTime(c, 'since');
  const until = isoTime(c, 'until');
  const { db, bookmark } = session(c, false);
  const page = await listSubmissionPage(db, {
    projectId: c.var.project.id,
    limit,
    maxBytes: MAX_PAGE_BYTES,
    order,
    after: cursor === undefined ? undefined : decodeCursor(cursor, order),
    since,
    until,
    spam,
  });
  const last = page.rows.at(-1);
  const members: Record<string, string> = { submissions: `[${page.rows.map(item).join(',')}]` };
  if (page.more && last !== undefined) members.nextCursor = JSON.stringify(encodeCursor(order, last.id));
  const count = page.rows.length;
  return ok(c, `${count} submission${count === 1 ? '' : 's'}`, members, bookmark());
}

function idParameter(c: ReadContext): string {
  const id = c.req.param('id') ?? '';
  // An id that cannot be one of ours is simply not found: the same reply as another project's.
  if (!ID.test(id)) throw submissionNotFound();
  return id;
}

/** GET /api/v1/submissions/{id} */
async function getOne(c: ReadContext): Promise<Response> {
  const id = idParameter(c);
  const { db, bookmark } = session(c, false);
  const found = await findSubmission(db, c.var.project.id, id);
  if (found === undefined) throw submissionNotFound();
  return ok(c, 'Submission found', { submission: item(found) }, bookmark());
}

/** DELETE /api/v1/submissions/{id} */
async function deleteOne(c: ReadContext): Promise<Response> {
  const id = idParameter(c);
  const { db, bookmark } = session(c, true);
  if (!(await deleteSubmission(db, c.var.project.id, id))) throw submissionNotFound();
  return ok(c, 'Submission deleted', { deleted: JSON.stringify(id) }, bookmark());
}

/**
 * C30: GET /api/v1/submissions/{id}/files/{field}: the file's bytes as stored in R2, typed as judged
 * from them, as an attachment (never shown inline, never sniffed).
 */
async function download(c: ReadContext): Promise<Response> {
  const id = idParameter(c);
  const field = c.req.param('field') ?? '';
  const { db } = session(c, false);
  const found = await findSubmission(db, c.var.project.id, id);
  if (found === undefined) throw submissionNotFound();
  const fields = JSON.parse(found.data) as Record<string, unknown>;
  const meta = Object.hasOwn(fields, field) ? fields[field] : undefined;
  if (
    typeof meta !== 'object' ||
    meta === null ||
    typeof (meta as { sha256?: unknown }).sha256 !== 'string'
  ) {
    throw fileNotFound(field);
  }
  const object = await c.env.FILES?.get(fileKey(c.var.project.id, id, field));
  if (object === undefined || object === null) throw fileNotFound(field);
  const { name, type } = meta as { name?: unknown; type?: unknown };
  const filename = typeof name === 'string' && name !== '' ? name : field;
  return new Response(object.body, {
    status: 200,
    headers: {
      // C30: a type a browser would run script in is only ever a download of bytes.
      'Content-Type': typeof type === 'string' && !scriptCapable(type) ? type : 'application/octet-stream',
      'Content-Length': String(object.size),
      'Content-Disposition': contentDisposition(filename),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      'X-Request-Id': requestIdOf(c),
    },
  });
}

/**
 * C30: an attachment's name: `filename` in ASCII for tools that read only it (curl -J), and
 * `filename*` with the real name in UTF-8, percent-encoded but for RFC 8187's attr-chars.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  // encodeURIComponent leaves ' ( ) * as they are, which attr-char does not allow.
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

const MAX_ERASE_BODY = 16 * 1024;

/** POST /api/v1/submissions/erase {"field", "value"}: every submission whose field holds the value. */
async function erase(c: ReadContext): Promise<Response> {
  if (!isJsonMediaType(c.req.header('Content-Type'))) throw unsupportedMediaType();
  // Read no further than the limit: a body of megabytes is refused at its 16,385th byte.
  const text = new TextDecoder().decode(await readWithin(c.req.raw, MAX_ERASE_BODY));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw notJson();
  }
  const { field, value } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const isValue =
    value === null ||
    ['string', 'boolean'].includes(typeof value) ||
    (typeof value === 'number' && Number.isFinite(value));
  if (typeof field !== 'string' || field === '' || !isValue || Object.keys(body as object).length !== 2) {
    throw invalidErasure();
  }
  const { db, bookmark } = session(c, true);
  const erased = await eraseSubmissions(db, c.var.project.id, field, value as FieldValue);
  return ok(
    c,
    `Erased ${erased} submission${erased === 1 ? '' : 's'}`,
    { erased: String(erased) },
    bookmark(),
  );
}

function notAllowed(allow: string) {
  return (c: ReadContext) => {
    const reply = readMethodNotAllowed(c.req.method, allow);
    return send(c, reply.toEnvelope(), reply.headers);
  };
}

/** The routes of the read API, each behind the key, its rate limit and the secret-key check. */
export function readRoutes(app: HonoBase<AppEnv>): void {
  const guard = [authenticate, rateLimit, requireSecretKey] as const;
  app.get(READ_PATH, ...guard, list);
  app.all(READ_PATH, notAllowed('GET'));
  app.post(`${READ_PATH}/erase`, ...guard, erase);
  app.all(`${READ_PATH}/erase`, notAllowed('POST'));
  app.get(`${READ_PATH}/:id`, ...guard, getOne);
  app.delete(`${READ_PATH}/:id`, ...guard, deleteOne);
  app.all(`${READ_PATH}/:id`, notAllowed('GET, DELETE'));
  app.get(`${READ_PATH}/:id/files/:field`, ...guard, download);
  app.all(`${READ_PATH}/:id/files/:field`, notAllowed('GET'));
}
