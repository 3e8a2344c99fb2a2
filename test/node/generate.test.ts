// C43: the module `forms types` prints for a project: it type-checks under the strictest settings a
// site may use (TypeScript 7, `tsc --noEmit`), its `schema` is a Standard Schema v1 whose output is
// `Submission`, and a consumer that gets a field wrong (a number for a string, a value outside a
// `oneOf`, a required field left out) fails to compile with an error that names the field. Its
// `fields` is the project's JSON Schema, and it imports nothing.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateModule } from '../../src/fields/generate.ts';
import { RUNTIME } from '../../src/fields/generated-runtime.ts';
import { submissionJsonSchema } from '../../src/fields/json-schema.ts';
import type { FieldDef } from '../../src/fields/validation.ts';
import { ERROR_CODES, ISSUE_CODES } from '../../src/lib/codes.ts';
import { lintModule, siteWith } from './module-check.ts';

/** A project with every type, every rule, and names no identifier can be. */
const DEFS: FieldDef[] = [
  { name: 'email', type: 'string', required: true, rules: { format: 'email', maxLength: 100 } },
  { name: 'topic', type: 'string', required: false, rules: { oneOf: ['sales', 'support', 'it’s "other"'] } },
  { name: 'age', type: 'integer', required: false, rules: { min: 18, max: 150 } },
  { name: 'price', type: 'number', required: false, rules: { min: 0.01 } },
  { name: 'newsletter', type: 'boolean', required: true },
  { name: 'code', type: 'string', required: false, rules: { pattern: '^[A-Z]{3}-[0-9]{4}$', minLength: 8 } },
  { name: 'site', type: 'string', required: false, rules: { format: 'url' } },
  { name: 'day', type: 'string', required: false, rules: { format: 'date' } },
  { name: 'at', type: 'string', required: false, rules: { format: 'date-time' } },
  { name: 'ref', type: 'string', required: false, rules: { format: 'uuid' } },
  { name: 'cv', type: 'file', required: false, rules: { maxSize: 5_000_000, accept: ['application/pdf'] } },
  { name: '__proto__', type: 'string', required: false },
  { name: 'first name', type: 'string', required: true },
  { name: 'it\'s "quoted" \\ too', type: 'number', required: false },
  { name: 'naïve 😀', type: 'boolean', required: false },
  { name: 'left\u202eright', type: 'string', required: false },
];

let dir: string;
let module: string;
let typeCheck: ReturnType<typeof siteWith>['typeCheck'];
let remove: () => void;

beforeAll(() => {
  module = generateModule(DEFS, 'reject', { project: 'p_abcdefghijkl', honeypot: 'website' });
  ({ dir, typeCheck, remove } = siteWith(module));
});
afterAll(() => remove());

const HEADER = `import type { StandardSchemaV1 } from '@standard-schema/spec';
import { fields, schema, type Issue, type Submission } from './types.ts';
`;

const VALID = `{
  email: 'ada@example.com',
  newsletter: true,
  'first name': 'Ada',
  topic: 'it’s "other"',
  age: 36,
  ['__proto__']: 'a field like any other',
  'it\\'s "quoted" \\\\ too': 1.5,
  'naïve 😀': false,
  cv: new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }),
}`;

