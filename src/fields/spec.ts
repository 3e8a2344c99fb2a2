// C28, C30: a field's definition as a person gives it, checked once for the command-line tool's
// field spec (`email:string:required:format=email`) and the management API's JSON (`{"type":
// "string", "rules": {"format": "email"}}`) alike: which rules fit which type (RULES_OF), and the
// bounds of each rule's value. Bad input is one InvalidInput that says which and why.

import { RE2JS } from 're2js';
import { InvalidInput } from '../lib/faults.ts';
import { parseCapture } from './capture.ts';
import {
  type CheckedRule,
  FIELD_TYPES,
  type FieldRules,
  type FieldType,
  FORMATS,
  type Format,
  RESERVED_FIELDS,
  RULES_OF,
  TURNSTILE_FIELD,
  UNIQUE_TYPES,
} from './catalogue.ts';
import type { Condition } from './conditions.ts';
import { parseFieldDisplay, parseMultiline, parseStep } from './display.ts';
import { compilePattern } from './rules.ts';
import type { FieldDef } from './validation.ts';

/** The Turnstile token's field (C22), never stored: no field may take its name. */

export const SPEC_FORM = '<name>:<type>[:required][:unique][:<rule>=<value>]…';
/** Field names: anything a form control can be named, but no white space, control characters or ':'. */
export const FIELD_NAME = /^[^\s:\p{Cc}]{1,100}$/u;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** The largest minLength or maxLength a field may have. */
export const MAX_LENGTH_RULE = 1_000_000;
/** The most values a oneOf may list. */
export const MAX_ONE_OF = 100;
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

/** Every rule some type takes (C28, C30), as `RULES_OF` lists them. */
export const KNOWN_RULES = [...new Set(Object.values(RULES_OF).flat())];
const isKnownRule = (rule: string): rule is CheckedRule => (KNOWN_RULES as readonly string[]).includes(rule);

const invalid = (message: string) => new InvalidInput(message);

/**
 * C28: one rule's value, checked against the field's type and the rule's bounds, into `rules`.
 * `where` names the definition in messages (`in 'age:integer:min=x'`); `shown` is the value as
 * the person wrote it.
 */
/** C45: `unique` (true, or false for none) on a string, integer or number field. */
function checkUnique(where: string, type: FieldType, value: unknown, shown: string, rules: FieldRules): void {
  if (!UNIQUE_TYPES.includes(type)) {
    throw invalid(
      `Rule 'unique' does not fit type ${type} ${where}: a string, integer or number field takes it`,
    );
  }
  if (Object.hasOwn(rules, 'unique')) throw invalid(`Rule 'unique' is given twice ${where}`);
  if (value !== true && value !== false) throw invalid(`Invalid unique '${shown}' ${where}: true or false`);
  if (value) rules.unique = true;
}

