import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';

import { FIELD_TYPES, UNKNOWN_FIELD_POLICIES } from '../src/fields/catalogue.ts';
import { SPAM_MODES, VERDICTS } from '../src/spam/settings.ts';

export {
  FIELD_TYPES,
  type FieldType,
  UNKNOWN_FIELD_POLICIES,
  type UnknownFieldPolicy,
} from '../src/fields/catalogue.ts';

// C23: publishable keys sit in web pages and can only submit; secret keys also read and erase.
export const KEY_KINDS = ['publishable', 'secret'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

// Times are ISO-8601 UTC text (`2026-11-22T08:44:13.000Z`): readable in exports, sortable as text.
export const projects = sqliteTable(
  'projects',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    unknownFields: text('unknown_fields', { enum: UNKNOWN_FIELD_POLICIES }).notNull().default('reject'),
    // C22: a field that people leave empty and bots fill; a filled one is stored marked as spam.
    honeypot: text('honeypot'),
    // C22: when set, every submission needs a Turnstile token that Cloudflare's siteverify accepts.
    // Kept here, per project, as given: each site has its own Turnstile widget and secret, and a
    // project is made at run time by the command-line tool, without a redeploy.
    turnstileSecret: text('turnstile_secret'),
    // C25: submissions older than this many days are deleted by the hourly job; NULL keeps them.
    // (No CHECK here: drizzle-kit would rebuild the table to add one, and dropping `projects` under
    // D1's foreign keys would cascade. The command-line tool allows only whole days ≥ 1.)
    retentionDays: integer('retention_days'),
    // C27: the field whose value, when it is a valid address, is the notification email's Reply-To.
    replyToField: text('reply_to_field'),
    // C29: the public address of the project's HTML form, `POST /f/<form_id>`: not a key, so that
    // no key ever sits in an `action` URL.
    formId: text('form_id'),
    // C29: where an HTML form goes after a success, unless the form names its own `_next`.
    thankYouUrl: text('thank_you_url'),
    // C35: the confirmation to the submitter: the field with their address (NULL: none is sent),
    // the subject and plain-text body with {{field}} placeholders, the Reply-To, and whether the
    // operator allowed it on a project with neither Turnstile nor allowed origins.
    confirmField: text('confirm_field'),
    confirmSubject: text('confirm_subject'),
    confirmBody: text('confirm_body'),
    confirmReplyTo: text('confirm_reply_to'),
    confirmOpen: integer('confirm_open', { mode: 'boolean' }).notNull().default(false),
    // C39: the spam filter: what it does with spam, the score above which a submission is spam, and
    // the owner's allow and block lists (JSON arrays of {kind, value}; NULL: empty).
    spamMode: text('spam_mode', { enum: SPAM_MODES }).notNull().default('hold'),
    spamThreshold: real('spam_threshold').notNull().default(0.5),
    spamAllow: text('spam_allow'),
    spamBlock: text('spam_block'),
    // C39: how many submissions the project's classifier learnt from its owner's marks, each way
    // (its words are in spam_tokens).
    learnedHam: integer('learned_ham').notNull().default(0),
    learnedSpam: integer('learned_spam').notNull().default(0),
    createdAt: text('created_at').notNull(),
    // C41: set while the project is being copied to another place: a trigger refuses its new
    // submissions here (503, retried), so that the copy misses none.
    movingSince: text('moving_since'),
  },
  (t) => [
    check('projects_unknown_fields', sql`${t.unknownFields} in ('reject', 'discard')`),
    uniqueIndex('projects_form_id').on(t.formId),
  ],
);

export const fields = sqliteTable(
  'fields',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: FIELD_TYPES }).notNull(),
    required: integer('required', { mode: 'boolean' }).notNull().default(false),
    position: integer('position').notNull(),
    // C28: the field's rules beyond its type, as JSON ({"format": "email", "maxLength": 100, …});
    // NULL when it has none.
    rules: text('rules'),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.name] }),
    check('fields_type', sql`${t.type} in ('string', 'integer', 'number', 'boolean', 'file')`),
  ],
);

// C15: an empty list allows every origin.
export const allowedOrigins = sqliteTable(
  'allowed_origins',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.origin] })],
);

// C7: only the SHA-256 of a key is stored; the key itself is shown once and never kept.
export const apiKeys = sqliteTable(
  'api_keys',
  {
    keyHash: text('key_hash').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    displayPrefix: text('display_prefix').notNull(),
    // C23: keys made before there were two kinds are publishable. (No CHECK: see retention_days.)
    kind: text('kind', { enum: KEY_KINDS }).notNull().default('publishable'),
    createdAt: text('created_at').notNull(),
    revokedAt: text('revoked_at'),
    // C32: when a submission was last accepted with the key: written in the write that stores it
    // (the same round trip), at most once a minute for each key in each isolate.
    lastUsedAt: text('last_used_at'),
  },
  (t) => [index('api_keys_project').on(t.projectId)],
);

