// C45: a field that applies only when earlier fields say so (`when`). One grammar for the
// management API's JSON and the tool's `--when`, checked against the project's fields (a condition
// names only fields before its own, so no cycle is possible), and one judgement of a body: the
// worker's (validation.ts, through `inactiveFields`), which the generated validator repeats.
// Loaded by the submission path only for a project that has a condition (projects/cache.ts).
import { InvalidInput } from '../lib/faults.ts';
import type { FieldType } from './catalogue.ts';

/** A value a condition compares with: a field's value of its type. */
export type Compared = string | number | boolean;

export type Condition =
  | { field: string; equals: Compared }
  | { field: string; oneOf: Compared[] }
  | { field: string; filled: boolean }
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition };

/** The fields a condition may name: those before its own, in order, with their types. */
export type Earlier = ReadonlyMap<string, FieldType>;

/** The most nodes one condition may have, and the most values a `oneOf` may list. */
export const MAX_CONDITION_NODES = 20;
export const MAX_CONDITION_VALUES = 100;

const invalid = (message: string) => new InvalidInput(message);

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** Whether a value is of a field's type, as the worker checks it (C13). */
function ofType(type: FieldType, value: unknown): value is Compared {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'file':
      return false;
  }
}

const FORMS =
  '{"field": …, "equals": …}, {"field": …, "oneOf": […]}, {"field": …, "filled": true|false}, {"all": […]}, {"any": […]} or {"not": {…}}';

/**
 * C45: a field's `when`, checked: each field it names comes before `owner` (`earlier`), each value
 * is of that field's type (a file field takes `filled` only), at most MAX_CONDITION_NODES nodes.
 * Bad input is one InvalidInput that names the field and what is wrong.
 */
export function parseCondition(input: unknown, owner: string, earlier: Earlier): Condition {
  let nodes = 0;
  const where = `in the condition of field '${owner}'`;
  const node = (x: unknown): Condition => {
    nodes += 1;
    if (nodes > MAX_CONDITION_NODES) throw invalid(`At most ${MAX_CONDITION_NODES} parts ${where}`);
    if (!isObject(x)) throw invalid(`A condition is ${FORMS} ${where}`);
    const keys = Object.keys(x);
    const one = (key: 'all' | 'any' | 'not') => {
      if (keys.length !== 1) throw invalid(`'${key}' stands alone ${where}`);
      return x[key];
    };
    if ('all' in x || 'any' in x) {
      const key = 'all' in x ? 'all' : 'any';
      const list = one(key);
      if (!Array.isArray(list) || list.length === 0)
        throw invalid(`'${key}' is a list of conditions ${where}`);
      const parts = list.map(node);
      return key === 'all' ? { all: parts } : { any: parts };
    }
    if ('not' in x) return { not: node(one('not')) };
    const { field, ...test } = x;
    if (typeof field !== 'string') throw invalid(`A condition is ${FORMS} ${where}`);
    const type = earlier.get(field);
    if (type === undefined) {
      throw invalid(
        field === owner
          ? `The condition of field '${owner}' names the field itself: name a field before it`
          : `The condition of field '${owner}' names '${field}', which is not a field before it`,
      );
    }
    const [kind, ...extra] = Object.keys(test);
    if (kind === undefined || extra.length > 0) throw invalid(`A condition is ${FORMS} ${where}`);
    const value = test[kind];
    const typed = `${type === 'integer' ? 'an' : 'a'} ${type} (field '${field}')`;
    if (kind === 'filled') {
      if (typeof value !== 'boolean') throw invalid(`'filled' is true or false ${where}`);
      return { field, filled: value };
    }
    if (type === 'file') throw invalid(`A file field ('${field}') takes 'filled' only ${where}`);
    if (kind === 'equals') {
      if (!ofType(type, value)) throw invalid(`'equals' is ${typed} ${where}`);
      return { field, equals: value };
    }
    if (kind === 'oneOf') {
      if (!Array.isArray(value) || value.length === 0 || value.length > MAX_CONDITION_VALUES)
        throw invalid(`'oneOf' is a list of 1–${MAX_CONDITION_VALUES} values ${where}`);
      for (const v of value) if (!ofType(type, v)) throw invalid(`Each of 'oneOf' is ${typed} ${where}`);
      return { field, oneOf: [...new Set(value as Compared[])] };
    }
    throw invalid(`A condition is ${FORMS} ${where}`);
  };
  return node(input);
}

