// Unit tests of field validation (C12, C13), against a plain model of the rules.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_TYPES, type FieldType } from '../schema/tables.ts';
import { compileFields, type FieldDef, validateSubmission } from '../src/fields/validation.ts';

/** The C13 table, written as plainly as possible: the oracle for the properties below. */
function accepts(type: FieldType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 2 ** 53 - 1;
    // C30: no JSON value is a file.
    case 'file':
      return false;
  }
}

/** C12 and C43: each problem's text and code, in the order of the texts. */
function expectedProblems(defs: FieldDef[], policy: 'reject' | 'discard', body: Record<string, unknown>) {
  const problems: { field: string; code: string; params?: unknown; message: string }[] = [];
  for (const [name, value] of Object.entries(body)) {
    const def = defs.find((d) => d.name === name);
    if (!def) {
      if (policy === 'reject')
        problems.push({
          field: name,
          code: 'unknown_field',
          message: `Field '${name}' is not defined for this project`,
        });
    } else if (!accepts(def.type, value)) {
      const message = `Field '${name}' is not of type ${def.type}`;
      problems.push({ field: name, code: 'type', params: { type: def.type }, message });
    }
  }
  for (const def of defs)
    if (def.required && !Object.hasOwn(body, def.name))
      problems.push({ field: def.name, code: 'required', message: `Field '${def.name}' is required` });
  return problems;
}

const fieldName = fc.oneof(
  fc.constantFrom('name', 'email', 'phone', '__proto__', 'constructor', 'toString', 'a b', '😀', ''),
  fc.string({ maxLength: 6 }),
);
const fieldDefs = fc.uniqueArray(
  fc.record({ name: fieldName, type: fc.constantFrom(...FIELD_TYPES), required: fc.boolean() }),
  { selector: (d) => d.name, maxLength: 6 },
);
const jsonish = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 53, -(2 ** 53), 2 ** 53 - 1, Number.POSITIVE_INFINITY, -0, 0.5),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);

/** A parsed JSON object, as the worker sees it (JSON.parse makes `__proto__` an own key). */
function parsedBody(defs: FieldDef[]) {
  const names = fc.oneof(fieldName, ...(defs.length ? [fc.constantFrom(...defs.map((d) => d.name))] : []));
  return fc
    .uniqueArray(fc.tuple(names, jsonish), { selector: ([n]) => n, maxLength: 8 })
    .map((entries) => JSON.parse(JSON.stringify(Object.fromEntries(entries))) as Record<string, unknown>);
}

describe('C12–C13: validateSubmission', () => {
  it('C12: reports exactly the problems of the model, in its order (property)', () => {
    fc.assert(
      fc.property(
        fieldDefs.chain((defs) =>
          fc.tuple(fc.constant(defs), fc.constantFrom('reject', 'discard'), parsedBody(defs)),
        ),
        ([defs, policy, body]) => {
          const result = validateSubmission(compileFields(defs, policy), body);
          const problems = expectedProblems(defs, policy, body);
          if (problems.length > 0) {
            expect(result).toEqual({ ok: false, problems });
          } else {
            const known = Object.entries(body).filter(([n]) => defs.some((d) => d.name === n));
            expect(result.ok).toBe(true);
            if (result.ok)
              expect(JSON.stringify(result.value)).toBe(JSON.stringify(Object.fromEntries(known)));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('C13: integers are whole and within ±(2^53−1)', () => {
    const compiled = compileFields([{ name: 'n', type: 'integer', required: false }], 'reject');
    for (const ok of [0, 1, -1, 2 ** 53 - 1, -(2 ** 53 - 1), 3.0])
      expect(validateSubmission(compiled, { n: ok }).ok).toBe(true);
    for (const bad of [0.5, 2 ** 53, -(2 ** 53), Number.POSITIVE_INFINITY, Number.NaN, '1', null, true]) {
      expect(validateSubmission(compiled, { n: bad })).toEqual({
        ok: false,
        problems: [
          {
            field: 'n',
            code: 'type',
            params: { type: 'integer' },
            message: "Field 'n' is not of type integer",
          },
        ],
      });
    }
  });

  it('C13: null matches no type', () => {
    for (const type of FIELD_TYPES) {
      const compiled = compileFields([{ name: 'f', type, required: false }], 'reject');
      expect(validateSubmission(compiled, { f: null })).toEqual({
        ok: false,
        problems: [
          { field: 'f', code: 'type', params: { type }, message: `Field 'f' is not of type ${type}` },
        ],
      });
    }
  });

  it('C13: a __proto__ key in the body never reaches a prototype', () => {
    const compiled = compileFields([{ name: '__proto__', type: 'string', required: false }], 'discard');
    const body = JSON.parse('{"__proto__": "x", "constructor": {"prototype": {"bad": 1}}}');
    const result = validateSubmission(compiled, body);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
      expect(JSON.stringify(result.value)).toBe('{"__proto__":"x"}');
    }
  });
});
