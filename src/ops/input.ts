// C19: what a person gives the tool or the management API about a project (its origins,
// policies, settings, a value to erase), checked and normalised before anything is written. Bad
// input is one InvalidInput that says what would do. Field definitions are checked in
// src/fields/spec.ts.
import { UNKNOWN_FIELD_POLICIES, type UnknownFieldPolicy } from '../../schema/tables.ts';
import { placeholdersOf } from '../delivery/confirm.ts';
import { isEmailAddress } from '../delivery/mail.ts';
import { RESERVED_FIELDS } from '../fields/catalogue.ts';
import { FIELD_NAME } from '../fields/spec.ts';
import { InvalidInput } from '../lib/faults.ts';
import { parseTime } from '../lib/time.ts';
import { allowedRedirect, httpUrl } from '../lib/urls.ts';
import {
  LIST_KINDS,
  type ListEntry,
  type ListKind,
  MAX_ENTRY_LENGTH,
  MAX_EXPECTED,
  MAX_LIST_ENTRIES,
  MAX_THRESHOLD,
  MIN_THRESHOLD,
  SPAM_MODES,
  SPAM_SHARING,
  type SpamMode,
  type SpamSettings,
  type SpamSharing,
} from '../spam/settings.ts';

/** `scheme://host[:port]`, http or https, normalised as a browser sends it in `Origin`. */
export function parseOrigin(text: string): string {
  const invalid = new InvalidInput(
    `Invalid origin '${text}': expected scheme://host[:port], e.g. https://example.com`,
  );
  // No user info, path, query or fragment: at most a trailing slash after the authority.
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(text)) throw invalid;
  try {
    return new URL(text).origin;
  } catch {
    throw invalid;
  }
}

export function parsePolicy(text: string): UnknownFieldPolicy {
  if (!(UNKNOWN_FIELD_POLICIES as readonly string[]).includes(text)) {
    throw new InvalidInput(`Unknown policy '${text}': use ${UNKNOWN_FIELD_POLICIES.join(' or ')}`);
  }
  return text as UnknownFieldPolicy;
}

/** A point in time, as the read API takes `since` (C24): a day, or a date-time with its offset. */
export function parseSince(text: string): string {
  const time = parseTime(text);
  if (time === undefined) {
    throw new InvalidInput(`Invalid time '${text}': use ISO 8601, e.g. 2026-11-22T09:00:00Z`);
  }
  return time;
}

/** C22: the honeypot is a form control's name, and not one of the project's fields. */
export function parseHoneypot(name: string, fields: readonly { name: string }[]): string {
  if (!FIELD_NAME.test(name) || RESERVED_FIELDS.has(name)) {
    throw new InvalidInput(`Invalid honeypot field '${name}': 1–100 characters without spaces or ':'`);
  }
  if (fields.some((f) => f.name === name)) {
    throw new InvalidInput(`The honeypot '${name}' cannot be one of the project's fields`);
  }
  return name;
}

/** C27: the Reply-To field of notification emails is one of the project's string fields. */
export function parseReplyToField(name: string, fields: readonly { name: string; type: string }[]): string {
  const field = fields.find((f) => f.name === name);
  if (field === undefined || field.type !== 'string') {
    throw new InvalidInput(
      `The Reply-To field '${name}' must be one of the project's string fields (${
        fields
          .filter((f) => f.type === 'string')
          .map((f) => f.name)
          .join(', ') || 'it has none'
      })`,
    );
  }
  return name;
}

/** C29: a thank-you URL is an http(s) URL on one of the project's allowed origins (never an open redirect). */
export function parseThankYouUrl(text: string, origins: readonly string[]): string {
  const url = httpUrl(text);
  if (url === undefined) {
    throw new InvalidInput(`Invalid thank-you URL '${text}': expected an absolute https URL`);
  }
  const allowed = allowedRedirect(text, origins);
  if (allowed === undefined) {
    throw new InvalidInput(
      `The thank-you URL must be on one of the project's allowed origins (${origins.join(', ') || 'it has none: add one with origin add'})`,
    );
  }
  return allowed;
}

/** C27: one plain email address. */
export function parseEmailAddress(text: string): string {
  if (!isEmailAddress(text)) throw new InvalidInput(`Invalid email address '${text}'`);
  return text;
}

/** C22: a Turnstile secret key as Cloudflare's dashboard shows it. */
export function parseTurnstileSecret(secret: string): string {
  if (!/^[\x21-\x7e]{1,255}$/.test(secret)) {
    throw new InvalidInput(
      'Invalid Turnstile secret: copy the secret key from the Turnstile widget settings',
    );
  }
  return secret;
}

