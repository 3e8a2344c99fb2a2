// C24, C25: the key-scoped submissions API, for a site's own server: list, read, delete and erase
// the key's project's submissions, with a secret key (C23). A thin layer over the inbox's
// operations (src/ops), as the management API is: the same listing, look-up, deletion, erasure and
// audit entries. What differs is its published contract, kept on purpose (docs/reading.md): oldest
// first by default, pages of 100 up to 1000, the stored JSON as it is with `spam` beside it, files
// as attachments, its own sentences, no CORS headers. Reads go through a D1 session, so that with
// read replication on they are served near the reader; the session's bookmark travels in a header.
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import type { ResponsesWithResolver } from 'hono-openapi';
import type * as v from 'valibot';
import { authenticate, rateLimit, requireSecretKey } from '../../auth/authenticate.ts';
import { fileResponse } from '../../files/serve.ts';
import { describeRoute, jsonBody, notAllowed, params, query, resolver } from '../../http/contract.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import type { AppEnv } from '../../http/env.ts';
import { REASON_PHRASES } from '../../http/envelope.ts';
import { EraseBody } from '../../http/erase.ts';
import { BOOKMARK_HEADER } from '../../http/headers.ts';
import type { Documented } from '../../http/openapi.ts';
import { errorResponses, HEADER_DOCS, okResponse } from '../../http/openapi-responses.ts';
import { READ_PATH } from '../../http/paths.ts';
import { invalidErasure, submissionNotFound } from '../../http/replies.ts';
import { sendJson } from '../../http/send.ts';
import { NotFound } from '../../lib/faults.ts';
import type { Manager } from '../../ops/context.ts';
import { deleteSubmission, storedSubmission, submissionPage } from '../../ops/inbox.ts';
import { eraseValue } from '../../ops/submissions.ts';
import { forgetCached } from '../../projects/cache.ts';
import { sessionDatabase } from '../../store/db.ts';
import type { StoredSubmission } from '../../store/inbox.ts';
import { placeOf } from '../../store/places.ts';
import {
  DEFAULT_LIMIT,
  DeletedReply,
  ErasedReply,
  FileParams,
  IdParams,
  ListQuery,
  ListReply,
  MAX_ERASE_BODY,
  OneReply,
  readReplies,
  STORED_EXAMPLE,
} from './contract.ts';

// A bookmark is D1's own opaque token: bounded, printable, and passed on as it came.
const BOOKMARK = /^[\x21-\x7e]{1,512}$/;

type ReadContext = Context<AppEnv>;

/**
 * The operations' view of this request, in a D1 session after the client's bookmark when it sent a
 * valid one. C32: a change made here is in the audit log as the same change made through the
 * management API, by the request's key; the key has named the project already, so the operations
 * do not read it again.
 */
function manager(c: ReadContext, writes: boolean): { m: Manager; bookmark: () => string | null } {
  const given = c.req.header(BOOKMARK_HEADER);
  const start =
    given !== undefined && BOOKMARK.test(given) ? given : writes ? 'first-primary' : 'first-unconstrained';
  // C41: the database of the key's project's place, as the key's cache has it: each statement is
  // held to the fence, so a project that has moved or is moving is never read or changed there.
  const place = c.var.project.place;
  const d1 = placeOf(c.env, place).d1;
  const { db, bookmark } = sessionDatabase(d1, start, {
    projectId: c.var.project.id,
    place,
    keyed: true,
    left: (moved) => forgetCached(d1, c.var.keyHash, !moved),
  });
  return {
    m: { db, place, actor: { kind: 'key', prefix: c.var.keyPrefix }, keyProject: c.var.project.id },
    bookmark,
  };
}

/** The operations' "no such submission" in this API's own sentence (C24). */
async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw error instanceof NotFound ? submissionNotFound() : error;
  }
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

