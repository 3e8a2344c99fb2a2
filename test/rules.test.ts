// C28: rules beyond a field's type. A matrix of every rule at, just inside and just outside its
// bounds; the exact texts; a property test against a small reference model; patterns that would
// take exponential time on a backtracking engine; and every rule end to end through the worker.
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import type { FieldType } from '../schema/tables.ts';
import { type FieldRules, type Format, MAX_PATTERN_INPUT } from '../src/fields/catalogue.ts';
import { compileFields, type FieldDef, validateSubmission } from '../src/fields/validation.ts';
import { expectEnvelope, seedProject, storedData, submit } from './helpers.ts';

function check(type: FieldType, rules: FieldRules, value: unknown): string[] {
  const compiled = compileFields([{ name: 'f', type, required: false, rules }], 'reject', RE2JS);
  const result = validateSubmission(compiled, { f: value });
  return result.ok ? [] : result.problems.map((p) => p.message);
}

describe('C28: each rule at, inside and outside its bounds', () => {
  it('C28: minLength and maxLength count code points: an astral character is one', () => {
    const rules = { minLength: 2, maxLength: 3 };
    expect(check('string', rules, 'ab')).toEqual([]);
    expect(check('string', rules, 'abc')).toEqual([]);
    expect(check('string', rules, 'a')).toEqual(["Field 'f' must be at least 2 characters"]);
    expect(check('string', rules, 'abcd')).toEqual(["Field 'f' must be at most 3 characters"]);
    // Three emoji: six UTF-16 units, three characters.
    expect(check('string', rules, '😀😀😀')).toEqual([]);
    expect(check('string', rules, '😀😀😀😀')).toEqual(["Field 'f' must be at most 3 characters"]);
    expect(check('string', { minLength: 1 }, '')).toEqual(["Field 'f' must be at least 1 character"]);
    expect(check('string', { maxLength: 1 }, '😀')).toEqual([]);
    expect(check('string', { maxLength: 0 }, '')).toEqual([]);
  });

  it('C28: min and max, inclusive, with -0 and exponents', () => {
    const rules = { min: 0, max: 150 };
    for (const ok of [0, -0, 150, 1e2, 0.5]) expect(check('number', rules, ok)).toEqual([]);
    expect(check('number', rules, -0.001)).toEqual(["Field 'f' must be at least 0"]);
    expect(check('number', rules, 150.0001)).toEqual(["Field 'f' must be at most 150"]);
    expect(check('integer', { min: 18 }, 17)).toEqual(["Field 'f' must be at least 18"]);
    expect(check('integer', { min: 18 }, 18)).toEqual([]);
    expect(check('number', { min: 0.01 }, 0.01)).toEqual([]);
    expect(check('number', { min: 0.01 }, 0.0099)).toEqual(["Field 'f' must be at least 0.01"]);
    expect(check('integer', { max: -5 }, -4)).toEqual(["Field 'f' must be at most -5"]);
  });

  it('C28: oneOf is an exact match', () => {
    const rules = { oneOf: ['sales', 'support', 'other'] };
    expect(check('string', rules, 'support')).toEqual([]);
    for (const bad of ['Sales', 'sales ', '', 'sales|support']) {
      expect(check('string', rules, bad)).toEqual(["Field 'f' must be one of: sales, support, other"]);
    }
  });

  it('C28: pattern finds a match anywhere unless anchored', () => {
    expect(check('string', { pattern: '^[A-Z]{3}-[0-9]{4}$' }, 'ABC-1234')).toEqual([]);
    expect(check('string', { pattern: '^[A-Z]{3}-[0-9]{4}$' }, 'ABC-12345')).toEqual([
      "Field 'f' does not match the required pattern",
    ]);
    expect(check('string', { pattern: '[0-9]' }, 'a1b')).toEqual([]);
    expect(check('string', { pattern: '\\d{2}:\\d{2}' }, 'at 09:30')).toEqual([]);
  });

  const formats: Record<Format, { ok: string[]; bad: string[]; text: string }> = {
    email: {
      ok: ['ada@example.com', 'a.b+c@sub.example.org', 'o_neil-1@example.ie'],
      bad: ['nope', 'ada@', '@example.com', 'ada@example', 'ada @example.com', 'a@b@example.com'],
      text: 'an email address',
    },
    url: {
      ok: ['https://example.com', 'http://localhost:8787/x?y=1#z', 'https://例え.jp/'],
      bad: ['example.com', 'ftp://example.com', 'javascript:alert(1)', 'mailto:ada@example.com', 'https://'],
      text: 'a URL (http or https)',
    },
    date: {
      ok: ['2026-11-23', '2024-02-29', '0001-01-01'],
      bad: ['2026-02-29', '2026-13-01', '2026-11-31', '26-11-23', '2026-11-23T00:00:00Z', '2026/11/23'],
      text: 'a date (YYYY-MM-DD)',
    },
    'date-time': {
      ok: [
        '2026-11-23T09:00:00Z',
        '2026-11-23T09:00:00.123+01:00',
        '2026-11-23t09:00:00z',
        '2016-12-31T23:59:60Z',
      ],
      bad: [
        '2026-11-23',
        '2026-11-23T09:00Z',
        '2026-11-23 09:00:00Z',
        '2026-11-23T24:00:00Z',
        '2026-02-30T00:00:00Z',
        '2026-11-23T09:00:00',
      ],
      text: 'a date and time (RFC 3339, e.g. 2026-11-23T09:00:00Z)',
    },
    uuid: {
      ok: ['019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e', 'F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6'],
      bad: ['019ab0c27e417a3c9d2e5f1a2b3c4d5e', '019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5', 'not-a-uuid'],
      text: 'a UUID',
    },
  };
  for (const [format, { ok, bad, text }] of Object.entries(formats) as [Format, (typeof formats)[Format]][]) {
    it(`C28: format=${format}`, () => {
      for (const value of ok) expect(check('string', { format }, value), value).toEqual([]);
      for (const value of bad)
        expect(check('string', { format }, value), value).toEqual([`Field 'f' must be ${text}`]);
    });
  }
});