// C17: id is a UUIDv7, so ordering by id is ordering by arrival.
export const submissions = sqliteTable(
  'submissions',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    data: text('data').notNull(),
    receivedAt: text('received_at').notNull(),
    // C22: filled the project's honeypot; left out of exports unless asked for.
    spam: integer('spam', { mode: 'boolean' }).notNull().default(false),
    // C20: the client's Idempotency-Key and the SHA-256 of the request body, stored with the
    // submission in the same write; cleared by the hourly purge once older than 24 hours.
    idempotencyKey: text('idempotency_key'),
    bodyHash: text('body_hash'),
    // C30: the names of the submission's file fields, as a JSON array (NULL: none). Its files are in
    // R2 under `<project_id>/<id>/<field>`; deleting the row queues them for deletion (a trigger).
    files: text('files'),
    // C26: the outbox. 1 while the deliveries of the submission (one per target of its project at
    // the time it was received) are still to be written as rows of `deliveries`; NULL once they are,
    // or when there are none (no targets, or spam). Set in the submission's own insert, so that a
    // delivery job costs the hot path no row of its own: the queue consumer, or the sweep, writes
    // the delivery rows and clears it.
    outbox: integer('outbox'),
    // C34: an inbox's state. When the submission was first read (NULL: unread), and whether it is
    // starred.
    readAt: text('read_at'),
    starred: integer('starred', { mode: 'boolean' }).notNull().default(false),
    // C34: 1 while the search index (search_terms) lacks the submission's words: every row is
    // born with it (a constant in the hot path's insert, no parameter), and the queue consumer (or
    // the sweep) clears it once the row is indexed. Search is fresh within seconds of
    // the 201, and the hot path writes no row for it. Rows stored before search got it too.
    searchPending: integer('search_pending').default(1),
    // C35: the challenge this very submission passed in its own request: 'turnstile' when
    // siteverify accepted its token (a test secret's only under local development). A confirmation
    // goes only to the address of a submission that passed one (or of a project the operator opened).
    challenge: text('challenge'),
    // C39: the spam filter's verdict (ham, unsure, spam, or none when it did not judge; NULL until
    // the queue consumer or the sweep judges it, after the 201 and before any delivery), its score
    // from 0 to 1 (NULL: none) and its reason ({layer, signals}, JSON).
    verdict: text('verdict', { enum: VERDICTS }),
    spamScore: real('spam_score'),
    spamReason: text('spam_reason'),
    // C39: the SHA-256 of the submission's text (NULL: too little text to compare), for duplicates.
    contentHash: text('content_hash'),
    // C39: what its owner marked it (spam, ham), and what the project's classifier has learnt from
    // it: the consumer makes `trained` follow `label`, so marking twice counts once and changing a
    // mark takes the first back.
    label: text('label', { enum: ['spam', 'ham'] }),
    trained: text('trained', { enum: ['spam', 'ham'] }),
  },
  (t) => [
    index('submissions_project_id').on(t.projectId, t.id),
    // C26: the sweep's way to the submissions whose deliveries are yet to be written.
    index('submissions_outbox').on(t.receivedAt).where(sql`${t.outbox} is not null`),
    // NULLs are distinct in SQLite: only submissions that carried a key take part.
    uniqueIndex('submissions_idempotency_key').on(t.projectId, t.idempotencyKey),
    index('submissions_idempotency_age').on(t.receivedAt).where(sql`${t.idempotencyKey} is not null`),
    // C34: the sweep's way to the submissions still to be indexed.
    index('submissions_search_pending').on(t.receivedAt).where(sql`${t.searchPending} is not null`),
    // C39: the sweep's ways to the submissions still to be judged, and to marks still to be learnt.
    index('submissions_unjudged').on(t.receivedAt).where(sql`${t.verdict} is null`),
    index('submissions_untrained')
      .on(t.receivedAt)
      .where(sql`coalesce(${t.label}, '') <> coalesce(${t.trained}, '')`),
    // C39: the same text sent again, within the project.
    index('submissions_content').on(t.projectId, t.contentHash).where(sql`${t.contentHash} is not null`),
  ],
);

// C39: the features a project's classifier learnt from its owner's marks: in how many marked ham
// and spam submissions each was seen. At most MAX_PROJECT_TOKENS rows per project (src/store/spam.ts).
export const spamTokens = sqliteTable(
  'spam_tokens',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    ham: integer('ham').notNull().default(0),
    spam: integer('spam').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.token] })],
);

