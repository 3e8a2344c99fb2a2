// C32, C34: what the management API takes, as valibot schemas (what it answers is views.ts): the
// routes declare them beside their handlers, and the OpenAPI document is generated from them. A
// body's values are checked again by the operation itself (src/ops), with the sentences the tool prints.
import * as v from 'valibot';
import { FIELD_TYPES, KEY_KINDS, UNKNOWN_FIELD_POLICIES } from '../../../schema/tables.ts';
import { hookChannel, kindsOf } from '../../delivery/channels/index.ts';
import { DISPLAY_LIMITS } from '../../fields/display.ts';
import { described } from '../../http/query-values.ts';
import { BULK_ACTIONS, MAX_BULK } from '../../ops/inbox.ts';
import {
  DEFAULT_THRESHOLD,
  LIST_KINDS,
  MAX_ENTRY_LENGTH,
  MAX_EXPECTED,
  MAX_LIST_ENTRIES,
  MAX_THRESHOLD,
  MIN_THRESHOLD,
  SPAM_MODES,
  SPAM_SHARING,
  UNSURE_BAND,
} from '../../spam/settings.ts';
import { PageBody, textMap } from './hosted-page-schemas.ts';

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

// ---- Query parameters: query-schemas.ts ----

export { AuditQuery, DeliveriesQuery, ExportQuery, InboxQuery, StatsQuery } from './query-schemas.ts';

// ---- Bodies ----

const nullable = <S extends v.GenericSchema>(s: S) => v.optional(v.nullable(s));

/** What a field shows (C44): documented members; a definition that leaves one out keeps it. */
const DISPLAY_ENTRIES = {
  label: textMap('its label (absent: kept as it is)', DISPLAY_LIMITS.label.max, DISPLAY_LIMITS.label.lines),
  help: textMap(
    'its help, shown under it (absent: kept)',
    DISPLAY_LIMITS.help.max,
    DISPLAY_LIMITS.help.lines,
  ),
  placeholder: textMap(
    'its placeholder (absent: kept)',
    DISPLAY_LIMITS.placeholder.max,
    DISPLAY_LIMITS.placeholder.lines,
  ),
  capture: nullable(
    described(
      v.string(),
      'C45: a hidden field the page fills: utm_source, utm_medium, utm_campaign, utm_term, utm_content, referrer or query:<name>; null or absent: none.',
    ),
  ),
  multiline: nullable(
    described(
      v.boolean(),
      'A text field: several lines (true) or one (false); null: as its maxLength says (over 200: several). Absent: kept.',
    ),
  ),
  step: nullable(
    described(
      v.number(),
      'C46: the step of a hosted page in steps it is on, 1–20 (its condition may name fields on its step or before); null: the first. Absent: kept.',
    ),
  ),
};

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
  when: nullable(
    described(
      v.record(v.string(), v.unknown()),
      'C45: applies only when earlier fields say so: {"field":"business","equals":true}, {"field":"topic","oneOf":["a","b"]}, {"field":"phone","filled":true}, {"all"|"any":[…]}, {"not":{…}}; null or absent: always.',
    ),
  ),
  ...DISPLAY_ENTRIES,
});

export const NewProjectBody = v.strictObject({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  fields: v.pipe(
    v.array(v.looseObject({ name: v.string(), ...FieldBody.entries })),
    v.description(
      'Each field: {name, type, required?, rules?, when?, capture?, label?, help?, placeholder?, multiline?, step?}.',
    ),
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
export const ListEntrySchema = v.object({
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
      `The classifier's probability from which a submission is spam (default ${DEFAULT_THRESHOLD}); in the ${UNSURE_BAND} below it, unsure (to the inbox).`,
    ),
  ),
  sharing: v.optional(
    described(
      v.picklist(SPAM_SHARING),
      "both (the default): the project's marks teach the deployment's counts and campaigns, and it is judged with them; take: judged with them, teaching nothing; none: neither. Counts and signatures only, never text.",
    ),
  ),
  allow: v.optional(described(SpamListSchema, 'Always ham: replaces the list.')),
  block: v.optional(described(SpamListSchema, 'Always spam: replaces the list.')),
  requireWidget: v.optional(
    described(
      v.boolean(),
      "A submission from a page without /widget.js's token is spam (default false: it is one signal among others). A secret key's (a server's) needs none.",
    ),
  ),
  proofOfWork: v.optional(
    described(
      v.boolean(),
      "A submission without a valid proof of work (the 'altcha' field, which /widget.js solves in the background) is refused with 400 (default false).",
    ),
  ),
  countries: v.optional(
    described(
      v.pipe(v.array(v.string()), v.maxLength(MAX_EXPECTED)),
      'The countries its visitors post from (ISO 3166-1 alpha-2); another weighs towards spam. Empty: any. Replaces the list.',
    ),
  ),
  languages: v.optional(
    described(
      v.pipe(v.array(v.string()), v.maxLength(MAX_EXPECTED)),
      'The languages its messages are written in (BCP 47); a message surely in another weighs towards spam. Empty: any. Replaces the list.',
    ),
  ),
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
  page: v.optional(
    described(
      PageBody,
      'C44: the hosted page: the members given replace those members; the others stay. Its logo is PUT on its own (…/page/logo).',
    ),
  ),
  limits: v.optional(
    described(
      v.looseObject({
        maxSubmissions: nullable(described(v.number(), 'The most accepted (not spam) submissions it takes.')),
        opensAt: nullable(described(v.string(), 'When it opens (ISO time with its zone).')),
        closesAt: nullable(described(v.string(), 'When it closes (ISO time with its zone).')),
        closedText: nullable(
          described(
            v.record(v.string(), v.unknown()),
            'What its hosted page says when full or closed, by language.',
          ),
        ),
      }),
      'C45: the form’s limits: the members given replace those members (null clears one); the others stay.',
    ),
  ),
  partials: v.optional(
    described(
      v.looseObject({
        enabled: v.optional(described(v.boolean(), 'On or off (off by default).')),
        keepDays: v.optional(described(v.number(), 'How many days a draft is kept, 1–90 (30).')),
      }),
      'C46: partial submissions of the hosted page in steps: its drafts, kept for keepDays.',
    ),
  ),
});

/**
 * What the routes that take a field's definition or the page's settings check the body by: those
 * are the operations' to check (C28, C44), in the sentence the tool prints; the rest as documented.
 */
export const NewProjectCheck = v.strictObject({
  ...NewProjectBody.entries,
  fields: v.array(v.looseObject({ name: v.string() })),
});
export const ProjectPatchCheck = v.strictObject({
  ...ProjectPatch.entries,
  page: v.optional(v.unknown()),
  limits: v.optional(v.unknown()),
  partials: v.optional(v.unknown()),
});

export const OriginBody = v.strictObject({ origin: v.string() });
export const KeyBody = v.strictObject({ kind: v.picklist(KEY_KINDS) });
/** C38: an integration to add, by its kind (checked by the operation, which the tool calls too). */
export { IntegrationInput as IntegrationBody } from '../../ops/integrations.ts';

export const WebhookBody = v.strictObject({
  url: v.string(),
  kind: v.optional(
    described(
      v.picklist(kindsOf('webhook')),
      `webhook (signed, Standard Webhooks; the default), or a chat's incoming webhook (C36): ${kindsOf(
        'webhook',
      )
        .filter((kind) => !hookChannel(kind).signs)
        .join(', ')}`,
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