/** C25: a retention period in whole days, at least 1 (about 100 years at most). */
export function parseRetentionDays(text: string): number {
  const days = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(days) || days < 1 || days > 36_500) {
    throw new InvalidInput(`Invalid retention '${text}': give a whole number of days from 1 to 36500`);
  }
  return days;
}

/** C25: the value an erasure matches: `--value` is a string; `--json-value` any JSON scalar. */
export function parseErasureValue(
  value: string | undefined,
  json: string | undefined,
): string | number | boolean | null {
  if ((value === undefined) === (json === undefined)) {
    throw new InvalidInput('Give the value to erase with --value <text> or --json-value <json>, one of them');
  }
  if (value !== undefined) return value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? '');
  } catch {
    throw new InvalidInput(`Invalid --json-value '${json}': give JSON, e.g. 42, true, null or "text"`);
  }
  if (parsed === null || ['string', 'number', 'boolean'].includes(typeof parsed)) {
    return parsed as string | number | boolean | null;
  }
  throw new InvalidInput('--json-value must be a string, number, boolean or null: fields hold nothing else');
}

/** C35: what the confirmation to the submitter is made of. */
export type ConfirmationInput = {
  /** The string field with `format=email` that holds the submitter's address. */
  field: string;
  subject: string;
  body: string;
  /** The project owner's address, for replies. */
  replyTo: string;
  /**
   * The operator sends it for submissions that passed no Turnstile challenge too (a risk: anyone
   * can then have the project mail any address). Absent: as it was.
   */
  open?: boolean | undefined;
};

export const MAX_CONFIRMATION_BODY = 10_000;

/** C35: the confirmation's settings, checked; `open` is left to the caller (who may allow it). */
export function parseConfirmation(
  input: ConfirmationInput,
  fields: readonly { name: string; type: string; rules: string | null }[],
) {
  const field = fields.find((f) => f.name === input.field);
  const format = field?.rules ? (JSON.parse(field.rules) as { format?: string }).format : undefined;
  if (field === undefined || field.type !== 'string' || format !== 'email') {
    const candidates = fields
      .filter(
        (f) =>
          f.type === 'string' &&
          f.rules !== null &&
          (JSON.parse(f.rules) as { format?: string }).format === 'email',
      )
      .map((f) => f.name);
    throw new InvalidInput(
      `The confirmation goes to the address in a string field with format=email: '${input.field}' is not one (${candidates.join(', ') || 'the project has none'})`,
    );
  }
  if (
    input.subject.trim() === '' ||
    input.subject.length > 200 ||
    /[\p{Cc}\p{Zl}\p{Zp}]/u.test(input.subject)
  ) {
    throw new InvalidInput('The confirmation subject is 1 to 200 characters on one line');
  }
  // C35: the subject takes no value a stranger typed: only a number, a yes/no or one of the
  // owner's own choices.
  for (const name of placeholdersOf(input.subject)) {
    const named = fields.find((f) => f.name === name);
    const rules = named?.rules ? (JSON.parse(named.rules) as { oneOf?: unknown }) : {};
    const chosen = named?.type === 'string' && Array.isArray(rules.oneOf);
    if (named !== undefined && !chosen && named.type === 'string') {
      throw new InvalidInput(
        `The confirmation subject takes no text a submitter typed: '{{${name}}}' is free text (put it in the body; the subject may name a number, a yes/no, or a field with choices)`,
      );
    }
  }
  if (input.body.trim() === '' || input.body.length > MAX_CONFIRMATION_BODY) {
    throw new InvalidInput(`The confirmation body is 1 to ${MAX_CONFIRMATION_BODY} characters of plain text`);
  }
  if (!isEmailAddress(input.replyTo)) {
    throw new InvalidInput(
      `Invalid Reply-To address '${input.replyTo}': the project owner's address, for replies`,
    );
  }
  return {
    confirmField: field.name,
    confirmSubject: input.subject.trim(),
    confirmBody: input.body,
    confirmReplyTo: input.replyTo,
  };
}

/** C39: the spam filter's settings as given: any of them; lists replace the lists stored. */
export type SpamFilterInput = {
  mode?: string | undefined;
  threshold?: number | undefined;
  sharing?: string | undefined;
  allow?: readonly { kind: string; value: string }[] | undefined;
  block?: readonly { kind: string; value: string }[] | undefined;
  requireWidget?: boolean | undefined;
  proofOfWork?: boolean | undefined;
  countries?: readonly string[] | undefined;
  languages?: readonly string[] | undefined;
};

