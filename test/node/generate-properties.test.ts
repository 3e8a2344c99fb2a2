// C43 (property): the validator of a generated module and the worker judge alike. For random
// projects (every type and rule, both unknown-field policies, a honeypot) and random values (of the
// right type and the wrong one, null, boundary numbers, astral characters, unknown names,
// `__proto__`, the widget's fields, files), the module's `schema` and the worker's own steps
// (steps.ts' order: the fields taken out, the empty body, compileFields with RE2 and
// validateSubmission) reach the same verdict, the same value, and the same messages, codes and
// parameters in the same order. A value is given to the module as a page holds it and to the
// worker as the JSON it becomes (a file as an UploadedFile with the same declared type).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { afterAll, describe, expect, it } from 'vitest';
import { FIELD_TYPES, type FieldRules, FORMATS, RESERVED_FIELDS } from '../../src/fields/catalogue.ts';
import { inactiveFields } from '../../src/fields/conditions.ts';
import { UploadedFile } from '../../src/fields/file.ts';
import { generateModule } from '../../src/fields/generate.ts';
import { compileFields, type FieldDef, validateSubmission } from '../../src/fields/validation.ts';
import { ApiError } from '../../src/http/envelope.ts';
import { noFields, notObject, validationFailed } from '../../src/http/replies.ts';
import { conditionOver } from './condition-arbitraries.ts';

type Issue = { message: string; path: { key: string }[]; code: string; params?: Record<string, unknown> };
type Verdict = { value: Record<string, unknown> } | { issues: Issue[] };
type Module = { schema: { '~standard': { validate: (value: unknown) => Verdict } } };

const HONEYPOT = 'website';
const dir = mkdtempSync(join(tmpdir(), 'forms-generated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let modules = 0;

/** The module for these fields, written out and imported as a site would (Node strips the types). */
async function generated(defs: FieldDef[], policy: 'reject' | 'discard'): Promise<Module> {
  const file = join(dir, `m${modules++}.ts`);
  writeFileSync(file, generateModule(defs, policy, { honeypot: HONEYPOT }));
  return (await import(pathToFileURL(file).href)) as Module;
}

/** A value as a page holds it (`js`), and as the worker receives it (`json`; absent: not sent). */
type Sample = { js: unknown; json?: unknown };
const same = (v: unknown): Sample => ({ js: v, json: v });

// Patterns on which RE2 and JavaScript's RegExp (with `u`) agree: no `.`, no `\s`, no flags.
const PATTERNS = [
  '^[A-Z]{3}-[0-9]{4}$',
  '[0-9]+',
  '^(sales|support)$',
  '^\\d{2,4}$',
  '\\bword\\b',
  '^[^\\n]{1,3}$',
  '😀',
  '^[A-Z]+$',
  '(?:ab)+',
  '^$',
  '^\\w+@\\w+$',
];
const CHOICES = ['sales', 'support', 'it’s', '😀', 'A B', 'ab'];
const TYPES = [
  'application/pdf',
  'image/png',
  'image/svg+xml',
  'text/plain',
  'text/html',
  'image/*',
  'text/*',
];
const NAMES = [
  'email',
  'a',
  'b',
  '__proto__',
  'constructor',
  '1',
  '2',
  'naïve 😀',
  'it\'s "q"',
  'first name',
];

const smallInt = fc.integer({ min: -20, max: 20 });
const bound = fc.oneof(smallInt, fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }));

const rulesOf = (type: FieldDef['type']): fc.Arbitrary<FieldRules> => {
  switch (type) {
    case 'string':
      return fc.record(
        {
          format: fc.constantFrom(...FORMATS),
          minLength: fc.nat(6),
          maxLength: fc.nat(8),
          oneOf: fc.uniqueArray(fc.constantFrom(...CHOICES), { minLength: 1, maxLength: 4 }),
          pattern: fc.constantFrom(...PATTERNS),
        },
        { requiredKeys: [] },
      );
    case 'integer':
      return fc.record({ min: smallInt, max: smallInt }, { requiredKeys: [] });
    case 'number':
      return fc.record({ min: bound, max: bound }, { requiredKeys: [] });
    case 'file':
      return fc.record(
        {
          maxSize: fc.nat(16),
          accept: fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }),
        },
        { requiredKeys: [] },
      );
    case 'boolean':
      return fc.constant({});
  }
};

const fieldDef = (name: string) =>
  fc
    .record({ type: fc.constantFrom(...FIELD_TYPES), required: fc.constantFrom(false, false, true) })
    .chain(({ type, required }) =>
      fc
        .oneof(fc.constant(undefined), { arbitrary: rulesOf(type), weight: 2 })
        .map(
          (rules): FieldDef =>
            rules === undefined ? { name, type, required } : { name, type, required, rules },
        ),
    );

