// C17: the submissions, with what is kept beside them: the spam classifier's learnt features (C39),
// the search index (C34), and the R2 prefixes of files to delete (C30).
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { VERDICTS } from '../src/spam/settings.ts';
import { projects } from './projects.ts';

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
    // C39: what its request said, checked in the isolate and written in its own insert (no round
    // trip more): the widget's token and fill time, a proof of work, a script's user agent, the
    // country (src/spam/signals.ts, JSON). Read once by the verdict and cleared with it: nothing of
    // it is kept beyond the reason.
    signals: text('signals'),
    // C45: the values this submission claims in its project's unique fields, as JSON [[field,
    // value], …], each value as it is compared (an address in lower case, a text in NFC and
    // trimmed, a number as JSON writes it); NULL: none. Its triggers (0028) keep unique_values.
    uniqueKeys: text('unique_keys'),
    // C46: the SHA-256 of the draft token this submission was sent from (a hosted page in steps
    // with partial submissions); its insert's trigger deletes that draft (0033): no draft is left
    // once its form is sent, in the same write. NULL: none.
    draftHash: text('draft_hash'),
    // C39: the SHA-256 of the submission's text (NULL: too little text to compare), for duplicates.
    contentHash: text('content_hash'),
    // C39: what its owner marked it (spam, ham), and what the project's classifier has learnt from
    // it: the consumer makes `trained` follow `label`, so marking twice counts once and changing a
    // mark takes the first back.
    label: text('label', { enum: ['spam', 'ham'] }),
    trained: text('trained', { enum: ['spam', 'ham'] }),
    // C39: whether what was learnt of its mark is also in the deployment's counts (its project gave
    // to them when it was learnt), so that taking the mark back takes back exactly that.
    shared: integer('shared', { mode: 'boolean' }).notNull().default(false),
    // C39: the mark was the operator's (by token, Access or the tool), whom every project trusts:
    // its features and its campaign hold in other projects at once. `trainedOperator` is what was
    // learnt of it, so that taking the mark back takes back exactly that.
    labelOperator: integer('label_operator', { mode: 'boolean' }).notNull().default(false),
    trainedOperator: integer('trained_operator', { mode: 'boolean' }).notNull().default(false),
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
    // C45: a project's accepted submissions counted from the index alone (a form's limit, judged in
    // its insert's trigger, and its hosted page), reading no more entries than it has places.
    index('submissions_accepted').on(t.projectId).where(sql`${t.spam} = 0`),
  ],
);

// C45: the values a project's unique fields hold, one row each, held by the submission that claimed
// them (its `unique_keys`, by triggers of 0028): a second submission with one is refused in its own
// insert. Gone with its submission (deletion, erasure, retention), and freed when it is marked spam.
// Derived from the submissions' own column, so a move copies it by copying them.
export const uniqueValues = sqliteTable(
  'unique_values',
  {
    projectId: text('project_id').notNull(),
    field: text('field').notNull(),
    value: text('value').notNull(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.field, t.value] }),
    index('unique_values_submission').on(t.submissionId),
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
    // C39: of `spam`, the marks the operator made: trusted by every project.
    operatorSpam: integer('operator_spam').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.token] }),
    // C39: the deployment's evidence of a feature is read across the projects that give.
    index('spam_tokens_token').on(t.token),
  ],
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

export type Submission = typeof submissions.$inferSelect;

// C30: R2 prefixes whose objects are to be deleted, written by a trigger in the same D1 write that
// deletes their submission (delete, erasure, retention, project deletion), and emptied by the
// worker's sweep every minute. A deletion from the command-line tool needs no R2 access.
// An upload is written here too, before its files are put, with `not_before` an hour on: the
// insert of its submission removes it (a trigger, in the same statement), so that the files of a
// submission never stored (its worker gone between the upload and the write) are deleted then.
// C44: a project's hosted-page logo (`<project>/page/`) likewise, by a trigger on the deletion of
// its project (deleted, or moved away from this place); a project inserted with a logo (moved
// back here) removes that row, so that the sweep never deletes the copy it brought.
export const fileDeletions = sqliteTable('file_deletions', {
  prefix: text('prefix').primaryKey(),
  createdAt: text('created_at').notNull(),
  // NULL: at the next sweep.
  notBefore: text('not_before'),
});