describe('C28: messages', () => {
  it('C28: a value of the wrong type gets the type message alone, whatever its rules', () => {
    expect(check('string', { minLength: 3, format: 'email', pattern: 'x' }, 42)).toEqual([
      "Field 'f' is not of type string",
    ]);
    expect(check('integer', { min: 18 }, 1.5)).toEqual(["Field 'f' is not of type integer"]);
    expect(check('number', { max: 10 }, Number.POSITIVE_INFINITY)).toEqual([
      "Field 'f' is not of type number",
    ]);
  });

  it('C28: a value of the right type gets one message per broken rule, in a fixed order', () => {
    const rules: FieldRules = {
      pattern: '^[a-z]+$',
      oneOf: ['alpha', 'beta'],
      maxLength: 3,
      minLength: 2,
      format: 'email',
    };
    expect(check('string', rules, 'ABCD')).toEqual([
      "Field 'f' must be an email address",
      "Field 'f' must be at most 3 characters",
      "Field 'f' must be one of: alpha, beta",
      "Field 'f' does not match the required pattern",
    ]);
  });

  it("C12 + C28: rule messages take their place in body order among other fields' problems", () => {
    const compiled = compileFields(
      [
        { name: 'email', type: 'string', required: true, rules: { format: 'email' } },
        { name: 'age', type: 'integer', required: false, rules: { min: 18 } },
        { name: 'name', type: 'string', required: true },
      ],
      'reject',
    );
    expect(validateSubmission(compiled, { age: 12, extra: 1, email: 'nope' })).toEqual({
      ok: false,
      problems: [
        { field: 'age', code: 'min', params: { min: 18 }, message: "Field 'age' must be at least 18" },
        { field: 'extra', code: 'unknown_field', message: "Field 'extra' is not defined for this project" },
        {
          field: 'email',
          code: 'format',
          params: { format: 'email' },
          message: "Field 'email' must be an email address",
        },
        { field: 'name', code: 'required', message: "Field 'name' is required" },
      ],
    });
  });
});

