// C45: a field's `when`, as the API and the tool give it: checked against the fields before it
// (each name, each value's type, each form), and judged on a body in the project's order (a field
// that does not apply is absent to the conditions after it).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldType } from '../../src/fields/catalogue.ts';
import {
  type Condition,
  checkConditions,
  holds,
  inactiveFields,
  namesOf,
  parseCondition,
  whenOption,
} from '../../src/fields/conditions.ts';
import { compileFields, validateSubmission } from '../../src/fields/validation.ts';

const EARLIER = new Map<string, FieldType>([
  ['business', 'boolean'],
  ['topic', 'string'],
  ['seats', 'integer'],
  ['cv', 'file'],
]);
const parse = (input: unknown) => parseCondition(input, 'company', EARLIER);

describe('C45: a condition as given', () => {
  it('takes each form, its values of the named field’s type', () => {
    expect(parse({ field: 'business', equals: true })).toEqual({ field: 'business', equals: true });
    expect(parse({ field: 'topic', oneOf: ['a', 'b', 'a'] })).toEqual({ field: 'topic', oneOf: ['a', 'b'] });
    expect(parse({ field: 'cv', filled: true })).toEqual({ field: 'cv', filled: true });
    expect(
      parse({ all: [{ field: 'seats', equals: 2 }, { not: { any: [{ field: 'topic', filled: false }] } }] }),
    ).toEqual({
      all: [{ field: 'seats', equals: 2 }, { not: { any: [{ field: 'topic', filled: false }] } }],
    });
  });

  it.each([
    [
      { field: 'later', equals: 1 },
      "The condition of field 'company' names 'later', which is not a field before it",
    ],
    [
      { field: 'company', filled: true },
      "The condition of field 'company' names the field itself: name a field before it",
    ],
    [
      { field: 'business', equals: 'yes' },
      "'equals' is a boolean (field 'business') in the condition of field 'company'",
    ],
    [
      { field: 'seats', equals: 1.5 },
      "'equals' is an integer (field 'seats') in the condition of field 'company'",
    ],
    [{ field: 'topic', oneOf: [] }, "'oneOf' is a list of 1–100 values in the condition of field 'company'"],
    [
      { field: 'topic', oneOf: ['a', 1] },
      "Each of 'oneOf' is a string (field 'topic') in the condition of field 'company'",
    ],
    [
      { field: 'cv', equals: 'x' },
      "A file field ('cv') takes 'filled' only in the condition of field 'company'",
    ],
    [{ field: 'topic', filled: 'yes' }, "'filled' is true or false in the condition of field 'company'"],
    [{ field: 'topic', equals: 'a', oneOf: ['a'] }, 'A condition is'],
    [{ all: [] }, "'all' is a list of conditions in the condition of field 'company'"],
    [
      { all: [{ field: 'topic', filled: true }], any: [] },
      "'all' stands alone in the condition of field 'company'",
    ],
    ['business', 'A condition is'],
    [
      {
        not: {
          not: {
            not: {
              not: {
                not: {
                  not: {
                    not: {
                      not: {
                        not: {
                          not: {
                            not: {
                              not: {
                                not: {
                                  not: {
                                    not: {
                                      not: {
                                        not: { not: { not: { not: { field: 'topic', filled: true } } } },
                                      },
                                    },
                                  },
                                },
                              },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      'At most 20 parts',
    ],
  ])('refuses %j, naming the field and what is wrong', (input, sentence) => {
    expect(() => parse(input)).toThrow(sentence);
  });

  it('is checked against the fields before each, in order: a later field, a cycle, cannot be named', () => {
    const fields = [
      { name: 'business', type: 'boolean' as const },
      { name: 'company', type: 'string' as const, when: { field: 'business', equals: true } },
      { name: 'vat', type: 'string' as const, when: { field: 'company', filled: true } },
    ];
    expect([...checkConditions(fields).keys()]).toEqual(['company', 'vat']);
    const cycle = [
      { name: 'a', type: 'string' as const, when: { field: 'b', filled: true } },
      { name: 'b', type: 'string' as const, when: { field: 'a', filled: true } },
    ];
    expect(() => checkConditions(cycle)).toThrow(
      "The condition of field 'a' names 'b', which is not a field before it",
    );
  });

  it('names the fields it reads', () => {
    expect(
      namesOf({
        all: [
          { field: 'a', filled: true },
          {
            any: [
              { field: 'b', equals: 1 },
              { field: 'a', equals: 2 },
            ],
          },
        ],
      }),
    ).toEqual(['a', 'b']);
  });
});

describe('C45: the tool’s --when', () => {
  it('reads name=value as the named field’s type, a|b as oneOf, != as not, a bare name as filled', () => {
    expect(whenOption(['business=true'], 'company', EARLIER)).toEqual({ field: 'business', equals: true });
    expect(whenOption(['seats=2'], 'company', EARLIER)).toEqual({ field: 'seats', equals: 2 });
    expect(whenOption(['topic=sales|support'], 'company', EARLIER)).toEqual({
      field: 'topic',
      oneOf: ['sales', 'support'],
    });
    expect(whenOption(['topic!=other'], 'company', EARLIER)).toEqual({
      not: { field: 'topic', equals: 'other' },
    });
    expect(whenOption(['cv', '!topic'], 'company', EARLIER)).toEqual({
      all: [
        { field: 'cv', filled: true },
        { field: 'topic', filled: false },
      ],
    });
    expect(whenOption(['{"field":"business","equals":false}'], 'company', EARLIER)).toEqual({
      field: 'business',
      equals: false,
    });
    expect(() => whenOption(['business=yes'], 'company', EARLIER)).toThrow("'equals' is a boolean");
    expect(() => whenOption(['{nope'], 'company', EARLIER)).toThrow(
      "The condition of field 'company' is not JSON",
    );
  });
});

describe('C45: which fields apply to a body', () => {
  const order = [
    { name: 'business', when: undefined },
    { name: 'company', when: { field: 'business', equals: true } as Condition },
    { name: 'vat', when: { field: 'company', filled: true } as Condition },
  ];

  it('a field whose condition fails is absent to the conditions after it', () => {
    expect(inactiveFields(order, { business: true, company: 'ACME', vat: 'x' })).toEqual(new Set());
    expect(inactiveFields(order, { business: false, company: 'ACME', vat: 'x' })).toEqual(
      new Set(['company', 'vat']),
    );
    expect(inactiveFields(order, { business: true, company: '' })).toEqual(new Set(['vat']));
  });

  it('the worker neither requires nor stores a field that does not apply, and judges one that does', () => {
    const compiled = compileFields(
      [
        { name: 'business', type: 'boolean', required: true },
        {
          name: 'company',
          type: 'string',
          required: true,
          rules: { minLength: 2 },
          when: { field: 'business', equals: true },
        },
      ],
      'reject',
      undefined,
      inactiveFields,
    );
    expect(validateSubmission(compiled, { business: false, company: 'x' })).toEqual({
      ok: true,
      value: { business: false },
    });
    expect(validateSubmission(compiled, { business: true })).toMatchObject({
      ok: false,
      problems: [{ field: 'company', code: 'required' }],
    });
    expect(validateSubmission(compiled, { business: true, company: 'x' })).toMatchObject({
      ok: false,
      problems: [{ field: 'company', code: 'min_length' }],
    });
    expect(validateSubmission(compiled, { business: true, company: 'ACME' })).toEqual({
      ok: true,
      value: { business: true, company: 'ACME' },
    });
  });

  it('(property) not is the opposite, all is every, any is some, whatever the values', () => {
    const value = fc.oneof(fc.constant(undefined), fc.constant(''), fc.boolean(), fc.integer(), fc.string());
    const leaf = fc.oneof(
      fc.record({
        field: fc.constantFrom('a', 'b'),
        equals: fc.oneof(fc.boolean(), fc.integer(), fc.string()),
      }),
      fc.record({ field: fc.constantFrom('a', 'b'), filled: fc.boolean() }),
      fc.record({
        field: fc.constantFrom('a', 'b'),
        oneOf: fc.array(fc.oneof(fc.boolean(), fc.integer(), fc.string()), { minLength: 1, maxLength: 3 }),
      }),
    ) as fc.Arbitrary<Condition>;
    fc.assert(
      fc.property(leaf, leaf, value, value, (p, q, a, b) => {
        const values = new Map<string, unknown>([
          ['a', a],
          ['b', b],
        ]);
        expect(holds({ not: p }, values)).toBe(!holds(p, values));
        expect(holds({ all: [p, q] }, values)).toBe(holds(p, values) && holds(q, values));
        expect(holds({ any: [p, q] }, values)).toBe(holds(p, values) || holds(q, values));
      }),
    );
  });
});
