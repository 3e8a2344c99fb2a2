// C28, C30: field definitions, case by case: what each spec (the tool) and each JSON field (the
// management API) becomes, and the exact sentence that refuses each one that will not do. The
// sentences are what an owner reads: a change to one is a change to this table.
import { describe, expect, it } from 'vitest';
import { fieldFromJson, parseFieldSpec, parseFieldSpecs, parseSize } from '../../src/fields/spec.ts';

const outcome = (make: () => unknown) => {
  try {
    return make();
  } catch (error) {
    return { error: (error as Error).message };
  }
};

const SPECS: [string, unknown][] = [
  // C45: `unique` alone, as `required` is, or as a rule with true or false.
  [
    'email:string:required:unique:format=email',
    { name: 'email', type: 'string', required: true, rules: { unique: true, format: 'email' } },
  ],
  ['seat:integer:unique=true', { name: 'seat', type: 'integer', required: false, rules: { unique: true } }],
  ['seat:number:unique=false', { name: 'seat', type: 'number', required: false }],
  [
    'ok:boolean:unique',
    {
      error:
        "Rule 'unique' does not fit type boolean in 'ok:boolean:unique': a string, integer or number field takes it",
    },
  ],
  ['a:string:unique:unique', { error: "Rule 'unique' is given twice in 'a:string:unique:unique'" }],
  ['a:string:unique=yes', { error: "Invalid unique 'yes' in 'a:string:unique=yes': true or false" }],
  [
    'email:string:required:format=email:maxLength=100',
    { name: 'email', type: 'string', required: true, rules: { format: 'email', maxLength: 100 } },
  ],
  [
    'age:integer:min=18:max=120',
    { name: 'age', type: 'integer', required: false, rules: { min: 18, max: 120 } },
  ],
  [
    'price:number:min=-2.5:max=1e3',
    { name: 'price', type: 'number', required: false, rules: { min: -2.5, max: 1000 } },
  ],
  [
    'price:number:min=0:max=-0',
    { name: 'price', type: 'number', required: false, rules: { min: 0, max: 0 } },
  ],
  [
    'tier:string:oneOf=gold|silver',
    { name: 'tier', type: 'string', required: false, rules: { oneOf: ['gold', 'silver'] } },
  ],
  [
    'cv:file:maxSize=1.5MiB:accept=application/pdf, IMAGE/*',
    {
      name: 'cv',
      type: 'file',
      required: false,
      rules: { maxSize: 1572864, accept: ['application/pdf', 'image/*'] },
    },
  ],
  ['cv:file:maxSize=500kB', { name: 'cv', type: 'file', required: false, rules: { maxSize: 500000 } }],
  ['cv:file:maxSize=1048576', { name: 'cv', type: 'file', required: false, rules: { maxSize: 1048576 } }],
  [
    'code:string:pattern=^[A-Z]{3}:[0-9]+$',
    { name: 'code', type: 'string', required: false, rules: { pattern: '^[A-Z]{3}:[0-9]+$' } },
  ],
  ['ok:boolean', { name: 'ok', type: 'boolean', required: false }],
  [
    'ok:boolean:required:required',
    {
      error:
        "Malformed field spec 'ok:boolean:required:required': expected <name>:<type>[:required][:unique][:<rule>=<value>]…",
    },
  ],
  ['x', { error: "Malformed field spec 'x': expected <name>:<type>[:required][:unique][:<rule>=<value>]…" }],
  ['x:', { error: "Unknown field type '' in 'x:': use string, integer, number, boolean, file" }],
  [
    'bad name:string',
    {
      error: "Malformed field spec 'bad name:string': a field name is 1–100 characters without spaces or ':'",
    },
  ],
  [
    'x:strin',
    { error: "Unknown field type 'strin' in 'x:strin': use string, integer, number, boolean, file" },
  ],
  [
    'x:string:nope=1',
    {
      error:
        "Unknown rule 'nope' in 'x:string:nope=1': use format, minLength, maxLength, oneOf, pattern, min, max, maxSize, accept, unique",
    },
  ],
  [
    'x:boolean:maxLength=3',
    {
      error:
        "Rule 'maxLength' does not fit type boolean in 'x:boolean:maxLength=3': a boolean field takes no rules",
    },
  ],
  [
    'x:string:maxLength=3:maxLength=4',
    { error: "Rule 'maxLength' is given twice in 'x:string:maxLength=3:maxLength=4'" },
  ],
  [
    'x:string:format=mail',
    { error: "Unknown format 'mail' in 'x:string:format=mail': use email, url, date, date-time, uuid" },
  ],
  [
    'x:string:minLength=-1',
    { error: "Invalid minLength '-1' in 'x:string:minLength=-1': a whole number from 0 to 1000000" },
  ],
  [
    'x:string:maxLength=1.5',
    { error: "Invalid maxLength '1.5' in 'x:string:maxLength=1.5': a whole number from 0 to 1000000" },
  ],
  [
    'x:string:maxLength=1000001',
    {
      error: "Invalid maxLength '1000001' in 'x:string:maxLength=1000001': a whole number from 0 to 1000000",
    },
  ],
  [
    'x:integer:min=1.5',
    { error: "Invalid min '1.5' in 'x:integer:min=1.5': an integer field's bounds are integers" },
  ],
  ['x:number:min=abc', { error: "Invalid min 'abc' in 'x:number:min=abc': a number, e.g. 0, -5, 0.01" }],
  ['x:number:min=01', { error: "Invalid min '01' in 'x:number:min=01': a number, e.g. 0, -5, 0.01" }],
  [
    'x:string:oneOf=',
    { error: "Invalid oneOf in 'x:string:oneOf=': give the allowed values, separated by |, none empty" },
  ],
  [
    'x:string:oneOf=a||b',
    { error: "Invalid oneOf in 'x:string:oneOf=a||b': give the allowed values, separated by |, none empty" },
  ],
  ['x:string:oneOf=a|a', { error: "A value is given twice in oneOf in 'x:string:oneOf=a|a'" }],
  [
    'x:file:maxSize=0',
    {
      error:
        "Invalid maxSize '0' in 'x:file:maxSize=0': a size such as 500kB, 5MB or 1048576 (bytes), at least 1 byte",
    },
  ],
  [
    'x:file:maxSize=lots',
    {
      error:
        "Invalid maxSize 'lots' in 'x:file:maxSize=lots': a size such as 500kB, 5MB or 1048576 (bytes), at least 1 byte",
    },
  ],
  [
    'x:file:maxSize=5 XB',
    {
      error:
        "Invalid maxSize '5 XB' in 'x:file:maxSize=5 XB': a size such as 500kB, 5MB or 1048576 (bytes), at least 1 byte",
    },
  ],
  [
    'x:file:accept=pdf',
    {
      error:
        "Invalid accept 'pdf' in 'x:file:accept=pdf': media types separated by commas, e.g. application/pdf,image/*",
    },
  ],
  [
    'x:file:accept=',
    {
      error:
        "Invalid accept '' in 'x:file:accept=': media types separated by commas, e.g. application/pdf,image/*",
    },
  ],
  [
    'x:string:pattern=(',
    {
      error:
        "Invalid pattern in 'x:string:pattern=(': not a pattern RE2 can run (no lookaround or backreferences): error parsing regexp: missing closing ): `(`",
    },
  ],
  [
    'x:string:minLength=5:maxLength=4',
    { error: "minLength is above maxLength in 'x:string:minLength=5:maxLength=4'" },
  ],
  ['x:integer:min=5:max=4', { error: "min is above max in 'x:integer:min=5:max=4'" }],
  [
    'x:string:=5',
    {
      error:
        "Malformed field spec 'x:string:=5': expected <name>:<type>[:required][:unique][:<rule>=<value>]…",
    },
  ],
  [
    'x:string:required=1',
    {
      error:
        "Unknown rule 'required' in 'x:string:required=1': use format, minLength, maxLength, oneOf, pattern, min, max, maxSize, accept, unique",
    },
  ],
  [
    'cf-turnstile-response:string',
    { error: "'cf-turnstile-response' is reserved for the Turnstile token, which is never stored" },
  ],
];

