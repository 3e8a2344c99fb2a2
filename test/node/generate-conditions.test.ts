// C45: the generated module of a project with conditions (`when`) judges as the worker does: its
// `Submission` type is a union where a condition is `equals` or `oneOf` on a boolean or a choice
// (so tsc refuses `business: true` without `company`), optional otherwise; its JSON Schema says a
// conditional field's rules and requiredness under `if`/`then`, and agrees with the worker on what
// it accepts; it passes the project's lint.
import { Validator } from '@cfworker/json-schema';
import { RE2JS } from 're2js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inactiveFields } from '../../src/fields/conditions.ts';
import { generateModule } from '../../src/fields/generate.ts';
import { submissionJsonSchema } from '../../src/fields/json-schema.ts';
import { compileFields, type FieldDef, validateSubmission } from '../../src/fields/validation.ts';
import { lintModule, siteWith } from './module-check.ts';

const DEFS: FieldDef[] = [
  { name: 'business', type: 'boolean', required: true },
  {
    name: 'company',
    type: 'string',
    required: true,
    rules: { minLength: 2 },
    when: { field: 'business', equals: true },
  },
  { name: 'topic', type: 'string', required: false, rules: { oneOf: ['sales', 'support', 'other'] } },
  { name: 'details', type: 'string', required: true, when: { field: 'topic', oneOf: ['support', 'other'] } },
  { name: 'phone', type: 'string', required: false },
  { name: 'hours', type: 'string', required: true, when: { field: 'phone', filled: true } },
];

let site: ReturnType<typeof siteWith>;
let module: string;
beforeAll(() => {
  module = generateModule(DEFS, 'reject');
  site = siteWith(module);
});
afterAll(() => site.remove());

describe('C45: the Submission type of a project with conditions', () => {
  it.each([
    ['not a business, no topic', `{ business: false }`],
    ['a business with its company', `{ business: true, company: 'ACME' }`],
    ['sales, which asks no details', `{ business: false, topic: 'sales' }`],
    ['support with its details', `{ business: false, topic: 'support', details: 'It broke' }`],
    ['a phone with hours', `{ business: false, phone: '123', hours: '9-5' }`],
    [
      'hours without a phone: optional, as the condition is not on a choice',
      `{ business: false, hours: '9-5' }`,
    ],
  ])('compiles: %s', async (_, value) => {
    const { code, output } = await site.typeCheck(
      `ok-${value.length}`,
      `import { type Submission } from './types.ts';\nexport const s: Submission = ${value};\n`,
    );
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it.each([
    ['a business without its company', `{ business: true }`],
    ['a company when not a business', `{ business: false, company: 'ACME' }`],
    ['support without details', `{ business: false, topic: 'support' }`],
    ['details for sales', `{ business: false, topic: 'sales', details: 'x' }`],
  ])('does not compile: %s', async (_, value) => {
    const { code } = await site.typeCheck(
      `bad-${value.length}`,
      `import { type Submission } from './types.ts';\nexport const s: Submission = ${value};\n`,
    );
    expect(code).not.toBe(0);
  });

  it("passes the project's own lint, its JSON Schema's `then` included", () => {
    expect(module).toContain('then: {');
    const lint = lintModule(module);
    expect(lint.output).not.toMatch(/lint\//);
    expect(lint.status).toBe(0);
  });
});

describe('C45: the JSON Schema of a project with conditions', () => {
  const compiled = compileFields(DEFS, 'reject', RE2JS, inactiveFields);
  const validator = new Validator(submissionJsonSchema(DEFS, 'reject') as object, '2020-12');
  it.each([
    { business: false },
    { business: true },
    { business: true, company: 'A' },
    { business: true, company: 'ACME' },
    { business: false, company: 'A' },
    { business: false, topic: 'support' },
    { business: false, topic: 'other', details: 'x' },
    { business: false, topic: 'sales', details: 7 },
    { business: false, phone: '' },
    { business: false, phone: '1' },
    { business: false, phone: '1', hours: 'always' },
  ])('agrees with the worker on %j', (body) => {
    expect(validator.validate(body).valid).toBe(validateSubmission(compiled, body).ok);
  });
});
