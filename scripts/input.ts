// What a user types on the command line, checked and normalised before anything is written.
import {
  FIELD_TYPES,
  type FieldType,
  UNKNOWN_FIELD_POLICIES,
  type UnknownFieldPolicy,
} from '../schema/tables.ts';
import { TURNSTILE_FIELD } from '../src/accept/turnstile.ts';
import { isEmailAddress } from '../src/delivery/email.ts';
import { compilePattern, type FieldRules, FORMATS, type Format, RULES_OF } from '../src/fields/rules.ts';
import type { FieldDef } from '../src/fields/validation.ts';
import { allowedRedirect, httpUrl } from '../src/lib/urls.ts';

/** Bad input: printed as one line, exit status 2, nothing changed. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const SPEC_FORM = '<name>:<type>[:required][:<rule>=<value>]…';
// Field names: anything a form control can be named, but no white space, control characters or ':'.
const FIELD_NAME = /^[^\s:\p{Cc}]{1,100}$/u;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const MAX_LENGTH_RULE = 1_000_000;
// C30: `type/subtype` or `type/*`, as HTML's `accept` attribute writes them.
const MEDIA_RANGE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/;
const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1000,
  mb: 1_000_000,
  gb: 1_000_000_000,
  kib: 1024,
  mib: 1_048_576,
};

/** C30: `5MB` is 5,000,000 bytes (SI, as the rule says it); `5MiB` is 5 × 1,048,576. */
export function parseSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = SIZE_UNITS[(m?.[2] ?? 'x').toLowerCase()];
  if (m === null || unit === undefined) return undefined;
  const n = Math.round(Number(m[1]) * unit);
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}
const MAX_ONE_OF = 100;
/** Every rule some type takes (C28, C30), as `RULES_OF` lists them. */
const KNOWN_RULES = [...new Set(Object.values(RULES_OF).flat())];

