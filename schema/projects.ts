// C19: projects and what defines them: their fields (C28), allowed origins (C15) and API keys (C7,
// C23).
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
import { SPAM_MODES, SPAM_SHARING } from '../src/spam/settings.ts';

// C44: how a hosted page is coloured: as the visitor's system prefers, or always light or dark.
export const PAGE_THEMES = ['auto', 'light', 'dark'] as const;
export type PageTheme = (typeof PAGE_THEMES)[number];

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
    // The column's default is the uncalibrated scale's; a project is created with DEFAULT_THRESHOLD.
    spamThreshold: real('spam_threshold').notNull().default(0.5),
    // C39: what the project shares with the deployment's other projects: both ways, take only, none.
    spamSharing: text('spam_sharing', { enum: SPAM_SHARING }).notNull().default('both'),
    spamAllow: text('spam_allow'),
    spamBlock: text('spam_block'),
    // C39: the signals a form has: a submission without the widget's token is spam (else a signal
    // among others); a missing or invalid proof of work refuses it (400, in the isolate); the
    // countries its visitors post from and the languages they write in (JSON arrays; NULL: any).
    spamRequireWidget: integer('spam_require_widget', { mode: 'boolean' }).notNull().default(false),
    spamProofOfWork: integer('spam_proof_of_work', { mode: 'boolean' }).notNull().default(false),
    spamCountries: text('spam_countries'),
    spamLanguages: text('spam_languages'),
    // C39: how many submissions the project's classifier learnt from its owner's marks, each way
    // (its words are in spam_tokens).
    learnedHam: integer('learned_ham').notNull().default(0),
    learnedSpam: integer('learned_spam').notNull().default(0),
    createdAt: text('created_at').notNull(),
    // C41: set while the project is being copied to another place: a trigger refuses its new
    // submissions here (503, retried), so that the copy misses none.
    movingSince: text('moving_since'),
    // C44: its hosted page, a column per setting, so that a change of one (`{"page": {"enabled":
    // true}}`) writes that column alone and two changes of different settings never undo each
    // other. Off until its owner turns it on; its languages (a JSON array, the first the default);
    // its title, introduction and thanks (JSON maps of language tag → text; NULL: none); its
    // colour and theme; and its logo as stored in the place's bucket (JSON {type, size, sha256};
    // NULL: none). None of them is read on the submission path.
    pageEnabled: integer('page_enabled', { mode: 'boolean' }).notNull().default(false),
    pageLanguages: text('page_languages').notNull().default('["en"]'),
    pageTitle: text('page_title'),
    pageIntro: text('page_intro'),
    pageThanks: text('page_thanks'),
    pageAccent: text('page_accent').notNull().default('#1f5fbf'),
    pageTheme: text('page_theme', { enum: PAGE_THEMES }).notNull().default('auto'),
    pageLogo: text('page_logo'),
    // C44: the site key of the project's Turnstile widget, shown on the page when the project checks
    // Turnstile (its secret set); public, as any page that shows the widget shows it.
    pageTurnstileSiteKey: text('page_turnstile_site_key'),
    // C46: the hosted page's steps, as JSON ([{"title": {"en": "About you"}}, …]); NULL: none
    // given (a page whose fields name no step after the first is one page).
    pageSteps: text('page_steps'),
    // C45: the form's limits: the most accepted (not spam) submissions it takes, when it opens and
    // closes (ISO times), and what its hosted page says outside them (a JSON map of language tag →
    // text); NULL: none. The first three are read on the submission path, with the settings.
    maxSubmissions: integer('max_submissions'),
    opensAt: text('opens_at'),
    closesAt: text('closes_at'),
    closedText: text('closed_text'),
    // C46: how many days a draft of the hosted page in steps is kept (1–90); NULL: partial
    // submissions are off (the default), and the page keeps nothing a visitor typed.
    partialsKeepDays: integer('partials_keep_days'),
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
    // C44: what the field shows a person, each a JSON map of language tag → text ({"en": "Your
    // email", "de": "Ihre E-Mail-Adresse"}); NULL when it has none. A column each, beside the
    // rules, so that each is kept or replaced on its own (a definition that does not give one
    // keeps it), and so that the submission path's query, which names its columns, reads none.
    label: text('label'),
    help: text('help'),
    placeholder: text('placeholder'),
    // C44: whether a string field's control takes several lines (a text area) or one; NULL when
    // its owner has not said, and then a field allowed more than 200 characters takes several.
    multiline: integer('multiline', { mode: 'boolean' }),
    // C45: the condition under which the field applies, as JSON ({"field": "business", "equals":
    // true}, {"all": […]}); NULL: always. Read by the submission path with the rules.
    when: text('when_condition'),
    // C45: where a hidden field's value comes from (`utm_source`, `referrer`, `query:<name>`);
    // NULL for a field a person fills in.
    capture: text('capture'),
    // C46: the step of a hosted page in steps the field is on (1–20); NULL: the first.
    step: integer('step'),
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

export type Project = typeof projects.$inferSelect;
export type Field = typeof fields.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