/** The fields a condition names, each once, in the order it names them. */
export function namesOf(c: Condition): string[] {
  if ('all' in c) return [...new Set(c.all.flatMap(namesOf))];
  if ('any' in c) return [...new Set(c.any.flatMap(namesOf))];
  if ('not' in c) return namesOf(c.not);
  return [c.field];
}

/** A value given: present, and not an empty text (a blank control of an HTML form). */
const filled = (value: unknown) => value !== undefined && value !== null && value !== '';

/** Whether a condition holds for the values of the fields that apply (a field that does not: absent). */
export function holds(c: Condition, values: ReadonlyMap<string, unknown>): boolean {
  if ('all' in c) return c.all.every((p) => holds(p, values));
  if ('any' in c) return c.any.some((p) => holds(p, values));
  if ('not' in c) return !holds(c.not, values);
  const value = values.get(c.field);
  if ('filled' in c) return filled(value) === c.filled;
  if ('equals' in c) return value === c.equals;
  return c.oneOf.includes(value as Compared);
}

/**
 * C45: the fields that do not apply to a body: in the project's order, a field whose condition
 * does not hold for the values of the fields before it that apply. Such a field is not required,
 * and a value sent for it is not stored (nor judged).
 */
export function inactiveFields(
  order: readonly { name: string; when?: Condition | undefined }[],
  body: Readonly<Record<string, unknown>>,
): Set<string> {
  const values = new Map<string, unknown>();
  const inactive = new Set<string>();
  for (const { name, when } of order) {
    if (when !== undefined && !holds(when, values)) {
      inactive.add(name);
      continue;
    }
    if (Object.hasOwn(body, name)) values.set(name, body[name]);
  }
  return inactive;
}

/**
 * C45: every field's condition checked against the fields before it, in order: what a project's
 * fields must satisfy after any change (a field added, replaced, removed or retyped). Returns the
 * conditions parsed, by field.
 */
export function checkConditions(
  defs: readonly { name: string; type: FieldType; when?: unknown }[],
): Map<string, Condition> {
  const earlier = new Map<string, FieldType>();
  const parsed = new Map<string, Condition>();
  for (const def of defs) {
    if (def.when !== undefined && def.when !== null) {
      parsed.set(def.name, parseCondition(def.when, def.name, earlier));
    }
    earlier.set(def.name, def.type);
  }
  return parsed;
}

/**
 * C45: the tool's `--when`, each one a part of an `all`: `name=value` (equals), `name=a|b` (one
 * of), `name!=value` (not equals), `name` (filled) and `!name` (not filled); a value is read as the
 * named field's type (`true`, `12`). `{…}` is the JSON form itself.
 */
export function whenOption(texts: readonly string[], owner: string, earlier: Earlier): Condition {
  const parts = texts.map((text): unknown => {
    const t = text.trim();
    if (t.startsWith('{')) {
      try {
        return JSON.parse(t) as unknown;
      } catch {
        throw invalid(`The condition of field '${owner}' is not JSON: ${t}`);
      }
    }
    const eq = /^([^=!]+?)(!?)=(.*)$/s.exec(t);
    if (eq === null) {
      const negated = t.startsWith('!');
      return { field: negated ? t.slice(1) : t, filled: !negated };
    }
    const [, name = '', not, given = ''] = eq;
    const type = earlier.get(name);
    const read = (v: string): unknown =>
      type === 'boolean' && (v === 'true' || v === 'false')
        ? v === 'true'
        : (type === 'integer' || type === 'number') && v.trim() !== '' && Number.isFinite(Number(v))
          ? Number(v)
          : v;
    const values = given.split('|');
    const test =
      values.length > 1 ? { field: name, oneOf: values.map(read) } : { field: name, equals: read(given) };
    return not === '!' ? { not: test } : test;
  });
  return parseCondition(parts.length === 1 ? parts[0] : { all: parts }, owner, earlier);
}
