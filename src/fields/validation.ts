// C12, C13, C28: a project's field definitions compiled to valibot schemas, and one pass over a body.
import * as v from 'valibot';
import type { Problem } from '../lib/codes.ts';
import type { FieldRules, FieldType, UnknownFieldPolicy } from './catalogue.ts';
import type { Condition } from './conditions.ts';
import type { FieldDisplay } from './display.ts';
import { UploadedFile } from './file.ts';
import type { PatternEngine } from './pattern.ts';
import { type RuleCheck, ruleChecks } from './rules.ts';

/**
 * A field: what it checks (C28), when it applies (C45), and (C44) what it shows a person, which no
 * check reads: the submission path's cached fields carry none of it.
 */
export type FieldDef = {
  name: string;
  type: FieldType;
  required: boolean;
  rules?: FieldRules;
  /** C45: the condition under which it applies; absent: always. */
  when?: Condition;
  /** C45: where a hidden field's value comes from (`utm_source`, `referrer`, `query:<name>`). */
  capture?: string;
} & FieldDisplay;

/**
 * A field's type, with the problem of a value not of it, then (only for a value of the right type)
 * its rules beyond the type (C28).
 */
type FieldSchemas = { type: v.GenericSchema; typeProblem: Problem; rules: readonly RuleCheck[] };

export type CompiledFields = {
  /** Keyed by field name; a Map, so that `__proto__` or `constructor` are ordinary names (C13). */
  readonly schemas: ReadonlyMap<string, FieldSchemas>;
  /** Names of the `integer` fields: their numbers must also be written as integers (C13). */
  readonly integers: ReadonlySet<string>;
  /** Required field names in configured order (C12). */
  readonly required: readonly string[];
  readonly unknownFields: UnknownFieldPolicy;
  /** C45: the fields that do not apply to a body (a project with conditions only: conditions.ts). */
  readonly inactive?: (body: Submission) => ReadonlySet<string>;
};

export type Submission = Record<string, unknown>;

/** C12, C43: the problems in the order of their texts, each with its code. */
export type ValidationResult = { ok: true; value: Submission } | { ok: false; problems: Problem[] };

export const typeError = (name: string, type: FieldType) => `Field '${name}' is not of type ${type}`;
export const unknownError = (name: string) => `Field '${name}' is not defined for this project`;
export const requiredError = (name: string) => `Field '${name}' is required`;

export const typeProblem = (name: string, type: FieldType): Problem => ({
  field: name,
  code: 'type',
  params: { type },
  message: typeError(name, type),
});
export const unknownProblem = (name: string): Problem => ({
  field: name,
  code: 'unknown_field',
  message: unknownError(name),
});
export const requiredProblem = (name: string): Problem => ({
  field: name,
  code: 'required',
  message: requiredError(name),
});

/** C13: what each configured type accepts, after JSON parsing. `null` matches none of them. */
export function fieldSchema(name: string, type: FieldType): v.GenericSchema {
  const message = typeError(name, type);
  switch (type) {
    case 'string':
      return v.string(message);
    case 'boolean':
      return v.boolean(message);
    // A JSON number too large for a double parses to ±Infinity: not a number we could store.
    case 'number':
      return v.pipe(v.number(message), v.finite(message));
    // Whole and within ±(2^53−1), so no digit is silently lost.
    case 'integer':
      return v.pipe(v.number(message), v.safeInteger(message));
    // C30: only a file uploaded to the HTML form endpoint; nothing a JSON body can hold.
    case 'file':
      return v.instance(UploadedFile, message);
  }
}

function compileField(def: FieldDef, engine: PatternEngine | undefined): FieldSchemas {
  return {
    type: fieldSchema(def.name, def.type),
    typeProblem: typeProblem(def.name, def.type),
    rules: ruleChecks(def.name, def.type, def.rules, engine),
  };
}

/**
 * C28: fields with a `pattern` rule need the pattern engine (`engineFor(defs)`); C45: fields with a
 * condition, the judgement of which apply (conditions.ts's `inactiveFields`, `logicFor(defs)`).
 */
export function compileFields(
  defs: readonly FieldDef[],
  unknownFields: UnknownFieldPolicy,
  engine?: PatternEngine,
  inactiveFields?: (order: readonly FieldDef[], body: Submission) => ReadonlySet<string>,
): CompiledFields {
  return {
    schemas: new Map(defs.map((d) => [d.name, compileField(d, engine)])),
    integers: new Set(defs.filter((d) => d.type === 'integer').map((d) => d.name)),
    required: defs.filter((d) => d.required).map((d) => d.name),
    unknownFields,
    ...(inactiveFields === undefined || !defs.some((d) => d.when !== undefined)
      ? {}
      : { inactive: (body: Submission) => inactiveFields(defs, body) }),
  };
}

/** C45: the judgement of which fields apply, loaded only when one of these fields has a condition. */
export async function logicFor(defs: readonly { when?: unknown }[]) {
  return defs.some((d) => d.when !== undefined)
    ? (await import('./conditions.ts')).inactiveFields
    : undefined;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * C12: every problem in one pass, in body order, then the missing required fields in configured
 * order. With the `discard` policy, unknown fields are dropped from the value to store. C28: a
 * value of the wrong type gets the type's message alone; one of the right type, one message per
 * rule it breaks, in the rules' fixed order.
 * `notIntegerText`: the fields whose number was not written as an integer in the body (C13).
 */
export function validateSubmission(
  compiled: CompiledFields,
  body: Submission,
  notIntegerText: ReadonlySet<string> = NONE,
): ValidationResult {
  const problems: Problem[] = [];
  const kept: [string, unknown][] = [];
  // C45: a field whose condition does not hold is neither judged nor stored, nor required.
  const inactive = compiled.inactive?.(body) ?? NONE;
  for (const [name, value] of Object.entries(body)) {
    if (inactive.has(name)) continue;
    const schema = compiled.schemas.get(name);
    if (schema === undefined) {
      if (compiled.unknownFields === 'reject') {
        problems.push(unknownProblem(name));
      }
      continue;
    }
    // An integer field's number written as `1.0` or `1e0` in the body (C13) is not of its type.
    if ((notIntegerText.has(name) && compiled.integers.has(name)) || !v.is(schema.type, value)) {
      problems.push(schema.typeProblem);
      continue;
    }
    const before = problems.length;
    for (const rule of schema.rules) if (!rule.test(value)) problems.push(rule.problem);
    if (problems.length === before) kept.push([name, value]);
  }
  for (const name of compiled.required) {
    if (!Object.hasOwn(body, name) && !inactive.has(name)) problems.push(requiredProblem(name));
  }
  if (problems.length > 0) return { ok: false, problems };
  // fromEntries defines own properties: a `__proto__` entry stays data, never a prototype.
  return { ok: true, value: Object.fromEntries(kept) };
}