// C34: full-text search over the values, as an index of ordinary tables (not FTS5, which `wrangler
// d1 export` refuses): each word of a submission's values, normalised, once per submission.
// Deleted with its submission (a foreign key), so search is in step with deletion, erasure and
// retention in the same write; rebuilt from the submissions by `forms search rebuild`.
export const searchTerms = sqliteTable(
  'search_terms',
  {
    projectId: text('project_id').notNull(),
    term: text('term').notNull(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.term, t.submissionId] }),
    index('search_terms_submission').on(t.submissionId),
  ],
);

// C26, C27, C35, C36, C38: where a project's submissions are delivered: a target of one of the
// kinds of src/delivery/channels/ (a webhook, an email address, a chat, the confirmation, an
// integration). Its kind is text here: the channels' map is the one list of kinds.
// C26: why a target was disabled: it answered 410 Gone, or someone turned it off; C37: a notification
// address whose owner has not agreed yet (nothing is sent to it until they follow the mailed link);
// C38: an integration's service refused its credentials or its destination (401, 403, 404).
export const DISABLED_REASONS = ['gone', 'manual', 'unverified', 'refused'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

// C26: a webhook's signing secret (`whsec_…`) is kept as given, since the worker must sign with it;
// during a rotation the previous one signs too, until `previous_until`. An email target has none
// (an empty secret). C36: a chat hook's `url` is its secret; C27: an address is `mailto:<address>`;
// C35: the confirmation's is `confirm:` (its settings are the project's).
export const targets = sqliteTable(
  'targets',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('webhook'),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    // C38: an integration's settings that are no secret (a spreadsheet and sheet, a database, a
    // base and table, a chat), as JSON; its token or key is `secret`.
    config: text('config'),
    previousSecret: text('previous_secret'),
    previousUntil: text('previous_until'),
    // Set when a receiver answered 410 Gone, or the target was disabled by hand: nothing more is
    // sent to it, and its pending deliveries are cancelled (C26). `disabled_reason` says which.
    disabledAt: text('disabled_at'),
    disabledReason: text('disabled_reason', { enum: DISABLED_REASONS }),
    // C37: an address waiting for its owner's agreement: the SHA-256 of the token its verification
    // mail links to (the token itself is only in that mail), and when the link stops working.
    verifyHash: text('verify_hash'),
    verifyUntil: text('verify_until'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('targets_project').on(t.projectId), uniqueIndex('targets_verify').on(t.verifyHash)],
);

// C26: `cancelled` is final, like `failed`: the target was disabled (410 Gone, or by hand) before the
// delivery was made; `last_error` says why. Both can be sent again (`deliveries redeliver --failed`).
export const DELIVERY_STATES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

// C26: the deliveries. One row per submission and target, written by the queue consumer (or the
// sweep) for a submission marked in `submissions.outbox`; its id is the `webhook-id` of every
// attempt (the receiver's deduplication key).
export const deliveries = sqliteTable(
  'deliveries',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    targetId: text('target_id')
      .notNull()
      .references(() => targets.id, { onDelete: 'cascade' }),
    projectId: text('project_id').notNull(),
    status: text('status', { enum: DELIVERY_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    nextAttemptAt: text('next_attempt_at'),
    // C26: one attempt at a time: whoever attempts the delivery (the queue consumer, the sweep's
    // message, the tool) first claims it here, in D1, until this time; the claim also allocates the
    // attempt's number (`attempts` + 1). Cleared when the attempt is recorded; a claim whose worker
    // stopped expires.
    leaseUntil: text('lease_until'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('deliveries_project').on(t.projectId, t.status, t.createdAt),
    // C26: the sweep takes the pending deliveries most overdue first.
    index('deliveries_due').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('deliveries_pending').on(t.status, t.createdAt),
    index('deliveries_submission').on(t.submissionId),
    index('deliveries_target').on(t.targetId),
  ],
);

// C26: every attempt, visible: when, the status code or the network error, how long, an excerpt.
export const deliveryAttempts = sqliteTable(
  'delivery_attempts',
  {
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    at: text('at').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    excerpt: text('excerpt'),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);

// C32: every change made through the management API or the tool: when, who, what. Kept after its
// project is deleted (no foreign key): the deletion itself is an entry.
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id'),
    at: text('at').notNull(),
    // `operator`, `access:<email>`, `key:<prefix>` or `tool`.
    actor: text('actor').notNull(),
    // `project.create`, `field.define`, `webhook.add`, `submission.update`, …
    action: text('action').notNull(),
    // What changed, as JSON: never a secret or a key.
    detail: text('detail'),
  },
  (t) => [index('audit_log_project').on(t.projectId, t.id)],
);

// C32: sessions of the dashboard: only the SHA-256 of the cookie's opaque id is kept, with what
// the credential it was made from may do; a session made from a secret key ends with that key.
export const sessions = sqliteTable('sessions', {
  idHash: text('id_hash').primaryKey(),
  // `operator`, `access:<email>`, or `key:<prefix>` (a project's secret key).
  actor: text('actor').notNull(),
  projectId: text('project_id'),
  keyHash: text('key_hash'),
  createdAt: text('created_at').notNull(),
  expiresAt: text('expires_at').notNull(),
  // C37: an Access session is checked against Access again at this time (at least hourly): a
  // request then must carry a valid Access token of the same identity, or the session ends.
  recheckAt: text('recheck_at'),
});

// C35, C37: mail counted per day (UTC) for the caps, by what is counted (`scope`):
// `confirm:<project>:<mailbox hash>` (one mailbox's confirmations from one project),
// `confirm:<project>` (the project's), `capped:<project>` (confirmations a cap stopped, for the
// owner's stats), `verify:<mailbox hash>` and `verify-project:<project>` (verification mails). A
// mailbox is kept only as the SHA-256 of its normalised address, and forgotten with its day.
export const mailCounts = sqliteTable(
  'mail_counts',
  {
    scope: text('scope').notNull(),
    day: text('day').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.day] })],
);