/** A reference model of the rules, written apart from the service's checks. */
function model(type: FieldType, rules: FieldRules, value: unknown): string[] {
  const typeOk =
    type === 'string'
      ? typeof value === 'string'
      : type === 'boolean'
        ? typeof value === 'boolean'
        : typeof value === 'number' &&
          Number.isFinite(value) &&
          (type === 'number' || Number.isSafeInteger(value));
  if (!typeOk) return [`Field 'f' is not of type ${type}`];
  const out: string[] = [];
  if (typeof value === 'string') {
    const length = Array.from(value).length;
    if (rules.minLength !== undefined && length < rules.minLength)
      out.push(`Field 'f' must be at least ${rules.minLength} character${rules.minLength === 1 ? '' : 's'}`);
    if (rules.maxLength !== undefined && length > rules.maxLength)
      out.push(`Field 'f' must be at most ${rules.maxLength} character${rules.maxLength === 1 ? '' : 's'}`);
    if (rules.oneOf !== undefined && !rules.oneOf.includes(value))
      out.push(`Field 'f' must be one of: ${rules.oneOf.join(', ')}`);
    if (rules.pattern !== undefined && !new RegExp(rules.pattern, 'u').test(value))
      out.push("Field 'f' does not match the required pattern");
  }
  if (typeof value === 'number') {
    if (rules.min !== undefined && value < rules.min) out.push(`Field 'f' must be at least ${rules.min}`);
    if (rules.max !== undefined && value > rules.max) out.push(`Field 'f' must be at most ${rules.max}`);
  }
  return out;
}