const SIZES: [string, number | null][] = [
  ['5MB', 5000000],
  ['5 mb', 5000000],
  ['500kB', 500000],
  ['1.5MiB', 1572864],
  ['2GB', 2000000000],
  ['1KiB', 1024],
  ['10', 10],
  ['0', null],
  ['0.4', null],
  ['1e3', null],
  ['MB', null],
  [' 7 B ', 7],
];

const JSON_FIELDS: [string, unknown, unknown][] = [
  [
    'f',
    { type: 'string', rules: { format: 'email' } },
    { name: 'f', type: 'string', required: false, rules: { format: 'email' } },
  ],
  ['f', { type: 'string', required: 'yes' }, { error: "'required' is true or false in field 'f'" }],
  [
    'f',
    { type: 'string', rules: [] },
    { error: "'rules' is an object of rules in field 'f', e.g. {\"maxLength\": 100}" },
  ],
  [
    'f',
    { type: 'string', color: 'red' },
    {
      error:
        "Unknown member 'color' in field 'f': use type, required, rules, label, help, placeholder, multiline, when, capture, step",
    },
  ],
  ['f', null, { error: 'A field is {"type": …, "required"?: true|false, "rules"?: {…}} in field \'f\'' }],
  [
    'f',
    ['string'],
    { error: 'A field is {"type": …, "required"?: true|false, "rules"?: {…}} in field \'f\'' },
  ],
  [
    'f',
    { type: 'file', rules: { maxSize: 2048, accept: ['application/pdf'] } },
    { name: 'f', type: 'file', required: false, rules: { maxSize: 2048, accept: ['application/pdf'] } },
  ],
  [
    'f',
    { type: 'string', rules: { oneOf: ['a', 1] } },
    { error: "Invalid oneOf in field 'f': give the allowed values, separated by |, none empty" },
  ],
  [
    'f',
    { type: 'string', rules: { oneOf: 'a' } },
    { error: "Invalid oneOf in field 'f': give the allowed values, separated by |, none empty" },
  ],
  [
    'f',
    { type: 'integer', rules: { min: null } },
    { error: "Invalid min 'null' in field 'f': a number, e.g. 0, -5, 0.01" },
  ],
  [
    'f',
    { type: 'string', rules: { pattern: 5 } },
    { error: "Invalid pattern in field 'f': a pattern is text" },
  ],
  [
    'f',
    { type: 'string', rules: { maxLength: '5' } },
    { error: "Invalid maxLength '5' in field 'f': a whole number from 0 to 1000000" },
  ],
  [
    'bad:name',
    { type: 'string' },
    { error: "Invalid field name 'bad:name': 1–100 characters without spaces or ':'" },
  ],
];

describe('C28: a field spec, case by case', () => {
  it.each(SPECS)('%s', (spec, expected) => {
    expect(outcome(() => parseFieldSpec(spec))).toEqual(expected);
  });

  it('a name given twice among several specs is refused', () => {
    expect(outcome(() => parseFieldSpecs(['a:string', 'b:string', 'a:integer']))).toEqual({
      error: "Field 'a' is given twice",
    });
    expect(parseFieldSpecs(['a:string', 'b:integer']).map((f) => f.name)).toEqual(['a', 'b']);
  });
});

describe('C30: a file size, as a person writes it', () => {
  it.each(SIZES)('%j', (text, bytes) => {
    expect(parseSize(text) ?? null).toBe(bytes);
  });
});

describe('C28: a field as JSON, case by case', () => {
  it.each(JSON_FIELDS)('%s %j', (name, input, expected) => {
    expect(outcome(() => fieldFromJson(name, input))).toEqual(expected);
  });
});
