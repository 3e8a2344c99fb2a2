// C32, C34: what the management API takes and answers, as valibot schemas: the routes declare
// them beside their handlers, and the OpenAPI document is generated from them. A body's values are
// checked again by the operation itself (src/ops), with the sentences the tool prints.
import * as v from 'valibot';
import {
  DELIVERY_STATES,
  DISABLED_REASONS,
  FIELD_TYPES,
  INTEGRATION_KINDS,
  KEY_KINDS,
  TARGET_KINDS,
  UNKNOWN_FIELD_POLICIES,
} from '../../../schema/tables.ts';
import { FileMetadataSchema } from '../../http/openapi.ts';
import { described, flag, known, oneOf, time, whole } from '../../http/query-values.ts';
import { AUDIT_PAGE, BULK_ACTIONS, INBOX_PAGE, MAX_BULK, MAX_PAGE, MAX_STATS_DAYS } from '../../ops/inbox.ts';
import {
  DEFAULT_THRESHOLD,
  HAM_CUTOFF,
  LIST_KINDS,
  MAX_ENTRY_LENGTH,
  MAX_LIST_ENTRIES,
  MAX_THRESHOLD,
  MIN_THRESHOLD,
  SPAM_LAYERS,
  SPAM_MODES,
  VERDICTS,
} from '../../spam/settings.ts';

// ---- Path parameters ----

const text = v.pipe(v.string(), v.minLength(1), v.maxLength(300));
export const ProjectParams = v.object({ projectId: text });
export const FieldParams = v.object({ projectId: text, name: text });
export const OriginParams = v.object({ projectId: text, origin: text });
export const KeyParams = v.object({ projectId: text, prefix: text });
export const WebhookParams = v.object({ projectId: text, webhookId: text });
export const NotificationParams = v.object({ projectId: text, notificationId: text });
export const IntegrationParams = v.object({ projectId: text, integrationId: text });
export const DeliveryParams = v.object({ projectId: text, deliveryId: text });
export const SubmissionParams = v.object({ projectId: text, id: text });
export const FileViewParams = v.object({ projectId: text, id: text, field: text });

// ---- Query parameters ----

const INBOX_FILTERS = {
  q: v.optional(
    described(
      v.pipe(v.string(), v.maxLength(500, 'must be at most 500 characters')),
      'Full-text search: every word must begin a word of the values (C34).',
    ),
  ),
  read: v.optional(described(flag, 'Read (true) or unread (false) only.')),
  starred: v.optional(described(flag, 'Starred (true) or not (false) only.')),
  spam: v.optional(
    described(
      oneOf(['exclude', 'include', 'only'] as const),
      'Spam: left out (exclude, the default), included, or alone.',
    ),
  ),
  files: v.optional(described(flag, 'With files (true) or without (false) only.')),
  verdict: v.optional(
    described(
      oneOf(VERDICTS),
      "The spam filter's verdict only: ham, unsure, spam, or none (not judged) (C39).",
    ),
  ),
  since: v.optional(described(time, 'Received at or after this time.')),
  until: v.optional(described(time, 'Received before this time.')),
};

const LIST_NAMES = [...Object.keys(INBOX_FILTERS), 'cursor', 'limit', 'order'];
export const InboxQuery = v.strictObject(
  {
    ...INBOX_FILTERS,
    cursor: v.optional(described(v.string(), 'The `nextCursor` of the previous page.')),
    limit: v.optional(
      described(whole(1, MAX_PAGE), `Submissions per page, 1–${MAX_PAGE} (default ${INBOX_PAGE}).`),
    ),
    order: v.optional(
      described(oneOf(['desc', 'asc'] as const), 'Newest first (desc, the default) or oldest first.'),
    ),
  },
  known(LIST_NAMES),
);

export const ExportQuery = v.strictObject(
  {
    ...INBOX_FILTERS,
    format: v.optional(
      described(oneOf(['csv', 'jsonl'] as const), 'CSV (a column per field) or JSON lines (the default).'),
    ),
  },
  known([...Object.keys(INBOX_FILTERS), 'format']),
);

export const DeliveriesQuery = v.strictObject(
  {
    failed: v.optional(
      described(flag, 'Those that ended undelivered: failed, or cancelled with their target.'),
    ),
    state: v.optional(described(oneOf(DELIVERY_STATES), 'Only deliveries in this state.')),
    target: v.optional(described(text, 'Only deliveries to this webhook or address (its id).')),
    submission: v.optional(described(text, 'Only the deliveries of this submission.')),
  },
  known(['failed', 'state', 'target', 'submission']),
);

