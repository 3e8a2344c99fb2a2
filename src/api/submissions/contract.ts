// C24, C25: what the read API takes and answers, as valibot schemas and the catalogue's replies:
// the routes (routes.ts) declare these beside their handlers, and the OpenAPI document is
// generated from them.

import * as v from 'valibot';
import { FileMetadataSchema, okEnvelope } from '../../http/openapi.ts';
import { known, oneOf, time, whole, wholeMessage } from '../../http/query-values.ts';
import * as replies from '../../http/replies.ts';
import { UUID } from '../../lib/ids.ts';
import { SPAM_LAYERS } from '../../spam/settings.ts';
import type { SpamFilter } from '../../store/inbox.ts';

export const MAX_LIMIT = 1000;
export const DEFAULT_LIMIT = 100;
/** C25: the largest erasure body read. */
export const MAX_ERASE_BODY = 16 * 1024;

const LIMIT = wholeMessage(1, MAX_LIMIT);

export const LIST_PARAMETERS = ['limit', 'cursor', 'since', 'until', 'order', 'spam'] as const;

/** GET /api/v1/submissions?limit&cursor&since&until&order&spam */
export const ListQuery = v.strictObject(
  {
    limit: v.optional(
      v.pipe(
        whole(1, MAX_LIMIT),
        v.description(`Submissions per page, 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`),
      ),
    ),
    cursor: v.optional(v.pipe(v.string(), v.description('The `nextCursor` of the previous page.'))),
    since: v.optional(
      v.pipe(time, v.description('Received at or after this time: a day, or a date-time with its offset.')),
    ),
    until: v.optional(v.pipe(time, v.description('Received before this time.'))),
    order: v.optional(
      v.pipe(
        oneOf(['asc', 'desc'] as const),
        v.description('Oldest first (asc, the default) or newest first.'),
      ),
    ),
    spam: v.optional(
      v.pipe(
        oneOf(['exclude', 'include', 'only'] as const satisfies readonly SpamFilter[]),
        v.description('Spam: left out (exclude, the default), included, or alone.'),
      ),
    ),
  },
  known(LIST_PARAMETERS),
);

/** `{id}`: a submission's UUIDv7; anything else is no submission of ours (404, as another project's). */
export const IdParams = v.object({ id: v.pipe(v.string(), v.regex(UUID)) });
export const FileParams = v.object({ id: v.pipe(v.string(), v.regex(UUID)), field: v.string() });

/** C25: `{"field", "value"}`: a field's name, and a JSON scalar it must hold exactly. */
/** A stored submission as the read API shows it: `fields` is the stored JSON, a file by its metadata. */
export const StoredItem = v.object({
  id: v.pipe(v.string(), v.description('UUIDv7: ordering by id is ordering by arrival.')),
  receivedAt: v.pipe(v.string(), v.isoTimestamp()),
  fields: v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), FileMetadataSchema])),
  spam: v.pipe(
    v.boolean(),
    v.description('In spam: its honeypot filled (C22), held by the spam filter, or so marked (C39).'),
  ),
  spamScore: v.pipe(
    v.nullable(v.number()),
    v.description("The spam filter's score, 0 (ham) to 1 (spam); null when not judged (C39)."),
  ),
  spamReason: v.pipe(
    v.nullable(v.object({ layer: v.picklist(SPAM_LAYERS), signals: v.array(v.string()) })),
    v.description(
      "The layer that decided (the classifier's: the one that moved its score most) and its strongest signals (C39).",
    ),
  ),
});

export const ListReply = okEnvelope(200, {
  submissions: v.array(StoredItem),
  nextCursor: v.optional(v.pipe(v.string(), v.description('Absent on the last page.'))),
});
export const OneReply = okEnvelope(200, { submission: StoredItem });
export const DeletedReply = okEnvelope(200, { deleted: v.string() });
export const ErasedReply = okEnvelope(200, { erased: v.pipe(v.number(), v.integer()) });

/** The replies every route of the read API can give, and each route's own. */
export function readReplies(operation: 'list' | 'get' | 'delete' | 'erase' | 'download') {
  const common = [
    {
      name: 'missing key',
      reply: replies.missingKey(),
    },
    { name: 'invalid key', reply: replies.invalidKey() },
    { name: 'publishable key', reply: replies.secretKeyNeeded() },
    { name: 'secret key in a page', reply: replies.secretKeyInPage() },
    { name: 'rate limited', reply: replies.tooManyRequests() },
    { name: 'storage unavailable', reply: replies.unavailable() },
    { name: 'unexpected fault', reply: replies.internalError('8f2c1d3e4b5a6978-LHR') },
  ];
  const own = {
    list: [{ name: 'invalid parameter', reply: replies.invalidParameter('limit', LIMIT) }],
    get: [{ name: 'not found', reply: replies.submissionNotFound() }],
    delete: [{ name: 'not found', reply: replies.submissionNotFound() }],
    download: [
      { name: 'not found', reply: replies.submissionNotFound() },
      { name: 'no such file', reply: replies.fileNotFound('cv') },
    ],
    erase: [
      { name: 'not JSON media type', reply: replies.unsupportedMediaType() },
      { name: 'not JSON', reply: replies.notJson() },
      { name: 'invalid erasure', reply: replies.invalidErasure() },
      { name: 'body too large', reply: replies.tooLarge(MAX_ERASE_BODY) },
    ],
  }[operation];
  return [...common, ...own];
}

export const STORED_EXAMPLE = {
  id: '019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e',
  receivedAt: '2026-11-22T08:44:13.000Z',
  fields: {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: 2025550123,
    enquiry: true,
    message: 'Hello!',
  },
  spam: false,
  spamScore: 0.08,
  spamReason: { layer: 'prior', signals: ['word "hello"'] },
};