/** Each field after the first may apply only when one or two before it say so (C45). */
const withConditions = (defs: FieldDef[]): fc.Arbitrary<FieldDef[]> =>
  fc.tuple(
    ...defs.map((def, i) => {
      if (i === 0) return fc.constant(def);
      const condition = conditionOver(defs.slice(0, i), { texts: CHOICES, numbers: smallInt });
      return fc.oneof(
        { arbitrary: fc.constant(def), weight: 2 },
        condition.map((when): FieldDef => ({ ...def, when })),
      );
    }),
  );

const project = fc
  .uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 5 })
  .chain((names) => fc.tuple(...names.map(fieldDef)))
  .chain(withConditions)
  .chain((defs) =>
    fc.record({
      defs: fc.constant(defs),
      policy: fc.constantFrom('reject', 'discard') as fc.Arbitrary<'reject' | 'discard'>,
    }),
  );

const STRINGS = [
  '',
  'ada@example.com',
  'a.b+c@sub.example.co',
  'not an email',
  'a@b.c',
  'https://example.com/a?b',
  'http://[::1]:8080',
  'javascript:alert(1)',
  'mailto:a@b.co',
  'http://',
  'https://exa mple.com',
  '2026-02-28',
  '2026-02-30',
  '2024-02-29',
  '0001-01-01',
  '2026-11-23T09:00:00Z',
  '2026-11-23t09:00:60+01:00',
  '2026-11-23T24:00:00Z',
  '2026-11-23T09:00:00.123-23:59',
  '2026-11-23T09:00:00+24:00',
  '2026-11-23 09:00:00Z',
  '019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e',
  '019AB0C2-7E41-7A3C-9D2E-5F1A2B3C4D5E',
  '019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5',
  'ABC-1234',
  'abab',
  'a word here',
  'x\n',
  '\u2028',
  '12',
  'me@host',
  ...CHOICES,
  '😀'.repeat(3),
  '😀'.repeat(4),
  'a😀b',
  'A'.repeat(10_000),
  'A'.repeat(10_001),
];

/** A file, as a Blob or File on the page and as an UploadedFile with the same declared type. */
const file = fc
  .record({
    size: fc.nat(20),
    type: fc.constantFrom(...TYPES.filter((t) => !t.endsWith('*')), ''),
    named: fc.boolean(),
  })
  .map(({ size, type, named }): Sample => {
    const bytes = new Uint8Array(size);
    const js = named ? new File([bytes], 'f.bin', { type }) : new Blob([bytes], { type });
    return { js, json: new UploadedFile({ name: 'f.bin', type, size, sha256: '' }, bytes) };
  });

const value: fc.Arbitrary<Sample> = fc.oneof(
  fc.constantFrom(...STRINGS).map(same),
  fc.string({ unit: 'grapheme', maxLength: 8 }).map(same),
  fc.string({ unit: 'binary', maxLength: 8 }).map(same),
  fc
    .constantFrom(
      0,
      -0,
      1,
      -1,
      17,
      18,
      20,
      21,
      -21,
      1.5,
      0.1 + 0.2,
      2 ** 53 - 1,
      2 ** 53,
      -(2 ** 53) + 1,
      1e21,
    )
    .map(same),
  fc.double().map((n): Sample => ({ js: n, json: Number.isFinite(n) ? n : null })),
  smallInt.map(same),
  fc.boolean().map(same),
  fc.constantFrom(null, [], ['a'], {}, { a: 1 }, '1', 'true').map(same),
  file,
  fc.constant<Sample>({ js: undefined }),
);

/** A value meant for a field of this type (or for anything, now and then). */
const valueFor = (type: FieldDef['type']): fc.Arbitrary<Sample> => {
  const typed = {
    string: fc.oneof(fc.constantFrom(...STRINGS), fc.string({ unit: 'grapheme', maxLength: 8 })).map(same),
    integer: fc.oneof(smallInt, fc.constantFrom(0, -0, 2 ** 53 - 1, -(2 ** 53) + 1)).map(same),
    number: fc.oneof(smallInt, fc.double({ noNaN: true, noDefaultInfinity: true })).map(same),
    boolean: fc.boolean().map(same),
    file,
  }[type];
  return fc.oneof({ arbitrary: typed, weight: 4 }, value);
};

const stray = fc.tuple(
  fc.oneof(
    fc.constantFrom('zzz', '', '3', 'toString', '__proto__', HONEYPOT, ...RESERVED_FIELDS),
    fc.string({ maxLength: 4 }),
  ),
  value,
);

/** A body: some of the fields, in any order, each with a value meant for it or not, and a few strays. */
const bodies = (defs: FieldDef[]) =>
  fc.array(
    fc
      .tuple(
        fc
          .shuffledSubarray(defs)
          .chain((chosen) => fc.tuple(...chosen.map((d) => fc.tuple(fc.constant(d.name), valueFor(d.type))))),
        fc.array(stray, { maxLength: 2 }),
        fc.nat(3),
      )
      .map(
        ([fields, strays, at]) =>
          [...fields.slice(0, at), ...strays, ...fields.slice(at)] as [string, Sample][],
      ),
    { minLength: 1, maxLength: 12 },
  );

/** An object with these entries as own properties, `__proto__` too (fromEntries defines them). */
const objectOf = (entries: [string, unknown][]) => Object.fromEntries(entries);