describe("the generated module in a site's project: its lint, and Node's types beside it", () => {
  it("passes the project's own lint (Biome): regular expressions as literals, its message a template", () => {
    const lint = lintModule(module);
    expect(lint.output).not.toMatch(/lint\//);
    expect(lint.status).toBe(0);
  });

  it('compiles strictly with @types/node too', async () => {
    const consumer =
      "import { fields, schema } from './types.ts';\nexport const used = [fields, schema, process.version];\n";
    const { code, output } = await typeCheck('node', consumer, ['node']);
    expect(output).toBe('');
    expect(code).toBe(0);
  });
});

describe('C43: the generated module type-checks, and so does a consumer that uses it right', () => {
  it('compiles strictly; `schema` is a StandardSchemaV1<unknown, Submission>; `fields` keeps its literal types', async () => {
    const consumer = `${HEADER}
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const standard: StandardSchemaV1<unknown, Submission> = schema;
const output: Equal<StandardSchemaV1.InferOutput<typeof schema>, Submission> = true;
const format: 'email' = fields.properties.email.format;
const required: readonly ['email', 'newsletter', 'first name'] = fields.required;
const submission: Submission = ${VALID};
const result = await schema['~standard'].validate(submission);
const issues: readonly Issue[] = result.issues ?? [];
const codes = issues.map((issue) => (issue.code === 'one_of' ? issue.params?.['values'] : issue.path[0]?.key));
export const used = [standard, output, format, required, codes];
`;
    const { code, output } = await typeCheck('valid', consumer);
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it.each([
    [
      'a number for a string field',
      `{ email: 42, newsletter: true, 'first name': 'Ada' }`,
      "property 'email'",
    ],
    [
      'a value outside a oneOf',
      `{ email: 'a@b.co', newsletter: true, 'first name': 'Ada', topic: 'complaints' }`,
      "property 'topic'",
    ],
    [
      'a required field left out',
      `{ email: 'a@b.co', newsletter: true }`,
      'Property \'"first name"\' is missing',
    ],
    [
      'a string for a boolean under a quoted name',
      `{ email: 'a@b.co', newsletter: true, 'first name': 'Ada', 'naïve 😀': 'yes' }`,
      "property 'naïve 😀'",
    ],
  ])('a consumer with %s does not compile: one error, naming the field', async (_, value, named) => {
    const { code, output } = await typeCheck(
      `wrong-${value.length}`,
      `import { fields, schema, type Submission } from './types.ts';
export const submission: Submission = ${value};
export const used = [fields, schema];
`,
    );
    expect(code).not.toBe(0);
    expect(output).toContain('Found 1 error');
    expect(output).toContain(named);
  });
});

describe('C43: what the module holds', () => {
  it('imports nothing and carries no raw control or bidirectional character (C19)', () => {
    expect(module).not.toMatch(/^\s*import\b/m);
    expect(module).not.toMatch(/\bfrom '/);
    const raw = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
    expect(module.replaceAll('\n', '')).not.toMatch(raw);
    expect(module).toContain('"left\\u202eright"');
  });

  it("C43: its codes are the worker's: a field's issue codes, and the two single causes it reports", () => {
    const union = /export type IssueCode =([^;]+);/.exec(RUNTIME)?.[1] ?? '';
    const codes = [...union.matchAll(/'(\w+)'/g)].map((m) => m[1]);
    // A form's own (two files, a name twice) and the store's (C45: a unique value taken, which only
    // the worker can know) are not the module's.
    const fieldCodes = Object.keys(ISSUE_CODES).filter(
      (c) => c !== 'too_many_files' && c !== 'duplicate_field' && c !== 'unique',
    );
    expect(codes.sort()).toEqual([...fieldCodes, 'empty_submission', 'not_an_object'].sort());
    expect(Object.keys(ERROR_CODES)).toEqual(expect.arrayContaining(['empty_submission', 'not_an_object']));
  });

  it("exports the project's JSON Schema as `fields`, `__proto__` an own property", async () => {
    const m = (await import(pathToFileURL(join(dir, 'types.ts')).href)) as {
      fields: Record<string, unknown>;
    };
    expect(m.fields).toEqual(submissionJsonSchema(DEFS, 'reject'));
    expect(Object.hasOwn(m.fields.properties as object, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(m.fields.properties)).toBe(Object.prototype);
  });

  it('names the project in its first line, and leaves a pattern JavaScript cannot compile unchecked, saying so', () => {
    expect(module.split('\n')[0]).toContain('project p_abcdefghijkl');
    const odd = generateModule(
      [{ name: 'w', type: 'string', required: false, rules: { pattern: '[[:alpha:]]+' } }],
      'reject',
    );
    expect(odd).toContain(
      '// JavaScript cannot compile this RE2 pattern: it is not checked here (the worker checks it).',
    );
    expect(odd).toContain('pattern: null');
  });
});
