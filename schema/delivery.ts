// C26: delivery: its targets (webhooks, email, chat, the confirmation, the built-in integrations),
// the deliveries and their attempts, and the mail counted for the caps (C35, C37).
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { projects } from './projects.ts';
import { submissions } from './submissions.ts';

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