describe('C28 (property): the service agrees with a reference model', () => {
  const stringRules = fc.record(
    {
      minLength: fc.integer({ min: 0, max: 6 }),
      maxLength: fc.integer({ min: 0, max: 6 }),
      oneOf: fc.uniqueArray(fc.string({ unit: fc.constantFrom('a', 'b', '😀'), maxLength: 3 }), {
        minLength: 1,
        maxLength: 4,
      }),
      // Simple patterns whose meaning is the same to RE2 and to JavaScript.
      pattern: fc.constantFrom('^a', 'b$', '^[ab]+$', 'a{2}', '^$', '😀'),
    },
    { requiredKeys: [] },
  );
  const numberRules = fc.record(
    { min: fc.integer({ min: -5, max: 5 }), max: fc.integer({ min: -5, max: 5 }) },
    { requiredKeys: [] },
  );
  const values = fc.oneof(
    fc.string({ unit: fc.constantFrom('a', 'b', '😀', 'é'), maxLength: 7 }),
    fc.integer({ min: -8, max: 8 }),
    fc.double({ min: -8, max: 8, noNaN: true }),
    fc.boolean(),
    fc.constant(null),
  );

  it('C28: string fields', () => {
    fc.assert(
      fc.property(stringRules, values, (rules, value) => {
        expect(check('string', rules, value)).toEqual(model('string', rules, value));
      }),
      { numRuns: 2000 },
    );
  });

  it('C28: integer and number fields', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<FieldType>('integer', 'number'),
        numberRules,
        values,
        (type, rules, value) => {
          expect(check(type, rules, value)).toEqual(model(type, rules, value));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('C28: patterns run in bounded time', () => {
  // Each of these takes exponential time on a backtracking engine against the input below: tens of
  // seconds at 30 characters, the age of the universe at 10,000. On RE2 each is a linear scan.
  const catastrophic = ['(a+)+b', '(a|a)*b', '(a|aa)+b$', '^(a*)*b$', '(.*a){12}b', '^(\\w+\\s?)*$'];
  const input = `${'a'.repeat(MAX_PATTERN_INPUT - 1)}!`;

  for (const pattern of catastrophic) {
    it(`C28: ${pattern} against ${MAX_PATTERN_INPUT} characters answers (no match) without hanging`, () => {
      expect(check('string', { pattern }, input)).toEqual(["Field 'f' does not match the required pattern"]);
    });
  }

  it('C28: a value longer than the bound does not match a pattern', () => {
    expect(check('string', { pattern: '^a+$' }, 'a'.repeat(MAX_PATTERN_INPUT))).toEqual([]);
    expect(check('string', { pattern: '^a+$' }, 'a'.repeat(MAX_PATTERN_INPUT + 1))).toEqual([
      "Field 'f' does not match the required pattern",
    ]);
  });
});

describe('C28: end to end through the worker', () => {
  const fields: FieldDef[] = [
    { name: 'email', type: 'string', required: true, rules: { format: 'email' } },
    { name: 'name', type: 'string', required: false, rules: { minLength: 1, maxLength: 100 } },
    { name: 'age', type: 'integer', required: false, rules: { min: 0, max: 150 } },
    { name: 'price', type: 'number', required: false, rules: { min: 0.01 } },
    { name: 'topic', type: 'string', required: false, rules: { oneOf: ['sales', 'support', 'other'] } },
    { name: 'code', type: 'string', required: false, rules: { pattern: '^[A-Z]{3}-[0-9]{4}$' } },
    { name: 'site', type: 'string', required: false, rules: { format: 'url' } },
    { name: 'day', type: 'string', required: false, rules: { format: 'date' } },
    { name: 'at', type: 'string', required: false, rules: { format: 'date-time' } },
    { name: 'ref', type: 'string', required: false, rules: { format: 'uuid' } },
  ];
  const valid = {
    email: 'ada@example.com',
    name: 'Ada',
    age: 36,
    price: 9.99,
    topic: 'support',
    code: 'ABC-1234',
    site: 'https://example.com',
    day: '1815-12-10',
    at: '2026-11-23T09:00:00Z',
    ref: '019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e',
  };

  it('C28: a submission that keeps every rule is stored as sent', async () => {
    const p = await seedProject({ fields });
    await expectEnvelope(await submit({ key: p.apiKey, json: valid }), 201);
    expect(await storedData(p.projectId)).toEqual([valid]);
  });

  it.each([
    ['email', 'nope', "Field 'email' must be an email address"],
    ['name', '', "Field 'name' must be at least 1 character"],
    ['name', 'x'.repeat(101), "Field 'name' must be at most 100 characters"],
    ['age', -1, "Field 'age' must be at least 0"],
    ['age', 151, "Field 'age' must be at most 150"],
    ['price', 0, "Field 'price' must be at least 0.01"],
    ['topic', 'billing', "Field 'topic' must be one of: sales, support, other"],
    ['code', 'abc-1234', "Field 'code' does not match the required pattern"],
    ['site', 'ftp://example.com', "Field 'site' must be a URL (http or https)"],
    ['day', '2026-02-30', "Field 'day' must be a date (YYYY-MM-DD)"],
    ['at', '2026-11-23', "Field 'at' must be a date and time (RFC 3339, e.g. 2026-11-23T09:00:00Z)"],
    ['ref', 'not-a-uuid', "Field 'ref' must be a UUID"],
  ])('C28: %s = %j is 400: %s; nothing is stored', async (field, value, message) => {
    const p = await seedProject({ fields });
    const res = await submit({ key: p.apiKey, json: { ...valid, [field]: value } });
    await expectEnvelope(res, 400, { message: 'Validation failed', errors: [message] });
    expect(await storedData(p.projectId)).toEqual([]);
  });

  it('C28: the issue\'s example: {"email":"nope","age":12} gets both messages', async () => {
    const p = await seedProject({
      fields: [
        { name: 'email', type: 'string', required: true, rules: { format: 'email' } },
        { name: 'age', type: 'integer', required: false, rules: { min: 18 } },
      ],
    });
    await expectEnvelope(await submit({ key: p.apiKey, json: { email: 'nope', age: 12 } }), 400, {
      message: 'Validation failed',
      errors: ["Field 'email' must be an email address", "Field 'age' must be at least 18"],
    });
  });
});
