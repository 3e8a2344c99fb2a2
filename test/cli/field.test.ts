// `forms field …`: add, change and remove fields, with their rules (C28), end to end against a temporary local database.

import { describe, expect, it } from 'vitest';
import { hashKey } from '../../src/projects/keys.ts';
import { findProjectByKeyHash } from '../../src/store/intake.ts';
import { toolOnTemp } from './helpers.ts';

const tool = toolOnTemp('field');
const { forms, json, expectRefused, newProject } = tool;

describe('field add / remove', () => {
  it('adds fields after the last one, and removes them', async () => {
    const p = await newProject();
    expect(await json('field', 'add', p.projectId, 'phone:integer:required')).toEqual({
      projectId: p.projectId,
      field: { name: 'phone', type: 'integer', required: true },
    });
    await json('field', 'add', p.projectId, 'ok:boolean');
    const config = await findProjectByKeyHash(tool.database.db.$client, await hashKey(p.apiKey));
    expect(config?.fields.map((f) => f.name)).toEqual(['name', 'phone', 'ok']);
    expect(await json('field', 'remove', p.projectId, 'phone')).toEqual({
      projectId: p.projectId,
      removed: 'phone',
    });
    const after = await findProjectByKeyHash(tool.database.db.$client, await hashKey(p.apiKey));
    expect(after?.fields.map((f) => f.name)).toEqual(['name', 'ok']);
  });

  it('refuses a duplicate, an unknown type, a malformed spec and an unknown field', async () => {
    const p = await newProject();
    await expectRefused(
      ['field', 'add', p.projectId, 'name:integer'],
      /Field 'name' already exists in project/,
    );
    await expectRefused(['field', 'add', p.projectId, 'age:int'], /Unknown field type 'int'/);
    await expectRefused(['field', 'add', p.projectId, 'age'], /Malformed field spec 'age'/);
    await expectRefused(['field', 'remove', p.projectId, 'age'], /has no field 'age'/);
  });
});

describe('field rules (C28)', () => {
  it('C28: project create takes rules in the field syntax; project show lists them; the endpoint gets them', async () => {
    const created = await json<{ projectId: string; apiKey: string }>(
      'project',
      'create',
      'Signup',
      '--field',
      'email:string:required:format=email',
      '--field',
      'name:string:minLength=1:maxLength=100',
      '--field',
      'age:integer:min=0:max=150',
      '--field',
      'price:number:min=0.01',
      '--field',
      'topic:string:oneOf=sales|support|other',
      '--field',
      'code:string:pattern=^[A-Z]{3}-[0-9]{4}$',
      '--field',
      'time:string:pattern=^\\d{2}:\\d{2}$',
    );
    const config = await findProjectByKeyHash(tool.database.db.$client, await hashKey(created.apiKey));
    expect(config?.fields).toEqual([
      { name: 'email', type: 'string', required: true, rules: { format: 'email' } },
      { name: 'name', type: 'string', required: false, rules: { minLength: 1, maxLength: 100 } },
      { name: 'age', type: 'integer', required: false, rules: { min: 0, max: 150 } },
      { name: 'price', type: 'number', required: false, rules: { min: 0.01 } },
      { name: 'topic', type: 'string', required: false, rules: { oneOf: ['sales', 'support', 'other'] } },
      { name: 'code', type: 'string', required: false, rules: { pattern: '^[A-Z]{3}-[0-9]{4}$' } },
      // A pattern may hold ':' when it comes last.
      { name: 'time', type: 'string', required: false, rules: { pattern: '^\\d{2}:\\d{2}$' } },
    ]);
    const shown = await forms('project', 'show', created.projectId);
    expect(shown.stdout).toContain('  email: string (required) format=email\n');
    expect(shown.stdout).toContain('  topic: string oneOf=sales|support|other\n');
    expect(shown.stdout).toContain('  age: integer min=0 max=150\n');
    const shownJson = await json<{ fields: unknown[] }>('project', 'show', created.projectId);
    expect(shownJson.fields[0]).toEqual({
      name: 'email',
      type: 'string',
      required: true,
      rules: { format: 'email' },
    });
  });

  it('C28: field set replaces a definition in its place; field add takes rules', async () => {
    const p = await newProject('--field', 'age:integer');
    await json('field', 'set', p.projectId, 'age:integer:required:min=18');
    await json('field', 'add', p.projectId, 'code:string:maxLength=4');
    const config = await findProjectByKeyHash(tool.database.db.$client, await hashKey(p.apiKey));
    expect(config?.fields).toEqual([
      { name: 'name', type: 'string', required: false },
      { name: 'age', type: 'integer', required: true, rules: { min: 18 } },
      { name: 'code', type: 'string', required: false, rules: { maxLength: 4 } },
    ]);
    await json('field', 'set', p.projectId, 'age:number');
    expect(
      (await findProjectByKeyHash(tool.database.db.$client, await hashKey(p.apiKey)))?.fields[1],
    ).toEqual({
      name: 'age',
      type: 'number',
      required: false,
    });
    await expectRefused(['field', 'set', p.projectId, 'nope:string'], /has no field 'nope'/);
  });

  it('C28: project schema prints the fields as JSON Schema with the matching keywords', async () => {
    const p = await newProject(
      '--field',
      'email:string:required:format=email:maxLength=200',
      '--field',
      'age:integer:min=18',
    );
    const result = await forms('project', 'schema', p.projectId);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      minProperties: 1,
      properties: {
        name: { type: 'string' },
        email: { type: 'string', format: 'email', maxLength: 200 },
        age: { type: 'integer', minimum: 18, maximum: Number.MAX_SAFE_INTEGER },
      },
      required: ['email'],
      additionalProperties: false,
    });
  });

  it.each([
    ['age:integer:maxLength=3', /Rule 'maxLength' does not fit type integer/],
    ['ok:boolean:min=1', /does not fit type boolean in 'ok:boolean:min=1': a boolean field takes no rules/],
    ['name:string:min=1', /Rule 'min' does not fit type string/],
    ['age:integer:min=ten', /Invalid min 'ten'/],
    ['age:integer:min=1.5', /an integer field's bounds are integers/],
    ['price:number:max=1e400', /Invalid max '1e400'/],
    ['age:integer:min=5:max=4', /min is above max/],
    ['name:string:minLength=5:maxLength=4', /minLength is above maxLength/],
    ['name:string:maxLength=-1', /Invalid maxLength '-1'/],
    ['name:string:maxLength=1.5', /Invalid maxLength/],
    ['topic:string:oneOf=', /Invalid oneOf/],
    ['topic:string:oneOf=a||b', /Invalid oneOf/],
    ['topic:string:oneOf=a|a', /given twice in oneOf/],
    ['email:string:format=phone', /Unknown format 'phone'/],
    ['email:string:format=email:format=url', /Rule 'format' is given twice/],
    ['name:string:colour=red', /Unknown rule 'colour'/],
    ['name:string:maxLength', /Malformed field spec/],
    ['code:string:pattern=', /Invalid pattern .*1 to 200 characters/],
    ['code:string:pattern=(a)\\1', /Invalid pattern .*RE2/],
    ['code:string:pattern=a(?=b)', /Invalid pattern .*RE2/],
    [`code:string:pattern=${'a'.repeat(201)}`, /1 to 200 characters/],
  ])('C28: %s → exit 2 with one line saying which', async (spec, message) => {
    await expectRefused(['project', 'create', 'X', '--field', spec], message);
  });
});