/** A stored submission as this API shows it; `fields` is the stored JSON, as stored. */
function item(s: StoredSubmission): string {
  return `{"id":${JSON.stringify(s.id)},"receivedAt":${JSON.stringify(s.receivedAt)},"fields":${s.data},"spam":${s.spam},"spamScore":${JSON.stringify(s.spamScore)},"spamReason":${s.spamReason ?? 'null'}}`;
}

/** GET /api/v1/submissions: a page, oldest first unless `order=desc`, and the cursor of the next. */
async function list(c: ReadContext): Promise<Response> {
  const q = c.req.valid('query' as never) as v.InferOutput<typeof ListQuery>;
  const order = q.order ?? 'asc';
  const { m, bookmark } = manager(c, false);
  const page = await submissionPage(m, c.var.project.id, {
    limit: q.limit ?? DEFAULT_LIMIT,
    order,
    after: q.cursor === undefined ? undefined : decodeCursor(q.cursor, order),
    filters: { since: q.since, until: q.until, spam: q.spam },
  });
  const last = page.rows.at(-1);
  const members: Record<string, string> = { submissions: `[${page.rows.map(item).join(',')}]` };
  if (page.more && last !== undefined) members.nextCursor = JSON.stringify(encodeCursor(order, last.id));
  const count = page.rows.length;
  return ok(c, `${count} submission${count === 1 ? '' : 's'}`, members, bookmark());
}

const idOf = (c: ReadContext) => (c.req.valid('param' as never) as v.InferOutput<typeof IdParams>).id;

/** GET /api/v1/submissions/{id} */
async function getOne(c: ReadContext): Promise<Response> {
  const { m, bookmark } = manager(c, false);
  const found = await orNotFound(storedSubmission(m, c.var.project.id, idOf(c)));
  return ok(c, 'Submission found', { submission: item(found) }, bookmark());
}

/** DELETE /api/v1/submissions/{id} */
async function deleteOne(c: ReadContext): Promise<Response> {
  const { m, bookmark } = manager(c, true);
  const { deleted } = await orNotFound(deleteSubmission(m, c.var.project.id, idOf(c)));
  return ok(c, 'Submission deleted', { deleted: JSON.stringify(deleted) }, bookmark());
}

/**
 * C30: GET /api/v1/submissions/{id}/files/{field}: the file's bytes as stored in R2, typed as judged
 * from them, as an attachment (never shown inline, never sniffed).
 */
async function download(c: ReadContext): Promise<Response> {
  const { id, field } = c.req.valid('param' as never) as v.InferOutput<typeof FileParams>;
  const { m } = manager(c, false);
  return fileResponse(c, m.db, m.place, c.var.project.id, id, field, false);
}

/** POST /api/v1/submissions/erase {"field", "value"}: every submission whose field holds the value. */
async function erase(c: ReadContext): Promise<Response> {
  const { field, value } = c.get('body') as v.InferOutput<typeof EraseBody>;
  const { m, bookmark } = manager(c, true);
  const { erased } = await eraseValue(m, c.var.project.id, field, value);
  return ok(
    c,
    `Erased ${erased} submission${erased === 1 ? '' : 's'}`,
    { erased: String(erased) },
    bookmark(),
  );
}

const security = [{ secretKey: [] }];
const READ_TAG = 'Reading and erasing (secret key)';
const bookmarkParameter = {
  name: BOOKMARK_HEADER,
  in: 'header' as const,
  required: false,
  description: 'A bookmark from an earlier reply: this read sees at least that write (C24).',
  schema: { type: 'string' as const },
};

/** An operation of the read API: its replies beside the catalogue's, with a secret key. */
function operation(
  spec: { operationId: string; summary: string; description?: string },
  ok: ResponsesWithResolver,
  refusals: Documented[],
) {
  return describeRoute({
    tags: [READ_TAG],
    ...spec,
    security,
    parameters: [bookmarkParameter],
    responses: { ...ok, ...errorResponses(refusals) },
  });
}

