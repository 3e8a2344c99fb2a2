// C12, C13: the fields of a submission against the project's, end to end through the worker: every
// problem in order, required fields, the unknown-field policies, prototype keys as plain names, and
// every type against every kind of JSON value.
import { beforeAll, describe, expect, it } from 'vitest';
import { CREATED, expectEnvelope, type SPEC_FIELDS, seedProject, storedRows, submit } from './helpers.ts';

let project: { projectId: string; apiKey: string };
beforeAll(async () => {
  project = await seedProject();
});

describe('C12–C13: field validation', () => {
  const required: typeof SPEC_FIELDS = [
    { name: 'name', type: 'string', required: true },
    { name: 'email', type: 'string', required: true },
    { name: 'phone', type: 'integer', required: false },
    { name: 'message', type: 'string', required: true },
  ];

  it('C12: every problem in body order, then missing required fields in configured order', async () => {
    const p = await seedProject({ fields: required });
    const body = '{"zeta": 1, "phone": 1.5, "email": false, "alpha": true}';
    await expectEnvelope(await submit({ key: p.apiKey, body }), 400, {
      message: 'Validation failed',
      errors: [
        "Field 'zeta' is not defined for this project",
        "Field 'phone' is not of type integer",
        "Field 'email' is not of type string",
        "Field 'alpha' is not defined for this project",
        "Field 'name' is required",
        "Field 'message' is required",
      ],
    });
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C13: configured fields are optional unless marked required', async () => {
    const p = await seedProject({ fields: required });
    await expectEnvelope(
      await submit({ key: p.apiKey, json: { message: 'hi', email: 'e', name: 'n' } }),
      201,
      CREATED,
    );
    await expectEnvelope(await submit({ key: project.apiKey, json: { enquiry: false } }), 201, CREATED);
  });

  it('C13: a present but wrongly typed required field is a type error, not "required"', async () => {
    const p = await seedProject({ fields: required });
    await expectEnvelope(
      await submit({ key: p.apiKey, json: { name: null, email: 'e', message: 'm' } }),
      400,
      {
        message: 'Validation failed',
        errors: ["Field 'name' is not of type string"],
      },
    );
  });

  it('C13: the reject policy (default) refuses unknown fields and stores nothing', async () => {
    const p = await seedProject();
    await expectEnvelope(await submit({ key: p.apiKey, json: { name: 'x', website: 'spam' } }), 400, {
      message: 'Validation failed',
      errors: ["Field 'website' is not defined for this project"],
    });
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C13: the discard policy drops unknown fields and stores the rest', async () => {
    const p = await seedProject({ unknownFields: 'discard' });
    const res = await submit({ key: p.apiKey, json: { website: 'x', name: 'n', phone: 7, extra: [1] } });
    await expectEnvelope(res, 201, CREATED);
    expect((await storedRows(p.projectId)).map((r) => r.data)).toEqual(['{"name":"n","phone":7}']);
  });

  it('C13: the discard policy still rejects a wrong type', async () => {
    const p = await seedProject({ unknownFields: 'discard' });
    await expectEnvelope(await submit({ key: p.apiKey, json: { website: 'x', phone: '7' } }), 400, {
      message: 'Validation failed',
      errors: ["Field 'phone' is not of type integer"],
    });
  });

  it('C13: __proto__ and constructor are ordinary unknown field names', async () => {
    const p = await seedProject();
    const body = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}';
    await expectEnvelope(await submit({ key: p.apiKey, body }), 400, {
      message: 'Validation failed',
      errors: [
        "Field '__proto__' is not defined for this project",
        "Field 'constructor' is not defined for this project",
      ],
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('C13: with discard, a __proto__ field is dropped and changes no prototype', async () => {
    const p = await seedProject({ unknownFields: 'discard' });
    const body = '{"__proto__": {"name": 5}, "name": "real"}';
    await expectEnvelope(await submit({ key: p.apiKey, body }), 201, CREATED);
    expect((await storedRows(p.projectId)).map((r) => r.data)).toEqual(['{"name":"real"}']);
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });

  it('C13: a field configured as __proto__ is stored as data', async () => {
    const p = await seedProject({ fields: [{ name: '__proto__', type: 'string', required: true }] });
    await expectEnvelope(await submit({ key: p.apiKey, body: '{"__proto__": "x"}' }), 201, CREATED);
    expect((await storedRows(p.projectId)).map((r) => r.data)).toEqual(['{"__proto__":"x"}']);
  });
});

describe('C13: type matrix (every type against every JSON kind)', () => {
  const kinds = {
    string: '"text"',
    emptyString: '""',
    integer: '42',
    negativeInteger: '-7',
    zero: '0',
    wholeWithFraction: '3.0',
    exponentWhole: '1e3',
    fraction: '3.14',
    fractionLostInADouble: '4503599627370496.5',
    tinyFractionLost: '1.0000000000000001',
    negativeZero: '-0',
    maxSafe: '9007199254740991',
    minSafe: '-9007199254740991',
    hugeInteger: '9007199254740993',
    overflow: '1e400',
    true: 'true',
    false: 'false',
    null: 'null',
    array: '[1, 2]',
    object: '{"a": 1}',
  } as const;
  type Kind = keyof typeof kinds;
  const accepts: Record<'string' | 'integer' | 'number' | 'boolean', Kind[]> = {
    string: ['string', 'emptyString'],
    // C13: judged on the source text: digits alone (so not `3.0`, `1e3`).
    integer: ['integer', 'negativeInteger', 'zero', 'negativeZero', 'maxSafe', 'minSafe'],
    number: [
      'integer',
      'negativeInteger',
      'zero',
      'wholeWithFraction',
      'exponentWhole',
      'fraction',
      'fractionLostInADouble',
      'tinyFractionLost',
      'negativeZero',
      'maxSafe',
      'minSafe',
      'hugeInteger',
    ],
    boolean: ['true', 'false'],
  };
  const cases = (Object.keys(accepts) as (keyof typeof accepts)[]).flatMap((type) =>
    (Object.keys(kinds) as Kind[]).map((kind) => [type, kind, accepts[type].includes(kind)] as const),
  );
  let typed: { apiKey: string; projectId: string };
  beforeAll(async () => {
    typed = await seedProject({
      fields: (['string', 'integer', 'number', 'boolean'] as const).map((type) => ({
        name: type,
        type,
        required: false,
      })),
    });
  });

  it.each(cases)('C13: a %s field given %s → accepted: %s', async (type, kind, ok) => {
    const body = `{"${type}": ${kinds[kind]}}`;
    const before = (await storedRows(typed.projectId)).length;
    const res = await submit({ key: typed.apiKey, body });
    if (ok) {
      await expectEnvelope(res, 201, CREATED);
      const rows = await storedRows(typed.projectId);
      expect(rows).toHaveLength(before + 1);
      // Stored as re-serialised JSON: `-0` is written `0`.
      expect(rows.at(-1)?.data).toEqual(JSON.stringify(JSON.parse(body)));
    } else {
      await expectEnvelope(res, 400, {
        message: 'Validation failed',
        errors: [`Field '${type}' is not of type ${type}`],
      });
      expect(await storedRows(typed.projectId)).toHaveLength(before);
    }
  });
});