// C40: form analytics. Each day's salt, made on the day's first event and deleted once the day is
// over: a visitor's hash (of address, user agent, project and the salt) cannot be made again after.
export const analyticsSalts = sqliteTable('analytics_salts', {
  day: text('day').primaryKey(),
  salt: text('salt').notNull(),
});

// C40: one row per visitor, project and day (the visitor a daily hash, never an address or a user
// agent), written in batches by each isolate; rolled up into analytics_days and
// analytics_drop_off and deleted once the day is over.
export const analyticsVisitors = sqliteTable(
  'analytics_visitors',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    visitor: text('visitor').notNull(),
    viewed: integer('viewed').notNull().default(0),
    started: integer('started').notNull().default(0),
    submitted: integer('submitted').notNull().default(0),
    /** From the first input to the submission, in milliseconds, as the widget timed it. */
    submitMs: integer('submit_ms'),
    /** The last field touched before leaving without submitting (a field of the project, or null). */
    leftField: text('left_field'),
    /** From the first input to leaving, in milliseconds. */
    leftMs: integer('left_ms'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.visitor] })],
);

// C40: a project's counts of a day that is over.
export const analyticsDays = sqliteTable(
  'analytics_days',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    views: integer('views').notNull().default(0),
    starts: integer('starts').notNull().default(0),
    /** Submissions the widget timed (from the first input), and the median of those times. */
    timed: integer('timed').notNull().default(0),
    medianSubmitMs: integer('median_submit_ms'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] })],
);

// C40: of a day that is over, how many visitors left a started form at each field, and their time.
export const analyticsDropOff = sqliteTable(
  'analytics_drop_off',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    field: text('field').notNull(),
    visitors: integer('visitors').notNull().default(0),
    totalMs: integer('total_ms').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.field] })],
);

export type Project = typeof projects.$inferSelect;
export type Field = typeof fields.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type Submission = typeof submissions.$inferSelect;

// C30: R2 prefixes whose objects are to be deleted, written by a trigger in the same D1 write that
// deletes their submission (delete, erasure, retention, project deletion), and emptied by the
// worker's sweep every minute. A deletion from the command-line tool needs no R2 access.
// An upload is written here too, before its files are put, with `not_before` an hour on: the
// insert of its submission removes it (a trigger, in the same statement), so that the files of a
// submission never stored (its worker gone between the upload and the write) are deleted then.
export const fileDeletions = sqliteTable('file_deletions', {
  prefix: text('prefix').primaryKey(),
  createdAt: text('created_at').notNull(),
  // NULL: at the next sweep.
  notBefore: text('not_before'),
});

// C41: where projects live, when not in the default place. In the default database, `p:<project>`
// names the place of each project made elsewhere (and, while a move runs, where it is going). In
// a place a project has left, `k:<key hash>` and `f:<form id>` name the place its keys and form
// address now lead to: they were made with this place's tag, and keep working after the move.
export const directory = sqliteTable(
  'directory',
  {
    lookup: text('lookup').primaryKey(),
    projectId: text('project_id').notNull(),
    place: text('place').notNull(),
    movingTo: text('moving_to'),
  },
  (t) => [index('directory_project').on(t.projectId)],
);

// C41: the fence a request's writes pass through, in the same batch as the writes: a row offered
// here is never kept (its trigger, in the migration that made it, drops it), and the batch fails
// unless the project lives in this database and is not being moved. No row is ever stored.
export const projectFence = sqliteTable('project_fence', {
  projectId: text('project_id').notNull(),
});