/** C28: one rule's value, checked against the field's type; `spec` is for the messages. */
function parseRule(spec: string, type: FieldType, rule: string, text: string, rules: FieldRules): void {
  if (!(KNOWN_RULES as readonly string[]).includes(rule)) {
    throw new UsageError(`Unknown rule '${rule}' in '${spec}': use ${KNOWN_RULES.join(', ')}`);
  }
  if (!(RULES_OF[type] as readonly string[]).includes(rule)) {
    const fits = RULES_OF[type].length === 0 ? 'no rules' : RULES_OF[type].join(', ');
    throw new UsageError(
      `Rule '${rule}' does not fit type ${type} in '${spec}': a ${type} field takes ${fits}`,
    );
  }
  if (Object.hasOwn(rules, rule)) throw new UsageError(`Rule '${rule}' is given twice in '${spec}'`);
  switch (rule) {
    case 'format':
      if (!(FORMATS as readonly string[]).includes(text)) {
        throw new UsageError(`Unknown format '${text}' in '${spec}': use ${FORMATS.join(', ')}`);
      }
      rules.format = text as Format;
      return;
    case 'minLength':
    case 'maxLength': {
      const n = Number(text);
      if (!/^\d+$/.test(text) || n > MAX_LENGTH_RULE) {
        throw new UsageError(
          `Invalid ${rule} '${text}' in '${spec}': a whole number from 0 to ${MAX_LENGTH_RULE}`,
        );
      }
      rules[rule] = n;
      return;
    }
    case 'min':
    case 'max': {
      const n = Number(text);
      if (!NUMBER.test(text) || !Number.isFinite(n)) {
        throw new UsageError(`Invalid ${rule} '${text}' in '${spec}': a number, e.g. 0, -5, 0.01`);
      }
      if (type === 'integer' && !Number.isSafeInteger(n)) {
        throw new UsageError(
          `Invalid ${rule} '${text}' in '${spec}': an integer field's bounds are integers`,
        );
      }
      rules[rule] = n === 0 ? 0 : n; // -0 is 0
      return;
    }
    case 'oneOf': {
      const values = text.split('|');
      if (text === '' || values.some((x) => x === '')) {
        throw new UsageError(
          `Invalid oneOf in '${spec}': give the allowed values, separated by |, none empty`,
        );
      }
      if (new Set(values).size !== values.length)
        throw new UsageError(`A value is given twice in oneOf of '${spec}'`);
      if (values.length > MAX_ONE_OF)
        throw new UsageError(`oneOf takes at most ${MAX_ONE_OF} values in '${spec}'`);
      rules.oneOf = values;
      return;
    }
    case 'maxSize': {
      const n = parseSize(text);
      if (n === undefined) {
        throw new UsageError(
          `Invalid maxSize '${text}' in '${spec}': a size such as 500kB, 5MB or 1048576 (bytes), at least 1 byte`,
        );
      }
      rules.maxSize = n;
      return;
    }
    case 'accept': {
      const types = text.split(',').map((t) => t.trim().toLowerCase());
      if (text === '' || !types.every((t) => MEDIA_RANGE.test(t))) {
        throw new UsageError(
          `Invalid accept '${text}' in '${spec}': media types separated by commas, e.g. application/pdf,image/*`,
        );
      }
      rules.accept = [...new Set(types)];
      return;
    }
    case 'pattern':
      try {
        compilePattern(text);
      } catch (error) {
        throw new UsageError(
          `Invalid pattern in '${spec}': ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      rules.pattern = text;
      return;
  }
}

/**
 * `<name>:<type>[:required][:<rule>=<value>]…`. A pattern may hold ':' when it comes last: the rest
 * of the spec after `pattern=` is the pattern.
 */
export function parseFieldSpec(spec: string): FieldDef {
  const parts = spec.split(':');
  const [name = '', type = '', ...rest] = parts;
  if (parts.length < 2) throw new UsageError(`Malformed field spec '${spec}': expected ${SPEC_FORM}`);
  if (!FIELD_NAME.test(name)) {
    throw new UsageError(
      `Malformed field spec '${spec}': a field name is 1–100 characters without spaces or ':'`,
    );
  }
  if (name === TURNSTILE_FIELD) {
    throw new UsageError(`'${TURNSTILE_FIELD}' is reserved for the Turnstile token, which is never stored`);
  }
  if (!(FIELD_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(`Unknown field type '${type}' in '${spec}': use ${FIELD_TYPES.join(', ')}`);
  }
  const fieldType = type as FieldType;
  let required = false;
  const rules: FieldRules = {};
  for (let i = 0; i < rest.length; i++) {
    const part = rest[i] ?? '';
    if (part === 'required' && !required) {
      required = true;
      continue;
    }
    const eq = part.indexOf('=');
    if (eq <= 0) throw new UsageError(`Malformed field spec '${spec}': expected ${SPEC_FORM}`);
    const rule = part.slice(0, eq);
    // The pattern takes the rest of the spec, colons and all.
    const value =
      rule === 'pattern'
        ? rest
            .slice(i)
            .join(':')
            .slice(eq + 1)
        : part.slice(eq + 1);
    parseRule(spec, fieldType, rule, value, rules);
    if (rule === 'pattern') break;
  }
  if (rules.minLength !== undefined && rules.maxLength !== undefined && rules.minLength > rules.maxLength) {
    throw new UsageError(`minLength is above maxLength in '${spec}'`);
  }
  if (rules.min !== undefined && rules.max !== undefined && rules.min > rules.max) {
    throw new UsageError(`min is above max in '${spec}'`);
  }
  return { name, type: fieldType, required, ...(Object.keys(rules).length > 0 ? { rules } : {}) };
}

export function parseFieldSpecs(specs: readonly string[]): FieldDef[] {
  const defs = specs.map(parseFieldSpec);
  const seen = new Set<string>();
  for (const { name } of defs) {
    if (seen.has(name)) throw new UsageError(`Field '${name}' is given twice`);
    seen.add(name);
  }
  return defs;
}

/** `scheme://host[:port]`, http or https, normalised as a browser sends it in `Origin`. */
export function parseOrigin(text: string): string {
  const invalid = new UsageError(
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
    throw new UsageError(`Unknown policy '${text}': use ${UNKNOWN_FIELD_POLICIES.join(' or ')}`);
  }
  return text as UnknownFieldPolicy;
}

export function parseSince(text: string): string {
  const time = Date.parse(text);
  if (Number.isNaN(time))
    throw new UsageError(`Invalid time '${text}': use ISO 8601, e.g. 2026-11-22T09:00:00Z`);
  return new Date(time).toISOString();
}

/** C22: the honeypot is a form control's name, and not one of the project's fields. */
export function parseHoneypot(name: string, fields: readonly { name: string }[]): string {
  if (!FIELD_NAME.test(name) || name === TURNSTILE_FIELD) {
    throw new UsageError(`Invalid honeypot field '${name}': 1–100 characters without spaces or ':'`);
  }
  if (fields.some((f) => f.name === name)) {
    throw new UsageError(`The honeypot '${name}' cannot be one of the project's fields`);
  }
  return name;
}

/** C27: the Reply-To field of notification emails is one of the project's string fields. */
export function parseReplyToField(name: string, fields: readonly { name: string; type: string }[]): string {
  const field = fields.find((f) => f.name === name);
  if (field === undefined || field.type !== 'string') {
    throw new UsageError(
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
    throw new UsageError(`Invalid thank-you URL '${text}': expected an absolute https URL`);
  }
  const allowed = allowedRedirect(text, origins);
  if (allowed === undefined) {
    throw new UsageError(
      `The thank-you URL must be on one of the project's allowed origins (${origins.join(', ') || 'it has none: add one with origin add'})`,
    );
  }
  return allowed;
}

/** C27: one plain email address. */
export function parseEmailAddress(text: string): string {
  if (!isEmailAddress(text)) throw new UsageError(`Invalid email address '${text}'`);
  return text;
}

/** C22: a Turnstile secret key as Cloudflare's dashboard shows it. */
export function parseTurnstileSecret(secret: string): string {
  if (!/^[\x21-\x7e]{1,255}$/.test(secret)) {
    throw new UsageError('Invalid Turnstile secret: copy the secret key from the Turnstile widget settings');
  }
  return secret;
}

/** C25: a retention period in whole days, at least 1 (about 100 years at most). */
export function parseRetentionDays(text: string): number {
  const days = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(days) || days < 1 || days > 36_500) {
    throw new UsageError(`Invalid retention '${text}': give a whole number of days from 1 to 36500`);
  }
  return days;
}

/** C25: the value an erasure matches: `--value` is a string; `--json-value` any JSON scalar. */
export function parseErasureValue(
  value: string | undefined,
  json: string | undefined,
): string | number | boolean | null {
  if ((value === undefined) === (json === undefined)) {
    throw new UsageError('Give the value to erase with --value <text> or --json-value <json>, one of them');
  }
  if (value !== undefined) return value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? '');
  } catch {
    throw new UsageError(`Invalid --json-value '${json}': give JSON, e.g. 42, true, null or "text"`);
  }
  if (parsed === null || ['string', 'number', 'boolean'].includes(typeof parsed)) {
    return parsed as string | number | boolean | null;
  }
  throw new UsageError('--json-value must be a string, number, boolean or null: fields hold nothing else');
}