const COUNTRY = /^[A-Za-z]{2}$/;
// BCP 47's common form: a language (2–3 letters), then script, region or variant subtags.
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * C39: expected countries (ISO 3166-1 alpha-2, upper-cased) or languages (BCP 47, the language
 * lower-cased, the region upper-cased, as written by convention), without repeats.
 */
function parseCodes(which: 'countries' | 'languages', codes: readonly string[]): string[] {
  if (codes.length > MAX_EXPECTED) throw new InvalidInput(`At most ${MAX_EXPECTED} expected ${which}`);
  const out: string[] = [];
  for (const raw of codes) {
    const code = typeof raw === 'string' ? raw.trim() : '';
    if (which === 'countries') {
      if (!COUNTRY.test(code))
        throw new InvalidInput(`'${code}' is not a country code: two letters, ISO 3166-1 (DE, FR, US)`);
      out.push(code.toUpperCase());
      continue;
    }
    if (!LANGUAGE_TAG.test(code) || code.length > 35)
      throw new InvalidInput(`'${code}' is not a language tag: BCP 47 (en, de, pt-BR)`);
    const [language = '', ...rest] = code.split('-');
    out.push([language.toLowerCase(), ...rest.map((t) => (t.length === 2 ? t.toUpperCase() : t))].join('-'));
  }
  return [...new Set(out)];
}

function parseSpamList(which: string, entries: readonly { kind: string; value: string }[]): ListEntry[] {
  if (entries.length > MAX_LIST_ENTRIES) {
    throw new InvalidInput(`The ${which} list holds at most ${MAX_LIST_ENTRIES} entries`);
  }
  const out: ListEntry[] = [];
  const seen = new Set<string>();
  for (const { kind, value } of entries) {
    if (!(LIST_KINDS as readonly string[]).includes(kind)) {
      throw new InvalidInput(`A ${which} list entry is an ${LIST_KINDS.join(', ')}: not '${kind}'`);
    }
    let v = value.trim().replace(/\s+/gu, ' ');
    if (kind !== 'phrase') v = v.toLowerCase();
    if (kind === 'domain') v = v.replace(/^@/, '').replace(/\.$/, '');
    if (v === '' || v.length > MAX_ENTRY_LENGTH || /\p{Cc}/u.test(v)) {
      throw new InvalidInput(`A ${which} list entry is 1 to ${MAX_ENTRY_LENGTH} characters on one line`);
    }
    if (kind === 'address' && !isEmailAddress(v)) throw new InvalidInput(`'${v}' is not an e-mail address`);
    if (kind === 'domain' && !/^(?:[a-z0-9-]+\.)+[a-z0-9-]+$/u.test(v)) {
      throw new InvalidInput(`'${v}' is not a domain (example.com)`);
    }
    const key = `${kind} ${v.toLowerCase()}`;
    if (!seen.has(key)) out.push({ kind: kind as ListKind, value: v });
    seen.add(key);
  }
  return out;
}

/** C39: the spam filter's settings, checked: a mode, a threshold within its bounds, two lists, the form's signals. */
export function parseSpamFilter(input: SpamFilterInput): Partial<SpamSettings> {
  const out: Partial<SpamSettings> = {};
  if (input.mode !== undefined) {
    if (!(SPAM_MODES as readonly string[]).includes(input.mode)) {
      throw new InvalidInput(`The spam filter is ${SPAM_MODES.join(', ')}: not '${input.mode}'`);
    }
    out.mode = input.mode as SpamMode;
  }
  if (input.threshold !== undefined) {
    const t = input.threshold;
    if (!Number.isFinite(t) || t < MIN_THRESHOLD || t > MAX_THRESHOLD) {
      throw new InvalidInput(`The spam threshold is a score from ${MIN_THRESHOLD} to ${MAX_THRESHOLD}`);
    }
    out.threshold = Math.round(t * 100) / 100;
  }
  if (input.sharing !== undefined) {
    if (!(SPAM_SHARING as readonly string[]).includes(input.sharing)) {
      throw new InvalidInput(
        `The spam filter's sharing is ${SPAM_SHARING.join(', ')}: not '${input.sharing}'`,
      );
    }
    out.sharing = input.sharing as SpamSharing;
  }
  if (input.allow !== undefined) out.allow = parseSpamList('allow', input.allow);
  if (input.block !== undefined) out.block = parseSpamList('block', input.block);
  if (input.requireWidget !== undefined) out.requireWidget = input.requireWidget;
  if (input.proofOfWork !== undefined) out.proofOfWork = input.proofOfWork;
  if (input.countries !== undefined) out.countries = parseCodes('countries', input.countries);
  if (input.languages !== undefined) out.languages = parseCodes('languages', input.languages);
  return out;
}