describe('what a field shows (C44)', () => {
  it('C44: field add and set take --label, --help and --placeholder per language; set keeps what it is not given; --no- removes', async () => {
    const p = await newProject();
    expect(
      await json(
        'field',
        'add',
        p.projectId,
        'email:string:required:format=email',
        '--label',
        'EN-us=Your email',
        '--label',
        'de=Ihre E-Mail-Adresse',
        '--help',
        'en=We reply within a day.\nNever shared.',
        '--placeholder',
        'en=ada@example.com',
      ),
    ).toEqual({
      projectId: p.projectId,
      field: {
        name: 'email',
        type: 'string',
        required: true,
        rules: { format: 'email' },
        label: { 'en-US': 'Your email', de: 'Ihre E-Mail-Adresse' },
        help: { en: 'We reply within a day.\nNever shared.' },
        placeholder: { en: 'ada@example.com' },
      },
    });
    // A new definition of what it checks keeps what it shows.
    await json('field', 'set', p.projectId, 'email:string:required');
    const fieldOf = async () =>
      (await json<{ fields: Record<string, unknown>[] }>('project', 'show', p.projectId)).fields[1];
    expect(await fieldOf()).toEqual({
      name: 'email',
      type: 'string',
      required: true,
      label: { 'en-US': 'Your email', de: 'Ihre E-Mail-Adresse' },
      help: { en: 'We reply within a day.\nNever shared.' },
      placeholder: { en: 'ada@example.com' },
    });
    // A member given replaces its whole map; --no-… removes it.
    const set = await forms(
      'field',
      'set',
      p.projectId,
      'email:string',
      '--label',
      'fr=Courriel',
      '--no-help',
    );
    expect(set.stdout).toBe(
      `Set field email: string label[fr]="Courriel" placeholder[en]="ada@example.com" in ${p.projectId}.\n`,
    );
    expect(await fieldOf()).toEqual({
      name: 'email',
      type: 'string',
      required: false,
      label: { fr: 'Courriel' },
      placeholder: { en: 'ada@example.com' },
    });
    const shown = await forms('project', 'show', p.projectId);
    expect(shown.stdout).toContain(
      '  email: string label[fr]="Courriel" placeholder[en]="ada@example.com"\n',
    );
    // The project's JSON Schema titles it (no French page: its one text).
    const schema = JSON.parse((await forms('project', 'schema', p.projectId)).stdout) as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.properties.email).toEqual({ type: 'string', title: 'Courriel' });
  });

  it('C44: --multiline and --no-multiline say how many lines a text field takes; set keeps it; a number refuses it', async () => {
    const p = await newProject();
    const add = await forms('field', 'add', p.projectId, 'story:string:maxLength=100', '--multiline');
    expect(add.stdout).toBe(`Added field story: string maxLength=100 multiline=true to ${p.projectId}.\n`);
    await json('field', 'set', p.projectId, 'story:string');
    const fieldOf = async () =>
      (await json<{ fields: Record<string, unknown>[] }>('project', 'show', p.projectId)).fields[1];
    expect(await fieldOf()).toEqual({ name: 'story', type: 'string', required: false, multiline: true });
    await json('field', 'set', p.projectId, 'story:string:maxLength=5000', '--no-multiline');
    expect(await fieldOf()).toMatchObject({ multiline: false });
    const refused = await forms('field', 'set', p.projectId, 'story:integer', '--multiline');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("'multiline' is for a text field: 'story' is an integer field");
    expect(await fieldOf()).toMatchObject({ type: 'string', multiline: false });
  });

  it('C46: --step puts a field on a step of its page; set keeps it; project show prints it; a bad one is refused', async () => {
    const p = await newProject();
    const add = await forms('field', 'add', p.projectId, 'topic:string', '--step', '2');
    expect(add.stdout).toBe(`Added field topic: string step=2 to ${p.projectId}.\n`);
    await json('field', 'set', p.projectId, 'topic:string:required');
    const fieldOf = async () =>
      (await json<{ fields: Record<string, unknown>[] }>('project', 'show', p.projectId)).fields[1];
    expect(await fieldOf()).toEqual({ name: 'topic', type: 'string', required: true, step: 2 });
    const refused = await forms('field', 'set', p.projectId, 'topic:string', '--step', 'two');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("'step' is a whole number from 1 to 20 in field 'topic': not \"two\"");
    expect(await fieldOf()).toMatchObject({ step: 2 });
  });

  it('C45: --when takes a condition on earlier fields, read as their types; project show prints it; a later field is refused', async () => {
    const p = await newProject();
    await json('field', 'add', p.projectId, 'business:boolean');
    const add = await forms(
      'field',
      'add',
      p.projectId,
      'company:string:required',
      '--when',
      'business=true',
    );
    expect(add.stdout).toBe(
      `Added field company: string (required) when={"field":"business","equals":true} to ${p.projectId}.\n`,
    );
    const both = await json<{ field: Record<string, unknown> }>(
      'field',
      'add',
      p.projectId,
      'vat:string',
      '--when',
      'company',
      '--when',
      'business!=false',
    );
    expect(both.field.when).toEqual({
      all: [{ field: 'company', filled: true }, { not: { field: 'business', equals: false } }],
    });
    const later = await forms('field', 'set', p.projectId, 'business:boolean', '--when', 'vat');
    expect(later.code).toBe(2);
    expect(later.stderr).toContain(
      "The condition of field 'business' names 'vat', which is not a field before it",
    );
    const removed = await forms('field', 'remove', p.projectId, 'business');
    expect(removed.stderr).toContain("Field 'business' is named by the condition of field 'company'");
  });

  it('C45: --capture makes a hidden field the page fills, at most 500 characters; a list refuses it', async () => {
    const p = await newProject();
    const add = await forms('field', 'add', p.projectId, 'campaign:string', '--capture', 'utm_campaign');
    expect(add.stdout).toBe(
      `Added field campaign: string maxLength=500 capture=utm_campaign to ${p.projectId}.\n`,
    );
    const refused = await forms(
      'field',
      'add',
      p.projectId,
      'pick:string:oneOf=a|b',
      '--capture',
      'referrer',
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("'capture' is for a text field: 'pick' is not one");
  });

  it('C44: --help alone shows the command’s help, as on every command; -h too', async () => {
    for (const flag of ['--help', '-h']) {
      const result = await forms('field', 'add', flag);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Usage: forms field add [options] <project> <spec>');
      expect(result.stdout).toContain('--help [lang=text]');
    }
  });

  it.each([
    [
      ['--label', 'Your email'],
      "Give the label of field 'email' as <language>=<text>, e.g. en=Hello: not 'Your email'",
    ],
    [
      ['--label', 'en_US=Email'],
      "Invalid language tag 'en_US' in the label of field 'email': a BCP 47 tag such as en, de or pt-BR",
    ],
    [['--label', 'en=a', '--label', 'EN=b'], "The label of field 'email' is given twice in 'en'"],
    [
      ['--label', `en=${'x'.repeat(201)}`],
      "The label of field 'email' in 'en' is 201 characters: at most 200",
    ],
    [
      ['--placeholder', 'en=a\tb'],
      "The placeholder of field 'email' in 'en' holds U+0009: no control characters",
    ],
    [['--label', 'en=a\nb'], "The label of field 'email' in 'en' holds U+000A: it is one line"],
    [
      ['--help', `en=${'x'.repeat(1001)}`],
      "The help of field 'email' in 'en' is 1001 characters: at most 1000",
    ],
  ])('C44: %j → exit 2 with the sentence the API answers', async (options, sentence) => {
    const p = await newProject();
    await expectRefused(['field', 'add', p.projectId, 'email:string', ...options], `forms: ${sentence}\n`);
  });
});
