// C46: a step's own check (widget/steps.ts `stepProblems`), without a DOM: the worker's rules and
// C45's conditions over every value the widget would send, only the step's fields' problems kept;
// a file judged as chosen or not; a pattern left to the worker. Held to the worker's verdict on
// random projects, values and steps. The page itself is tested in Chromium (test/e2e/steps.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inactiveFields } from '../../src/fields/conditions.ts';
import { compileFields, type FieldDef, validateSubmission } from '../../src/fields/validation.ts';
import { stepProblems } from '../../widget/steps.ts';
import { conditionOver } from './condition-arbitraries.ts';

const FIELDS: FieldDef[] = [
  { name: 'name', type: 'string', required: true, rules: { pattern: '^[a-z]+$', maxLength: 5 } },
  { name: 'business', type: 'boolean', required: false },
  { name: 'company', type: 'string', required: true, when: { field: 'business', equals: true } },
  { name: 'cv', type: 'file', required: true },
  { name: 'proof', type: 'file', required: true, when: { field: 'business', equals: true } },
];
const none: ReadonlySet<string> = new Set();
const fieldsOf = (problems: { field: string; code: string }[]) => problems.map((p) => [p.field, p.code]);

describe('C46: a step’s own check', () => {
  it('the step’s required fields, and only the step’s', () => {
    expect(fieldsOf(stepProblems(FIELDS, { business: false }, new Set(['name', 'business']), none))).toEqual([
      ['name', 'required'],
    ]);
    expect(fieldsOf(stepProblems(FIELDS, { business: false }, new Set(['company']), none))).toEqual([]);
  });

  it('a condition on a field of an earlier step decides whether a later one is asked for', () => {
    const later = new Set(['company']);
    expect(fieldsOf(stepProblems(FIELDS, { name: 'ada', business: true }, later, none))).toEqual([
      ['company', 'required'],
    ]);
    expect(stepProblems(FIELDS, { name: 'ada', business: false, company: 'x' }, later, none)).toEqual([]);
  });

  it('rules beyond required, as the worker words them; a pattern is the worker’s', () => {
    const step = new Set(['name']);
    expect(stepProblems(FIELDS, { name: 'ADA LOVELACE' }, step, none)).toEqual([
      {
        field: 'name',
        code: 'max_length',
        params: { max: 5 },
        message: "Field 'name' must be at most 5 characters",
      },
    ]);
    // Not lower case, so the pattern would refuse it: the step lets it by, the worker decides.
    expect(stepProblems(FIELDS, { name: 'ADA' }, step, none)).toEqual([]);
  });

  it('a required file is asked for until one is chosen; one whose condition does not hold is not', () => {
    const step = new Set(['cv', 'proof']);
    expect(fieldsOf(stepProblems(FIELDS, { business: true }, step, none))).toEqual([
      ['cv', 'required'],
      ['proof', 'required'],
    ]);
    expect(fieldsOf(stepProblems(FIELDS, { business: false }, step, none))).toEqual([['cv', 'required']]);
    expect(stepProblems(FIELDS, { business: true }, step, new Set(['cv', 'proof']))).toEqual([]);
  });

  it('(property) on random projects without files or patterns: exactly the worker’s problems of the step’s fields', () => {
    const TYPES = ['string', 'integer', 'number', 'boolean'] as const;
    const project = fc
      .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { minLength: 1, maxLength: 5 })
      .chain((names) =>
        fc.tuple(
          ...names.map((name) =>
            fc.record({ type: fc.constantFrom(...TYPES), required: fc.boolean(), short: fc.boolean() }).map(
              ({ type, required, short }): FieldDef => ({
                name,
                type,
                required,
                ...(type === 'string' && short ? { rules: { maxLength: 2 } } : {}),
              }),
            ),
          ),
        ),
      )
      .chain((defs) =>
        fc.tuple(
          ...defs.map((def, i) =>
            i === 0
              ? fc.constant(def)
              : fc.oneof(
                  fc.constant(def),
                  conditionOver(defs.slice(0, i), {
                    texts: ['x', 'ada'],
                    numbers: fc.integer({ min: -2, max: 2 }),
                  }).map((when): FieldDef => ({ ...def, when })),
                ),
          ),
        ),
      );
    const value = fc.oneof(
      fc.constant(undefined),
      fc.boolean(),
      fc.integer({ min: -2, max: 2 }),
      fc.constantFrom('x', 'ada', ''),
    );
    fc.assert(
      fc.property(
        project.chain((defs) =>
          fc.tuple(
            fc.constant(defs),
            fc.tuple(...defs.map(() => value)),
            fc.subarray(defs.map((d) => d.name)),
          ),
        ),
        ([defs, values, step]) => {
          const body: Record<string, unknown> = {};
          defs.forEach((d, i) => {
            if (values[i] !== undefined) body[d.name] = values[i];
          });
          const worker = validateSubmission(compileFields(defs, 'discard', undefined, inactiveFields), body);
          const expected = worker.ok ? [] : worker.problems.filter((p) => step.includes(p.field));
          expect(stepProblems(defs, body, new Set(step), none)).toEqual(expected);
        },
      ),
    );
  });
});
