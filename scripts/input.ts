// What a user types on the command line, checked and normalised before anything is written.
import {
  FIELD_TYPES,
  type FieldType,
  UNKNOWN_FIELD_POLICIES,
  type UnknownFieldPolicy,
} from '../schema/tables.ts';
import type { FieldDef } from '../src/fields/validation.ts';
import { TURNSTILE_FIELD } from '../src/submit/turnstile.ts';

/** Bad input: printed as one line, exit status 2, nothing changed. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const SPEC_FORM = '<name>:<type>[:required]';
// Field names: anything a form control can be named, but no white space, control characters or ':'.
const FIELD_NAME = /^[^\s:\p{Cc}]{1,100}$/u;

export function parseFieldSpec(spec: string): FieldDef {
  const parts = spec.split(':');
  const [name = '', type = '', flag, ...rest] = parts;
  if (parts.length < 2 || rest.length > 0 || (flag !== undefined && flag !== 'required')) {
    throw new UsageError(`Malformed field spec '${spec}': expected ${SPEC_FORM}`);
  }
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
  return { name, type: type as FieldType, required: flag === 'required' };
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