/** A kept value as the two sides hold it: a file by its size and type. */
const comparable = (v: Record<string, unknown>) =>
  Object.entries(v).map(([k, x]) => [
    k,
    x instanceof Blob || x instanceof UploadedFile ? ['file', x.size, x.type] : x,
  ]);

/**
 * C5 steps 8–9 as src/accept/steps.ts' `validate` runs them (it is not imported: its module brings
 * the Workers' types into Node's): the Turnstile token, the widget's fields and the honeypot taken
 * out, an empty body refused, every field validated, and nothing left to store refused.
 */
function accept(compiled: ReturnType<typeof compileFields>, body: Record<string, unknown>) {
  for (const name of [...RESERVED_FIELDS, HONEYPOT]) delete body[name];
  if (Object.keys(body).length === 0) throw noFields();
  const result = validateSubmission(compiled, body);
  if (!result.ok) throw validationFailed(result.problems);
  if (Object.keys(result.value).length === 0) throw noFields();
  return result.value;
}

/** What the worker answers the body, as the module reports it. */
function workerVerdict(defs: FieldDef[], policy: 'reject' | 'discard', body: unknown): unknown {
  const single = (e: ApiError) => {
    const data = e.toEnvelope().data;
    return { issues: [{ message: data.error?.message, path: [], code: data.error?.code }] };
  };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return single(notObject());
  const compiled = compileFields(defs, policy, RE2JS, inactiveFields);
  try {
    return { value: comparable(accept(compiled, { ...body } as Record<string, unknown>)) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const data = error.toEnvelope().data;
    if (data.errors === undefined) return single(error);
    return {
      issues: data.errors.map((message, i) => {
        const { field, code, params } = data.issues?.[i] ?? { field: '?', code: '?' };
        return params === undefined
          ? { message, path: [{ key: field }], code }
          : { message, path: [{ key: field }], code, params };
      }),
    };
  }
}

function moduleVerdict(m: Module, body: unknown): { value: unknown[] } | { issues: Issue[] } {
  const result = m.schema['~standard'].validate(body);
  if ('value' in result) return { value: comparable(result.value) };
  return { issues: result.issues.map((i) => ({ ...i, path: [...i.path] })) };
}

/** What the runs must reach: accepted values, and every code the validator can give. */
const OUTCOMES = [
  'accepted',
  'empty_submission',
  'type',
  'unknown_field',
  'required',
  ...['format', 'min_length', 'max_length', 'min', 'max', 'one_of', 'pattern', 'file_size', 'file_type'],
];

describe('C43 (property): a generated validator judges as the worker does', () => {
  it('the same verdict, value, messages, codes and parameters, in the same order', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        project.chain((p) => fc.record({ p: fc.constant(p), bodies: bodies(p.defs) })),
        async ({ p, bodies }) => {
          const m = await generated(p.defs, p.policy);
          for (const entries of bodies) {
            // The last repeat of a name counts, in the place of the first (C12); `undefined` is not sent.
            const last = [...new Map(entries)];
            const js = objectOf(last.map(([name, s]) => [name, s.js]));
            const json = objectOf(last.filter(([, s]) => 'json' in s).map(([name, s]) => [name, s.json]));
            const verdict = moduleVerdict(m, js);
            const counted = 'value' in verdict ? ['accepted'] : verdict.issues.map((i) => i.code);
            for (const outcome of counted) seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
            expect(verdict).toStrictEqual(workerVerdict(p.defs, p.policy, json));
          }
        },
      ),
      { numRuns: 300 },
    );
    expect([...seen.keys()].sort()).toEqual([...OUTCOMES].sort());
    expect(seen.get('accepted')).toBeGreaterThan(50);
  });

  it('every listed text against every format, pattern and length, one by one', async () => {
    const defs: FieldDef[] = [
      ...FORMATS.map(
        (format): FieldDef => ({ name: format, type: 'string', required: false, rules: { format } }),
      ),
      ...PATTERNS.map(
        (pattern, i): FieldDef => ({ name: `p${i}`, type: 'string', required: false, rules: { pattern } }),
      ),
      { name: 'len', type: 'string', required: false, rules: { minLength: 3, maxLength: 3 } },
      { name: 'choice', type: 'string', required: false, rules: { oneOf: CHOICES } },
    ];
    const m = await generated(defs, 'reject');
    for (const def of defs) {
      for (const text of STRINGS) {
        const body = { [def.name]: text };
        expect(moduleVerdict(m, body), `${def.name}: ${JSON.stringify(text).slice(0, 40)}`).toStrictEqual(
          workerVerdict(defs, 'reject', body),
        );
      }
    }
  });

  it('a value that is not an object: an array, a string, a number, a boolean, null', async () => {
    const m = await generated([{ name: 'a', type: 'string', required: false }], 'reject');
    for (const body of [[], ['a'], 'text', 3, true, null]) {
      expect(moduleVerdict(m, body)).toStrictEqual(workerVerdict([], 'reject', body));
    }
  });
});
