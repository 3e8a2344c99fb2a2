// C43: the fixed part of a generated module (generate.ts): the validator that reads the project's
// field table and judges a value as the worker does (validation.ts, rules.ts, steps.ts' empty
// body). It is TypeScript text, not code of ours: it runs in the site's own page or server, with no
// import and no dependency. test/node/generate-properties.test.ts holds it to the worker's verdicts,
// messages, codes and parameters; test/node/generate.test.ts type-checks it under strict settings.
//
// Where the worker's own code cannot be copied as it is, the text says how it stands in:
// - `url` parses with the runtime's own URL class (WHATWG, as workerd's); `date` and `date-time`
//   are lib/time.ts's, line for line; lengths count code points, as rules.ts does.
// - A pattern runs on JavaScript's RegExp with the `u` flag, not on RE2: the two agree on the
//   syntax RE2 admits but for `\s` (RE2: ASCII space only), `.` (RE2 stops at `\n` alone, JavaScript
//   at `\r`, U+2028 and U+2029 too), `(?i)`-style flags and `\pN`/`[[:alpha:]]` classes; a pattern
//   JavaScript cannot compile is left unchecked here (its rule says so), never guessed at.
// - A file is a File or Blob; its `size` and its `type` as the browser reports it, where the worker
//   judges the type from the bytes it receives (C30).
// - An integer is judged on the number; the worker also refuses `1.0` or `1e3` written in JSON
//   text (C13), which no JavaScript value can carry.
// - A key whose value is `undefined` is no key, as JSON.stringify leaves it out of what is sent.