export const StatsQuery = v.strictObject(
  { days: v.optional(described(whole(1, MAX_STATS_DAYS), `Days, today included (default 30).`)) },
  known(['days']),
);

export const AuditQuery = v.strictObject(
  {
    cursor: v.optional(described(v.string(), 'The `nextCursor` of the previous page.')),
    limit: v.optional(
      described(whole(1, MAX_PAGE), `Entries per page, 1–${MAX_PAGE} (default ${AUDIT_PAGE}).`),
    ),
  },
  known(['cursor', 'limit']),
);

// ---- Bodies ----

const nullable = <S extends v.GenericSchema>(s: S) => v.optional(v.nullable(s));

/** `{type, required?, rules?}`: checked by the field grammar (C28), as the tool checks a spec. */
export const FieldBody = v.looseObject({
  type: described(v.picklist(FIELD_TYPES), 'The field type (C13).'),
  required: v.optional(v.boolean()),
  rules: v.optional(
    described(
      v.record(v.string(), v.unknown()),
      'C28/C30 rules: {"format":"email","maxLength":100}, {"oneOf":["a","b"]}, {"maxSize":"5MB","accept":["application/pdf"]}.',
    ),
  ),
});

export const NewProjectBody = v.strictObject({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  fields: v.pipe(
    v.array(v.looseObject({ name: v.string() })),
    v.description('Each field: {name, type, required?, rules?}.'),
  ),
  origins: v.optional(v.array(v.string())),
  honeypot: v.optional(v.string()),
  unknownFields: v.optional(v.picklist(UNKNOWN_FIELD_POLICIES)),
  thankYouUrl: v.optional(v.string()),
  retentionDays: v.optional(v.pipe(v.number(), v.integer())),
  turnstileSecret: v.optional(described(v.string(), 'Write-only: the reply says only whether one is set.')),
  region: v.optional(
    described(v.string(), "C41: the place to keep its data in (e.g. 'eu'); default: the default place."),
  ),
});

/** C35: the confirmation to the submitter. */
export const ConfirmationBody = v.strictObject({
  field: described(v.string(), 'A string field with format=email: where the confirmation goes.'),
  subject: described(v.string(), 'One line; {{field}} stands for the value of a field.'),
  body: described(v.string(), 'Plain text; {{field}} stands for the value of a field.'),
  replyTo: described(v.string(), "The project owner's address, for replies."),
  open: v.optional(
    described(
      v.boolean(),
      'The operator allows it on a project with neither Turnstile nor allowed origins (a secret key may not).',
    ),
  ),
});

/** C39: a list entry, and the spam filter's settings; each is checked again by the operation. */
const ListEntrySchema = v.object({
  kind: described(v.picklist(LIST_KINDS), 'An address, a domain (of an address or a link), or a phrase.'),
  value: v.pipe(v.string(), v.maxLength(MAX_ENTRY_LENGTH)),
});
const SpamListSchema = v.pipe(v.array(ListEntrySchema), v.maxLength(MAX_LIST_ENTRIES));
export const SpamFilterBody = v.strictObject({
  mode: v.optional(
    described(
      v.picklist(SPAM_MODES),
      'off; mark (recorded, still delivered); hold (moved to spam, nothing delivered; the default).',
    ),
  ),
  threshold: v.optional(
    described(
      v.pipe(v.number(), v.minValue(MIN_THRESHOLD), v.maxValue(MAX_THRESHOLD)),
      `The classifier's score above which a submission is spam (default ${DEFAULT_THRESHOLD}); from ${HAM_CUTOFF} up to it, unsure (to the inbox).`,
    ),
  ),
  allow: v.optional(described(SpamListSchema, 'Always ham: replaces the list.')),
  block: v.optional(described(SpamListSchema, 'Always spam: replaces the list.')),
});

export const ProjectPatch = v.strictObject({
  unknownFields: v.optional(v.picklist(UNKNOWN_FIELD_POLICIES)),
  honeypot: nullable(v.string()),
  turnstileSecret: nullable(described(v.string(), 'Write-only; null removes it.')),
  retentionDays: nullable(v.pipe(v.number(), v.integer())),
  replyToField: nullable(v.string()),
  thankYouUrl: nullable(v.string()),
  confirmation: nullable(described(ConfirmationBody, 'C35: null stops the confirmation.')),
  spamFilter: v.optional(described(SpamFilterBody, 'C39: the settings given change; the others stay.')),
});