/** The routes of the read API, each behind the key, its rate limit and the secret-key check. */
export function readRoutes(app: HonoBase<AppEnv>): void {
  const guard = [authenticate, rateLimit, requireSecretKey] as const;
  const oneSubmission = params(IdParams, submissionNotFound);

  app.get(
    READ_PATH,
    operation(
      {
        operationId: 'listSubmissions',
        summary: "A page of the key's project's submissions (C24)",
        description:
          'Cursor pagination on the time-ordered id: pass `nextCursor` as `cursor` (with the same order) until it is absent. A page holds at most `limit` submissions and about 4 MiB of them.',
      },
      {
        200: okResponse(
          'A page, and the cursor of the next one (absent on the last page).',
          resolver(ListReply),
          {
            data: { message: '1 submission', submissions: [STORED_EXAMPLE], nextCursor: 'YXNjOjAxOWFiMGMy' },
            status: { code: 200, message: REASON_PHRASES[200] },
          },
          [BOOKMARK_HEADER],
        ),
      },
      readReplies('list'),
    ),
    ...guard,
    query(ListQuery),
    list,
  );
  notAllowed(app, READ_PATH, 'GET', READ_TAG);

  app.post(
    `${READ_PATH}/erase`,
    operation(
      {
        operationId: 'eraseSubmissions',
        summary: 'Deletes every submission of the project whose field holds exactly the value (C25)',
      },
      {
        200: okResponse(
          'How many were erased.',
          resolver(ErasedReply),
          {
            data: { message: 'Erased 2 submissions', erased: 2 },
            status: { code: 200, message: REASON_PHRASES[200] },
          },
          [BOOKMARK_HEADER],
        ),
      },
      readReplies('erase'),
    ),
    describeRoute({
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: resolver(EraseBody),
            example: { field: 'email', value: 'ada@example.com' },
          },
        },
      },
    }),
    ...guard,
    jsonBody(EraseBody, { maxBytes: MAX_ERASE_BODY, invalid: invalidErasure }),
    erase,
  );
  notAllowed(app, `${READ_PATH}/erase`, 'POST', READ_TAG);

  app.get(
    `${READ_PATH}/:id`,
    operation(
      { operationId: 'getSubmission', summary: 'One submission of the project (404 for any other id)' },
      {
        200: okResponse(
          'The submission.',
          resolver(OneReply),
          {
            data: { message: 'Submission found', submission: STORED_EXAMPLE },
            status: { code: 200, message: REASON_PHRASES[200] },
          },
          [BOOKMARK_HEADER],
        ),
      },
      readReplies('get'),
    ),
    ...guard,
    oneSubmission,
    getOne,
  );
  app.delete(
    `${READ_PATH}/:id`,
    operation(
      {
        operationId: 'deleteSubmission',
        summary: 'Deletes one submission of the project, with everything attached to it (C25)',
      },
      {
        200: okResponse(
          'Deleted.',
          resolver(DeletedReply),
          {
            data: { message: 'Submission deleted', deleted: STORED_EXAMPLE.id },
            status: { code: 200, message: REASON_PHRASES[200] },
          },
          [BOOKMARK_HEADER],
        ),
      },
      readReplies('delete'),
    ),
    ...guard,
    oneSubmission,
    deleteOne,
  );
  notAllowed(app, `${READ_PATH}/:id`, 'GET, DELETE', READ_TAG);

  app.get(
    `${READ_PATH}/:id/files/:field`,
    describeRoute({
      tags: [READ_TAG],
      operationId: 'downloadFile',
      summary: "A submission's file, as uploaded (C30), with a secret key",
      security,
      responses: {
        200: {
          description:
            'The bytes, as an attachment (`Content-Disposition`), typed as judged from them; a script-capable type (SVG, HTML, XML) as `application/octet-stream`.',
          headers: { 'X-Request-Id': HEADER_DOCS['X-Request-Id'] ?? {} },
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
        ...errorResponses(readReplies('download')),
      },
    }),
    ...guard,
    params(FileParams, submissionNotFound),
    download,
  );
  notAllowed(app, `${READ_PATH}/:id/files/:field`, 'GET', READ_TAG);
}

export { BOOKMARK_HEADER };
