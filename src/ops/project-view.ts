// C19: a project as the tool shows it and the management API returns it: its settings, fields,
// origins and keys, never a key, a secret or a hash.
import type { FieldType, KeyKind, PageTheme } from '../../schema/tables.ts';
import type { Condition } from '../fields/conditions.ts';
import { DISPLAY_MEMBERS, type FieldDisplay, storedTextMap, type TextMap } from '../fields/display.ts';
import type { FieldDef } from '../fields/validation.ts';
import type { Logo } from '../files/logo.ts';
import type { SpamSettings } from '../spam/settings.ts';
import { DEFAULT_PLACE } from '../store/places.ts';
import { type PageColumn, parseRules } from '../store/projects.ts';
import { codesOf, listOf } from '../store/spam.ts';
import type { ProjectDetails } from './context.ts';
import { type LimitsView, limitsView } from './limits.ts';
import { type PartialsView, partialsView } from './partials.ts';

/**
 * A stored field as its definition (C28): name, type, required, and its rules when it has any;
 * C44: its label, help and placeholder, each when it has one, and `multiline` when its owner said.
 */
export function fieldDef(row: {
  name: string;
  type: FieldType;
  required: boolean;
  rules: string | null;
  label?: string | null;
  help?: string | null;
  placeholder?: string | null;
  multiline?: boolean | null;
  when?: string | null;
  capture?: string | null;
  step?: number | null;
}): FieldDef {
  const rules = parseRules(row.rules);
  const display: FieldDisplay = {};
  for (const member of DISPLAY_MEMBERS) {
    const stored = row[member];
    if (stored !== undefined && stored !== null) display[member] = storedTextMap(stored);
  }
  return {
    name: row.name,
    type: row.type,
    required: row.required,
    ...(rules === undefined ? {} : { rules }),
    ...display,
    ...(row.multiline === undefined || row.multiline === null ? {} : { multiline: row.multiline }),
    ...(row.when === undefined || row.when === null ? {} : { when: JSON.parse(row.when) as Condition }),
    ...(row.capture === undefined || row.capture === null ? {} : { capture: row.capture }),
    ...(row.step === undefined || row.step === null || row.step === 1 ? {} : { step: row.step }),
  };
}

/** C44: a project's hosted page: its settings, and its logo as stored (the bytes are in R2). */
export type PageView = {
  enabled: boolean;
  /** The languages it speaks, the first its default. */
  languages: string[];
  title: TextMap;
  intro: TextMap;
  thanks: TextMap;
  accent: string;
  theme: PageTheme;
  logo: Logo | null;
  /** C22: its Turnstile widget's site key, shown when the project checks Turnstile; or null. */
  turnstileSiteKey: string | null;
  /** C46: its steps' titles, in order; none given: `[]` (fields on a step after the first still page it). */
  steps: { title: TextMap }[];
};

type PageColumns = Pick<ProjectDetails, PageColumn>;

/** C44: the project's default language: its hosted page's first (`en` unless its owner said). */
export const defaultLanguage = (p: Pick<ProjectDetails, 'pageLanguages'>): string =>
  (JSON.parse(p.pageLanguages) as string[])[0] ?? 'en';

export function pageView(p: PageColumns): PageView {
  return {
    enabled: p.pageEnabled,
    languages: JSON.parse(p.pageLanguages) as string[],
    title: storedTextMap(p.pageTitle),
    intro: storedTextMap(p.pageIntro),
    thanks: storedTextMap(p.pageThanks),
    accent: p.pageAccent,
    theme: p.pageTheme,
    logo: p.pageLogo === null ? null : (JSON.parse(p.pageLogo) as Logo),
    turnstileSiteKey: p.pageTurnstileSiteKey,
    steps:
      p.pageSteps === null || p.pageSteps === undefined
        ? []
        : (JSON.parse(p.pageSteps) as { title: TextMap }[]),
  };
}

/** A project as the tool shows it and the API returns it: never a key, a secret, or a hash. */
export type ProjectView = {
  id: string;
  name: string;
  /** C41: the place the project lives in: its database and bucket. */
  place: string;
  unknownFields: string;
  honeypot: string | null;
  /** C22: whether a Turnstile secret is set (the secret itself is write-only). */
  turnstile: boolean;
  retentionDays: number | null;
  replyToField: string | null;
  formId: string | null;
  thankYouUrl: string | null;
  /** C35: the confirmation to the submitter, or null when none is sent. */
  confirmation: {
    field: string;
    subject: string;
    body: string;
    replyTo: string | null;
    open: boolean;
  } | null;
  /** C39: the spam filter, and how many marks its classifier learnt each way. */
  spamFilter: SpamSettings & { learned: { ham: number; spam: number } };
  /** C44: its hosted page. */
  page: PageView;
  /** C45: its limits. */
  limits: LimitsView;
  /** C46: partial submissions of its hosted page in steps. */
  partials: PartialsView;
  createdAt: string;
  fields: FieldDef[];
  origins: string[];
  keys: {
    prefix: string;
    kind: KeyKind;
    createdAt: string;
    revokedAt: string | null;
    lastUsedAt: string | null;
  }[];
};

export function projectView(p: ProjectDetails, place: string = DEFAULT_PLACE): ProjectView {
  return {
    id: p.id,
    name: p.name,
    place,
    unknownFields: p.unknownFields,
    honeypot: p.honeypot,
    turnstile: p.turnstileSecret !== null,
    retentionDays: p.retentionDays,
    replyToField: p.replyToField,
    formId: p.formId,
    thankYouUrl: p.thankYouUrl,
    confirmation:
      p.confirmField === null
        ? null
        : {
            field: p.confirmField,
            subject: p.confirmSubject ?? '',
            body: p.confirmBody ?? '',
            replyTo: p.confirmReplyTo,
            open: p.confirmOpen,
          },
    spamFilter: {
      mode: p.spamMode,
      threshold: p.spamThreshold,
      sharing: p.spamSharing,
      allow: listOf(p.spamAllow),
      block: listOf(p.spamBlock),
      requireWidget: p.spamRequireWidget,
      proofOfWork: p.spamProofOfWork,
      countries: codesOf(p.spamCountries),
      languages: codesOf(p.spamLanguages),
      learned: { ham: p.learnedHam, spam: p.learnedSpam },
    },
    limits: limitsView(p),
    partials: partialsView(p),
    page: pageView(p),
    createdAt: p.createdAt,
    fields: p.fields.map(fieldDef),
    origins: p.origins.map((o) => o.origin),
    keys: p.keys.map((k) => ({
      prefix: k.displayPrefix,
      kind: k.kind,
      createdAt: k.createdAt,
      revokedAt: k.revokedAt,
      lastUsedAt: k.lastUsedAt,
    })),
  };
}