export const OriginBody = v.strictObject({ origin: v.string() });
export const KeyBody = v.strictObject({ kind: v.picklist(KEY_KINDS) });
/** C38: an integration to add, by its kind (checked by the operation, which the tool calls too). */
export { IntegrationInput as IntegrationBody } from '../../ops/integrations.ts';

export const WebhookBody = v.strictObject({
  url: v.string(),
  kind: v.optional(
    described(
      v.picklist(['webhook', 'slack', 'discord']),
      'webhook (signed, Standard Webhooks; the default), or a Slack or Discord incoming webhook (C36)',
    ),
  ),
});
export const WebhookPatch = v.strictObject({ enabled: v.boolean() });
/** C37: an address is active, waiting for its owner's agreement, or its link expired. */
export const NotificationStateSchema = described(
  v.picklist(['active', 'waiting', 'expired']),
  "`waiting`: its owner has not agreed yet, and nothing is sent to it (C37); `expired`: the link's 72 hours passed (remove it and add it again).",
);

export const NotificationBody = v.strictObject({ address: v.string(), replyToField: v.optional(v.string()) });
export const SubmissionPatch = v.strictObject({
  read: v.optional(v.boolean()),
  starred: v.optional(v.boolean()),
  spam: v.optional(
    described(v.boolean(), 'false on a spam submission delivers it to the targets, once (C34).'),
  ),
});
export const BulkBody = v.strictObject({
  ids: described(v.array(v.string()), `1 to ${MAX_BULK} submission ids.`),
  action: v.picklist(BULK_ACTIONS),
});
export const SearchRebuildBody = v.optional(v.strictObject({}));

// ---- Replies ----

const iso = v.pipe(v.string(), v.isoTimestamp());
const isoOrNull = v.nullable(iso);

export const FieldDefSchema = v.object({
  name: v.string(),
  type: v.picklist(FIELD_TYPES),
  required: v.boolean(),
  rules: v.optional(v.record(v.string(), v.unknown())),
});

/** C41: where a project's data lives: a database and its bucket. */
const placeMember = described(v.string(), "The place its data lives in: 'default', or a place such as 'eu'.");

export const ProjectSchema = v.object({
  id: v.string(),
  name: v.string(),
  place: placeMember,
  unknownFields: v.string(),
  honeypot: v.nullable(v.string()),
  turnstile: described(v.boolean(), 'Whether a Turnstile secret is set (it is never shown).'),
  retentionDays: v.nullable(v.number()),
  replyToField: v.nullable(v.string()),
  formId: v.nullable(v.string()),
  thankYouUrl: v.nullable(v.string()),
  confirmation: v.nullable(
    v.object({
      field: v.string(),
      subject: v.string(),
      body: v.string(),
      replyTo: v.nullable(v.string()),
      open: v.boolean(),
    }),
  ),
  spamFilter: v.object({
    mode: v.picklist(SPAM_MODES),
    threshold: v.number(),
    allow: v.array(ListEntrySchema),
    block: v.array(ListEntrySchema),
    learned: described(
      v.object({ ham: v.number(), spam: v.number() }),
      "How many of its owner's marks the project's classifier learnt, each way.",
    ),
  }),
  createdAt: iso,
  fields: v.array(FieldDefSchema),
  origins: v.array(v.string()),
  keys: v.array(
    v.object({
      prefix: v.string(),
      kind: v.picklist(KEY_KINDS),
      createdAt: iso,
      revokedAt: isoOrNull,
      lastUsedAt: isoOrNull,
    }),
  ),
});

export const ProjectSummarySchema = v.object({
  id: v.string(),
  name: v.string(),
  place: placeMember,
  createdAt: iso,
  fields: v.number(),
  keys: v.number(),
  submissions: v.number(),
  unread: v.number(),
  lastReceivedAt: isoOrNull,
});

export const KeySchema = v.object({
  prefix: v.string(),
  kind: v.picklist(KEY_KINDS),
  createdAt: iso,
  revokedAt: isoOrNull,
  lastUsedAt: described(
    isoOrNull,
    'When a request last used it (to within the configuration cache’s seconds).',
  ),
});