function checkRule(
  where: string,
  type: FieldType,
  rule: string,
  value: unknown,
  shown: string,
  rules: FieldRules,
): void {
  if (rule === 'unique') {
    checkUnique(where, type, value, shown, rules);
    return;
  }
  if (!isKnownRule(rule)) {
    throw invalid(`Unknown rule '${rule}' ${where}: use ${[...KNOWN_RULES, 'unique'].join(', ')}`);
  }
  if (!(RULES_OF[type] as readonly string[]).includes(rule)) {
    const fits = RULES_OF[type].length === 0 ? 'no rules' : RULES_OF[type].join(', ');
    throw invalid(`Rule '${rule}' does not fit type ${type} ${where}: a ${type} field takes ${fits}`);
  }
  if (Object.hasOwn(rules, rule)) throw invalid(`Rule '${rule}' is given twice ${where}`);
  switch (rule) {
    case 'format':
      if (!(FORMATS as readonly unknown[]).includes(value)) {
        throw invalid(`Unknown format '${shown}' ${where}: use ${FORMATS.join(', ')}`);
      }
      rules.format = value as Format;
      return;
    case 'minLength':
    case 'maxLength': {
      if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > MAX_LENGTH_RULE) {
        throw invalid(`Invalid ${rule} '${shown}' ${where}: a whole number from 0 to ${MAX_LENGTH_RULE}`);
      }
      rules[rule] = value as number;
      return;
    }
    case 'min':
    case 'max': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw invalid(`Invalid ${rule} '${shown}' ${where}: a number, e.g. 0, -5, 0.01`);
      }
      if (type === 'integer' && !Number.isSafeInteger(value)) {
        throw invalid(`Invalid ${rule} '${shown}' ${where}: an integer field's bounds are integers`);
      }
      rules[rule] = value === 0 ? 0 : value; // -0 is 0
      return;
    }
    case 'oneOf': {
      const values = value as unknown[];
      if (
        !Array.isArray(value) ||
        values.length === 0 ||
        values.some((x) => typeof x !== 'string' || x === '')
      ) {
        throw invalid(`Invalid oneOf ${where}: give the allowed values, separated by |, none empty`);
      }
      if (new Set(values).size !== values.length) throw invalid(`A value is given twice in oneOf ${where}`);
      if (values.length > MAX_ONE_OF) throw invalid(`oneOf takes at most ${MAX_ONE_OF} values ${where}`);
      rules.oneOf = values as string[];
      return;
    }
    case 'maxSize': {
      const n = typeof value === 'string' ? parseSize(value) : value;
      if (!Number.isSafeInteger(n) || (n as number) < 1) {
        throw invalid(
          `Invalid maxSize '${shown}' ${where}: a size such as 500kB, 5MB or 1048576 (bytes), at least 1 byte`,
        );
      }
      rules.maxSize = n as number;
      return;
    }
    case 'accept': {
      const list = typeof value === 'string' ? value.split(',') : value;
      const types = Array.isArray(list)
        ? list.map((t) => (typeof t === 'string' ? t.trim().toLowerCase() : ''))
        : [];
      if (types.length === 0 || !types.every((t) => MEDIA_RANGE.test(t))) {
        throw invalid(
          `Invalid accept '${shown}' ${where}: media types separated by commas, e.g. application/pdf,image/*`,
        );
      }
      rules.accept = [...new Set(types)];
      return;
    }
    case 'pattern':
      try {
        if (typeof value !== 'string') throw new Error('a pattern is text');
        compilePattern(RE2JS, value);
      } catch (error) {
        throw invalid(`Invalid pattern ${where}: ${error instanceof Error ? error.message : String(error)}`);
      }
      rules.pattern = value as string;
      return;
    default: {
      // A rule of FieldRules with no case above is a compile error here, never a rule dropped.
      const unchecked: never = rule;
      throw new Error(`the rule '${String(unchecked)}' has no check`);
    }
  }
}

/** What a definition as a whole may not be: bounds that cross. */
function checkBounds(where: string, rules: FieldRules): void {
  if (rules.minLength !== undefined && rules.maxLength !== undefined && rules.minLength > rules.maxLength) {
    throw invalid(`minLength is above maxLength ${where}`);
  }
  if (rules.min !== undefined && rules.max !== undefined && rules.min > rules.max) {
    throw invalid(`min is above max ${where}`);
  }
}

/** A field's name, and none of the names that carry a check (a Turnstile token, the widget's). */
function checkName(name: string, malformed: () => InvalidInput): void {
  if (!FIELD_NAME.test(name)) throw malformed();
  if (name === TURNSTILE_FIELD) {
    throw invalid(`'${TURNSTILE_FIELD}' is reserved for the Turnstile token, which is never stored`);
  }
  if (RESERVED_FIELDS.has(name)) {
    throw invalid(`'${name}' is reserved for the widget's spam checks, which are never stored`);
  }
}

function checkType(type: unknown, where: string): FieldType {
  if (!(FIELD_TYPES as readonly unknown[]).includes(type)) {
    throw invalid(`Unknown field type '${String(type)}' ${where}: use ${FIELD_TYPES.join(', ')}`);
  }
  return type as FieldType;
}

const definition = (name: string, type: FieldType, required: boolean, rules: FieldRules): FieldDef => ({
  name,
  type,
  required,
  ...(Object.keys(rules).length > 0 ? { rules } : {}),
});

