// The catalogue of what a field can be: its types, the rules each type carries (C28) and the
// formats, and what becomes of a field a project does not define (C13), with no import at all, so
// that the server, the tool, the dashboard and the tables (schema/) share one copy and the
// submission path pays nothing to load it.

export const FIELD_TYPES = ['string', 'integer', 'number', 'boolean', 'file'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

// C13: what happens to a submitted field the project does not define.
export const UNKNOWN_FIELD_POLICIES = ['reject', 'discard'] as const;
export type UnknownFieldPolicy = (typeof UNKNOWN_FIELD_POLICIES)[number];

export const FORMATS = ['email', 'url', 'date', 'date-time', 'uuid'] as const;
export type Format = (typeof FORMATS)[number];

export type FieldRules = {
  format?: Format;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  oneOf?: string[];
  pattern?: string;
  /** C30: a file's largest size in bytes, and the types its bytes may be of (`image/*` allowed). */
  maxSize?: number;
  accept?: string[];
  /**
   * C45: one accepted submission per value in the project. Judged by the store, in the insert
   * (no value is taken twice, however close two posts come), never in the isolate: so it is in no
   * type's RULES_OF, whose rules the isolate and the generated module check.
   */
  unique?: true;
};

/** C45: the types whose values can be unique. */
export const UNIQUE_TYPES: readonly FieldType[] = ['string', 'integer', 'number'];

/** The rules the isolate checks (C28): all but `unique` (C45), which the store judges. */
export type CheckedRule = Exclude<keyof FieldRules, 'unique'>;

/** The rules each type can carry; their order is the order of the messages (C28). */
export const RULES_OF: Record<FieldType, readonly CheckedRule[]> = {
  string: ['format', 'minLength', 'maxLength', 'oneOf', 'pattern'],
  integer: ['min', 'max'],
  number: ['min', 'max'],
  boolean: [],
  file: ['maxSize', 'accept'],
};

/** The longest pattern a field may have, and the longest value a pattern is run on. */
export const MAX_PATTERN_LENGTH = 200;
export const MAX_PATTERN_INPUT = 10_000;

/** The body field that carries a Turnstile token (C22): never a field of a project, never stored. */
export const TURNSTILE_FIELD = 'cf-turnstile-response';
/**
 * C39: the body fields the widget adds: its token, the milliseconds from the first interaction to
 * the send, how many characters arrived pasted (or dropped, or autofilled) rather than typed, and an
 * ALTCHA proof of work (ALTCHA's own field name, so that its widget works too). Never fields of a
 * project, never stored.
 */
export const WIDGET_TOKEN_FIELD = '_widget_token';
export const FILL_FIELD = '_fill_ms';
export const PASTED_FIELD = '_pasted';
export const PROOF_FIELD = 'altcha';
/**
 * C46: the token of the draft a hosted page in steps saved (partial submissions): the submission
 * sent from it deletes it. Never stored as a value.
 */
export const DRAFT_FIELD = '_draft';
/** The names a project's field (or honeypot) may not take: they carry the checks above. */
export const RESERVED_FIELDS: ReadonlySet<string> = new Set([
  TURNSTILE_FIELD,
  WIDGET_TOKEN_FIELD,
  FILL_FIELD,
  PASTED_FIELD,
  PROOF_FIELD,
  DRAFT_FIELD,
]);
