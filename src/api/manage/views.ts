// C32, C34: what the management API answers, as valibot schemas (what it takes is schemas.ts):
// the routes declare them beside their handlers, and the OpenAPI document is generated from them.
import * as v from 'valibot';
import {
  DELIVERY_STATES,
  DISABLED_REASONS,
  FIELD_TYPES,
  KEY_KINDS,
  PAGE_THEMES,
} from '../../../schema/tables.ts';
import { CHANNEL_KINDS, kindsOf } from '../../delivery/channels/index.ts';
import { LOGO_TYPES } from '../../files/logo.ts';
import { FileMetadataSchema } from '../../http/openapi.ts';
import { described } from '../../http/query-values.ts';
import { SPAM_LAYERS, SPAM_MODES, SPAM_SHARING, VERDICTS } from '../../spam/settings.ts';
import { ListEntrySchema } from './schemas.ts';

const iso = v.pipe(v.string(), v.isoTimestamp());
const isoOrNull = v.nullable(iso);

/** C44: a text by language tag (canonical BCP 47). */
const TextMapSchema = v.record(v.string(), v.string());
const shows = (what: string) =>
  v.optional(described(TextMapSchema, `C44: ${what}, by language tag; absent when it has none.`));

export const FieldDefSchema = v.object({
  name: v.string(),
  type: v.picklist(FIELD_TYPES),
  required: v.boolean(),
  rules: v.optional(v.record(v.string(), v.unknown())),
  label: shows('its label'),
  help: shows('its help'),
  placeholder: shows('its placeholder'),
  when: v.optional(
    described(
      v.record(v.string(), v.unknown()),
      'C45: the condition under which it applies ({"field": …, "equals" | "oneOf" | "filled": …}, {"all"|"any": […]}, {"not": {…}}); absent: always.',
    ),
  ),
  capture: v.optional(
    described(
      v.string(),
      'C45: where a hidden field’s value comes from (utm_source, …, referrer, query:<name>).',
    ),
  ),
  multiline: v.optional(
    described(
      v.boolean(),
      'C44: whether its control takes several lines (true) or one (false); absent when not said: then more than 200 characters allowed takes several.',
    ),
  ),
  step: v.optional(
    described(v.number(), 'C46: the step of the hosted page it is on (2–20); absent: the first.'),
  ),
});

/** C44: the project's hosted page. */
const PageSchema = v.object({
  enabled: described(v.boolean(), 'Whether it is served (off until its owner turns it on).'),
  languages: described(v.array(v.string()), 'The languages it speaks; the first is its default.'),
  title: described(TextMapSchema, 'Its title, by language ({} when none).'),
  intro: described(TextMapSchema, 'Its introduction, by language.'),
  thanks: described(TextMapSchema, 'What it says after a submission, by language.'),
  accent: described(v.string(), 'Its colour, #rrggbb.'),
  theme: v.picklist(PAGE_THEMES),
  logo: described(
    v.nullable(v.object({ type: v.picklist(LOGO_TYPES), size: v.number(), sha256: v.string() })),
    'Its logo as stored (set by PUT …/page/logo), or null.',
  ),
  turnstileSiteKey: described(
    v.nullable(v.string()),
    "C22: the site key of the project's Turnstile widget, which the page shows when the project checks Turnstile; or null.",
  ),
  steps: described(
    v.array(v.object({ title: TextMapSchema })),
    'C46: its steps’ titles, in order ([] when none given: the fields’ steps still page it).',
  ),
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
    sharing: described(
      v.picklist(SPAM_SHARING),
      "What the project shares of its owner's marks with the deployment's other projects (of its place).",
    ),
    allow: v.array(ListEntrySchema),
    block: v.array(ListEntrySchema),
    requireWidget: v.boolean(),
    proofOfWork: v.boolean(),
    countries: v.array(v.string()),
    languages: v.array(v.string()),
    learned: described(
      v.object({ ham: v.number(), spam: v.number() }),
      "How many of its owner's marks the project's classifier learnt, each way.",
    ),
  }),
  page: PageSchema,
  limits: described(
    v.object({
      maxSubmissions: v.nullable(v.number()),
      opensAt: v.nullable(v.string()),
      closesAt: v.nullable(v.string()),
      closedText: TextMapSchema,
    }),
    'C45: its limits: the most accepted submissions, when it opens and closes, what its page says then.',
  ),
  partials: described(
    v.object({ enabled: v.boolean(), keepDays: v.number() }),
    'C46: partial submissions of its hosted page in steps: on or off, and the days a draft is kept.',
  ),
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
  kind: v.picklist(kindsOf('webhook')),
  url: described(
    v.string(),
    "A chat hook's URL (Slack's, Discord's, …) is a secret: only its start and last four characters.",
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
  kind: v.picklist(CHANNEL_KINDS),
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
    "The layer that decided (the classifier's: the one that moved its score most: project marks, deployment, prior) and its strongest signals.",
  ),
  partial: v.optional(
    described(
      v.literal(true),
      'C46: a draft (`partial=only`), never a submission; `receivedAt` is when it was last saved.',
    ),
  ),
  step: v.optional(described(v.number(), 'C46: the step a draft reached.')),
  expiresAt: v.optional(described(iso, 'C46: when a draft is erased, unless saved again or sent.')),
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
  step: described(v.number(), 'C46: the step of the hosted page the field is on (1: the first).'),
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
  kind: v.picklist(kindsOf('integration')),
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