export const WebhookSchema = v.object({
  webhookId: v.string(),
  kind: v.picklist(['webhook', 'slack', 'discord']),
  url: described(
    v.string(),
    "A Slack or Discord hook's URL is a secret: only its start and last four characters.",
  ),
  state: v.picklist(['active', 'disabled']),
  disabledAt: isoOrNull,
  disabledReason: v.nullable(v.string()),
  rotatingUntil: isoOrNull,
  createdAt: iso,
});

export const DeliverySchema = v.object({
  id: v.string(),
  submissionId: v.string(),
  webhookId: v.string(),
  kind: v.picklist(TARGET_KINDS),
  url: v.string(),
  status: v.picklist(DELIVERY_STATES),
  attempts: v.number(),
  lastStatus: v.nullable(v.number()),
  lastError: v.nullable(v.string()),
  nextAttemptAt: isoOrNull,
  createdAt: iso,
  attemptLog: v.array(
    v.object({
      attempt: v.number(),
      at: iso,
      statusCode: v.nullable(v.number()),
      error: v.nullable(v.string()),
      durationMs: v.nullable(v.number()),
      excerpt: described(v.nullable(v.string()), 'The start of what the receiver answered.'),
    }),
  ),
});

const FieldValueSchema = v.union([v.string(), v.number(), v.boolean(), FileMetadataSchema]);

export const SubmissionSchema = v.object({
  id: described(v.string(), 'UUIDv7: ordering by id is ordering by arrival.'),
  receivedAt: iso,
  fields: v.record(v.string(), FieldValueSchema),
  spam: v.boolean(),
  read: v.boolean(),
  readAt: isoOrNull,
  starred: v.boolean(),
  files: described(v.array(v.string()), 'The names of its file fields (C30).'),
  spamVerdict: described(
    v.picklist([...VERDICTS, 'pending']),
    "The spam filter's verdict (C39); pending for the second after it arrives.",
  ),
  spamScore: described(v.nullable(v.number()), 'From 0 (ham) to 1 (spam); null when not judged.'),
  spamReason: described(
    v.nullable(v.object({ layer: v.picklist(SPAM_LAYERS), signals: v.array(v.string()) })),
    'The layer that decided, and for the classifier its strongest signals.',
  ),
});

export const DayStatsSchema = v.object({
  day: v.pipe(v.string(), v.isoDate()),
  accepted: v.number(),
  spam: v.number(),
  delivered: v.number(),
  failed: v.number(),
  confirmationsCapped: described(v.number(), 'C35: confirmations that a daily cap stopped.'),
  views: described(v.number(), 'C40: visitors who saw the form on screen (once per visitor and day).'),
  starts: described(v.number(), 'C40: visitors who typed into the form.'),
  completionRate: described(v.nullable(v.number()), 'accepted / starts; null without a start.'),
  conversionRate: described(v.nullable(v.number()), 'accepted / views; null without a view.'),
});

export const DropOffSchema = v.object({
  field: v.string(),
  visitors: described(v.number(), 'C40: visitors who left a started form at this field, unsent.'),
  averageSeconds: described(v.nullable(v.number()), 'Their average time from the first input.'),
});

export const AuditEntrySchema = v.object({
  id: v.string(),
  projectId: v.nullable(v.string()),
  at: iso,
  actor: described(v.string(), '`operator`, `access:<email>`, `key:<prefix>` or `tool`.'),
  action: v.string(),
  detail: v.nullable(v.record(v.string(), v.unknown())),
});

export const SessionSchema = v.object({
  actor: v.string(),
  projectId: v.nullable(v.string()),
  expiresAt: iso,
  csrfToken: described(v.string(), 'Send it as X-CSRF-Token with every change made with the cookie.'),
});

/** C38: an integration as listed: its settings, its secret by its last four characters. */
export const IntegrationSchema = v.object({
  integrationId: v.string(),
  kind: v.picklist(INTEGRATION_KINDS),
  settings: described(
    v.record(v.string(), v.string()),
    'Where it writes: a sheet, a database, a table, a chat.',
  ),
  secret: described(v.string(), "Its token's (a Google key's id's) last four characters: never more."),
  serviceAccount: v.optional(
    described(v.string(), "Google Sheets: the service account's address, to share the sheet with."),
  ),
  state: v.picklist(['active', 'disabled']),
  disabledAt: v.nullable(iso),
  disabledReason: v.nullable(v.picklist(DISABLED_REASONS)),
  createdAt: iso,
});