export const RUNTIME = `
export type IssueCode =
  | 'not_an_object'
  | 'empty_submission'
  | 'type'
  | 'unknown_field'
  | 'required'
  | 'format'
  | 'min_length'
  | 'max_length'
  | 'min'
  | 'max'
  | 'one_of'
  | 'pattern'
  | 'file_size'
  | 'file_type';

/** A problem, as the worker reports it in data.errors (message) and data.issues (code, params). */
export type Issue = {
  readonly message: string;
  readonly path: readonly { readonly key: string }[];
  readonly code: IssueCode;
  readonly params?: Readonly<Record<string, unknown>>;
};

/** Standard Schema v1's result (https://standardschema.dev), declared here to need no import. */
export type Result =
  | { readonly value: Submission; readonly issues?: undefined }
  | { readonly issues: readonly Issue[] };

type Format = 'email' | 'url' | 'date' | 'date-time' | 'uuid';
type Rule =
  | { readonly code: 'format'; readonly params: { readonly format: Format }; readonly message: string }
  | { readonly code: 'min_length'; readonly params: { readonly min: number }; readonly message: string }
  | { readonly code: 'max_length'; readonly params: { readonly max: number }; readonly message: string }
  | { readonly code: 'min'; readonly params: { readonly min: number }; readonly message: string }
  | { readonly code: 'max'; readonly params: { readonly max: number }; readonly message: string }
  | { readonly code: 'one_of'; readonly params: { readonly values: readonly string[] }; readonly message: string }
  | { readonly code: 'pattern'; readonly pattern: RegExp | null; readonly message: string }
  | { readonly code: 'file_size'; readonly params: { readonly max: number }; readonly message: string }
  | { readonly code: 'file_type'; readonly params: { readonly types: readonly string[] }; readonly message: string };
type Compared = string | number | boolean;
/** C45: when a field applies, by the values of the fields before it. */
type Condition =
  | { readonly field: string; readonly equals: Compared }
  | { readonly field: string; readonly oneOf: readonly Compared[] }
  | { readonly field: string; readonly filled: boolean }
  | { readonly all: readonly Condition[] }
  | { readonly any: readonly Condition[] }
  | { readonly not: Condition };
type Field = {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'file';
  readonly required: boolean;
  readonly typeMessage: string;
  readonly requiredMessage: string;
  readonly rules: readonly Rule[];
  readonly when?: Condition;
};

const TYPES: Record<Field['type'], (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => typeof value === 'number' && Number.isSafeInteger(value),
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  file: (value) => typeof Blob !== 'undefined' && value instanceof Blob,
};

function isDate(text: string): boolean {
  const m = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(text);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function isDateTime(text: string): boolean {
  const m = /^(\\d{4}-\\d{2}-\\d{2})[Tt](\\d{2}):(\\d{2}):(\\d{2})(\\.\\d+)?([Zz]|[+-](\\d{2}):(\\d{2}))$/.exec(text);
  if (m === null || !isDate(m[1] ?? '')) return false;
  const [h, mi, s] = [Number(m[2]), Number(m[3]), Number(m[4])];
  const offsetOk = m[7] === undefined || (Number(m[7]) < 24 && Number(m[8]) < 60);
  return h < 24 && mi < 60 && s <= 60 && offsetOk;
}

function isHttpUrl(text: string): boolean {
  if (text === '') return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
}

const FORMATS: Record<Format, (text: string) => boolean> = {
  email: (text) => EMAIL.test(text),
  url: isHttpUrl,
  date: isDate,
  'date-time': isDateTime,
  uuid: (text) => UUID.test(text),
};

/** HTML, SVG, XML and scripts: a wildcard (image/*) never admits them, their own type alone does. */
function scriptCapable(type: string): boolean {
  const media = (type.split(';')[0] ?? '').trim().toLowerCase();
  return (
    /^(?:text\\/html|application\\/xml|text\\/xml|[a-z0-9.+-]+\\/[a-z0-9.+-]*\\+xml)$/.test(media) ||
    /^(?:text|application)\\/(?:x-)?(?:javascript|ecmascript)$/.test(media)
  );
}

function accepts(accept: readonly string[], type: string): boolean {
  const [major] = type.split('/');
  const wildcard = !scriptCapable(type);
  return accept.some((a) => a === type || (wildcard && a.endsWith('/*') && a.slice(0, -2) === major));
}

/** Lengths count code points: an emoji is one character. */
const codePoints = (text: string): number => Array.from(text).length;

function passes(rule: Rule, value: unknown): boolean {
  switch (rule.code) {
    case 'format':
      return FORMATS[rule.params.format](value as string);
    case 'min_length':
      return codePoints(value as string) >= rule.params.min;
    case 'max_length':
      return codePoints(value as string) <= rule.params.max;
    case 'min':
      return (value as number) >= rule.params.min;
    case 'max':
      return (value as number) <= rule.params.max;
    case 'one_of':
      return rule.params.values.includes(value as string);
    case 'pattern': {
      const text = value as string;
      return rule.pattern === null || (text.length <= MAX_PATTERN_INPUT && rule.pattern.test(text));
    }
    case 'file_size':
      return (value as Blob).size <= rule.params.max;
    case 'file_type':
      return accepts(rule.params.types, (value as Blob).type);
  }
}

const issue = (key: string, code: IssueCode, message: string, params?: Readonly<Record<string, unknown>>): Issue =>
  params === undefined ? { message, path: [{ key }], code } : { message, path: [{ key }], code, params };

const BY_NAME: ReadonlyMap<string, Field> = new Map(FIELDS.map((field) => [field.name, field]));
const IGNORED_NAMES: ReadonlySet<string> = new Set(IGNORED);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function holds(c: Condition, values: ReadonlyMap<string, unknown>): boolean {
  if ('all' in c) return c.all.every((part) => holds(part, values));
  if ('any' in c) return c.any.some((part) => holds(part, values));
  if ('not' in c) return !holds(c.not, values);
  const value = values.get(c.field);
  if ('filled' in c) return (value !== undefined && value !== null && value !== '') === c.filled;
  if ('equals' in c) return value === c.equals;
  return c.oneOf.includes(value as Compared);
}

/** The fields that do not apply: in order, each whose condition fails on the fields before it that do. */
function inactiveFields(sent: ReadonlyMap<string, unknown>): ReadonlySet<string> {
  const values = new Map<string, unknown>();
  const inactive = new Set<string>();
  for (const field of FIELDS) {
    if (field.when !== undefined && !holds(field.when, values)) {
      inactive.add(field.name);
      continue;
    }
    if (sent.has(field.name)) values.set(field.name, sent.get(field.name));
  }
  return inactive;
}

function validate(value: unknown): Result {
  if (!isPlainObject(value)) {
    return { issues: [{ message: 'Request body must be a JSON object', path: [], code: 'not_an_object' }] };
  }
  const empty: Result = { issues: [{ message: 'Submission has no fields', path: [], code: 'empty_submission' }] };
  // The widget's and Turnstile's fields (and the honeypot) are never fields: the worker takes them out.
  const sent = Object.entries(value).filter(([name, v]) => v !== undefined && !IGNORED_NAMES.has(name));
  if (sent.length === 0) return empty;
  const issues: Issue[] = [];
  const kept: [string, unknown][] = [];
  // A field whose condition does not hold is neither judged nor kept, nor required.
  const inactive = inactiveFields(new Map(sent));
  for (const [name, v] of sent) {
    if (inactive.has(name)) continue;
    const field = BY_NAME.get(name);
    if (field === undefined) {
      if (UNKNOWN_FIELDS === 'reject') issues.push(issue(name, 'unknown_field', unknownMessage(name)));
      continue;
    }
    if (!TYPES[field.type](v)) {
      issues.push(issue(name, 'type', field.typeMessage, { type: field.type }));
      continue;
    }
    const before = issues.length;
    for (const rule of field.rules) {
      if (!passes(rule, v)) issues.push(issue(name, rule.code, rule.message, 'params' in rule ? rule.params : undefined));
    }
    if (issues.length === before) kept.push([name, v]);
  }
  const names = new Set(sent.map(([name]) => name));
  for (const field of FIELDS) {
    if (field.required && !names.has(field.name) && !inactive.has(field.name))
      issues.push(issue(field.name, 'required', field.requiredMessage));
  }
  if (issues.length > 0) return { issues };
  if (kept.length === 0) return empty;
  return { value: Object.fromEntries(kept) as Submission };
}

/** Standard Schema v1: any library that takes one (a form library, a router) can use it. */
export const schema: {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'edge-forms';
    readonly validate: (value: unknown) => Result;
    readonly types?: { readonly input: unknown; readonly output: Submission } | undefined;
  };
} = { '~standard': { version: 1, vendor: 'edge-forms', validate } };
`;