/** A rule's text in a field spec, as the value the rule takes (what will not do stays unusable). */
function ruleValue(rule: string, text: string): unknown {
  switch (rule) {
    case 'minLength':
    case 'maxLength':
      return /^\d+$/.test(text) ? Number(text) : Number.NaN;
    case 'min':
    case 'max':
      return NUMBER.test(text) ? Number(text) : Number.NaN;
    case 'oneOf':
      return text === '' ? [] : text.split('|');
    case 'unique':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

/**
 * `<name>:<type>[:required][:unique][:<rule>=<value>]…`. A pattern may hold ':' when it comes last: the rest
 * of the spec after `pattern=` is the pattern.
 */
export function parseFieldSpec(spec: string): FieldDef {
  const parts = spec.split(':');
  const [name = '', type = '', ...rest] = parts;
  if (parts.length < 2) throw invalid(`Malformed field spec '${spec}': expected ${SPEC_FORM}`);
  checkName(name, () =>
    invalid(`Malformed field spec '${spec}': a field name is 1–100 characters without spaces or ':'`),
  );
  const where = `in '${spec}'`;
  const fieldType = checkType(type, where);
  let required = false;
  const rules: FieldRules = {};
  for (let i = 0; i < rest.length; i++) {
    const part = rest[i] ?? '';
    if (part === 'required' && !required) {
      required = true;
      continue;
    }
    // C45: `unique` alone, as `required` is.
    if (part === 'unique') {
      checkUnique(where, fieldType, true, 'true', rules);
      continue;
    }
    const eq = part.indexOf('=');
    if (eq <= 0) throw invalid(`Malformed field spec '${spec}': expected ${SPEC_FORM}`);
    const rule = part.slice(0, eq);
    // The pattern takes the rest of the spec, colons and all.
    const text =
      rule === 'pattern'
        ? rest
            .slice(i)
            .join(':')
            .slice(eq + 1)
        : part.slice(eq + 1);
    checkRule(where, fieldType, rule, ruleValue(rule, text), text, rules);
    if (rule === 'pattern') break;
  }
  checkBounds(where, rules);
  return definition(name, fieldType, required, rules);
}

export function parseFieldSpecs(specs: readonly string[]): FieldDef[] {
  const defs = specs.map(parseFieldSpec);
  const seen = new Set<string>();
  for (const { name } of defs) {
    if (seen.has(name)) throw invalid(`Field '${name}' is given twice`);
    seen.add(name);
  }
  return defs;
}

/**
 * C28: a field as the management API takes it, `{type, required?, rules?}` with the rules as JSON
 * (`{"format": "email", "maxLength": 100}`, `{"maxSize": "5MB", "accept": ["application/pdf"]}`),
 * checked exactly as a field spec is; C44: and what it shows, `label`, `help` and `placeholder`,
 * each a map of language tags and texts, checked as the tool's `--label en=…` options are, and
 * whether its control takes several lines (`multiline`).
 */
export function fieldFromJson(name: string, input: unknown): FieldDef {
  checkName(name, () => invalid(`Invalid field name '${name}': 1–100 characters without spaces or ':'`));
  const where = `in field '${name}'`;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid(`A field is {"type": …, "required"?: true|false, "rules"?: {…}} ${where}`);
  }
  const {
    type,
    required = false,
    rules: given = {},
    label,
    help,
    placeholder,
    multiline,
    when,
    capture,
    step,
    ...extra
  } = input as Record<string, unknown>;
  const unknown = Object.keys(extra)[0];
  if (unknown !== undefined) {
    throw invalid(
      `Unknown member '${unknown}' ${where}: use type, required, rules, label, help, placeholder, multiline, when, capture, step`,
    );
  }
  const fieldType = checkType(type, where);
  if (typeof required !== 'boolean') throw invalid(`'required' is true or false ${where}`);
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw invalid(`'rules' is an object of rules ${where}, e.g. {"maxLength": 100}`);
  }
  const rules: FieldRules = {};
  for (const [rule, value] of Object.entries(given)) {
    checkRule(
      where,
      fieldType,
      rule,
      value,
      typeof value === 'string' ? value : JSON.stringify(value),
      rules,
    );
  }
  checkBounds(where, rules);
  const lines = parseMultiline(name, multiline, { type: fieldType, rules });
  const captured = parseCapture(name, capture, { type: fieldType, required: required === true, rules });
  const onStep = parseStep(name, step);
  return {
    ...definition(name, fieldType, required, captured?.rules ?? rules),
    ...(captured === undefined ? {} : { capture: captured.capture }),
    ...parseFieldDisplay(name, { label, help, placeholder }),
    ...(lines === undefined ? {} : { multiline: lines }),
    ...(onStep === undefined ? {} : { step: onStep }),
    // C45: checked against the fields before it by the operation, which knows them (conditions.ts).
    ...(when === undefined || when === null ? {} : { when: when as Condition }),
  };
}
