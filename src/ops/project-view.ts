// C19: a project as the tool shows it and the management API returns it: its settings, fields,
// origins and keys, never a key, a secret or a hash.
import type { FieldType, KeyKind } from '../../schema/tables.ts';
import type { FieldDef } from '../fields/validation.ts';
import type { SpamSettings } from '../spam/settings.ts';
import { DEFAULT_PLACE } from '../store/places.ts';
import { parseRules } from '../store/projects.ts';
import { codesOf, listOf } from '../store/spam.ts';
import type { ProjectDetails } from './context.ts';

/** A stored field as its definition (C28): name, type, required, and its rules when it has any. */
export function fieldDef(row: {
  name: string;
  type: FieldType;
  required: boolean;
  rules: string | null;
}): FieldDef {
  const rules = parseRules(row.rules);
  return {
    name: row.name,
    type: row.type,
    required: row.required,
    ...(rules === undefined ? {} : { rules }),
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
