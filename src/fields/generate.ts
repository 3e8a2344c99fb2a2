// C43: a project's fields as one self-contained TypeScript module for a site's own code: the type of
// a submission, its JSON Schema, and a Standard Schema v1 validator that judges exactly as the
// worker does, with its messages, codes and parameters (`forms types`, the dashboard's Embed
// screen). The module imports nothing: the fixed validator (generated-runtime.ts) reads a table of
// the fields whose messages are the worker's own functions' output, and whose email and UUID
// expressions are valibot's, so neither can drift from what the worker says.
import { EMAIL_REGEX, UUID_REGEX } from 'valibot';
import type { IssueCode } from '../lib/codes.ts';
import { safeJson, shown } from '../lib/printable.ts';
import {
  type FieldRules,
  MAX_PATTERN_INPUT,
  RESERVED_FIELDS,
  RULES_OF,
  type UnknownFieldPolicy,
} from './catalogue.ts';
import { textIn } from './display.ts';
import { RUNTIME } from './generated-runtime.ts';
import { submissionJsonSchema } from './json-schema.ts';
import {
  acceptError,
  formatError,
  maxError,
  maxLengthError,
  maxSizeError,
  minError,
  minLengthError,
  oneOfError,
  patternError,
} from './rules.ts';
import { type FieldDef, requiredError, typeError, unknownError } from './validation.ts';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A string literal: JSON's, with every character a terminal or an editor could act on (controls,
 * line separators, bidirectional overrides) written as its `\u` escape (C19): the same string.
 */
const text = (value: string) => safeJson(JSON.stringify(value));

/** A key of an object literal: `__proto__` computed, so that it stays an own property (C13). */
function key(name: string): string {
  if (name === '__proto__') return '["__proto__"]';
  return IDENTIFIER.test(name) ? name : text(name);
}

/** A JSON-like value as a TypeScript literal, on one line, or pretty with `indent`. */
function literal(value: unknown, indent?: string): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : JSON.stringify(value);
  if (typeof value === 'string') return text(value);
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const scalars = Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null);
  const inner = indent === undefined || scalars ? undefined : `${indent}  `;
  const items = Array.isArray(value)
    ? value.map((v) => literal(v, inner))
    : Object.entries(value).map(([k, v]) => `${key(k)}: ${literal(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return `${open}${close}`;
  if (inner === undefined) return Array.isArray(value) ? `[${items.join(', ')}]` : `{ ${items.join(', ')} }`;
  return `${open}\n${items.map((item) => `${inner}${item},`).join('\n')}\n${indent}${close}`;
}

// The control, line-separating and bidirectional characters a literal must never carry raw (C19).
const UNSAFE_IN_SOURCE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * A regular expression as a literal (`/…/u`), as a site's lint asks: its source as RegExp writes
 * it (slashes and line breaks escaped), any character a literal must not carry raw as `\u{…}`
 * (which a `u` expression reads as the same character).
 */
function regexLiteral(re: RegExp): string {
  const source = re.source.replace(UNSAFE_IN_SOURCE, (ch) => `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`);
  return `/${source}/${re.flags}`;
}

/** Whether JavaScript's RegExp (with `u`) can compile a pattern RE2 took. */
function runsInJs(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** A field's rules as the validator's table holds them, in RULES_OF order (C28). */
function ruleLines(def: FieldDef): string[] {
  const { name } = def;
  const rules: FieldRules = def.rules ?? {};
  const out: string[] = [];
  const add = (code: IssueCode, message: string, params: Record<string, unknown>) =>
    out.push(literal({ code, params, message }));
  for (const rule of RULES_OF[def.type]) {
    if (rule === 'format' && rules.format !== undefined)
      add('format', formatError(name, rules.format), { format: rules.format });
    if (rule === 'minLength' && rules.minLength !== undefined)
      add('min_length', minLengthError(name, rules.minLength), { min: rules.minLength });
    if (rule === 'maxLength' && rules.maxLength !== undefined)
      add('max_length', maxLengthError(name, rules.maxLength), { max: rules.maxLength });
    if (rule === 'min' && rules.min !== undefined) add('min', minError(name, rules.min), { min: rules.min });
    if (rule === 'max' && rules.max !== undefined) add('max', maxError(name, rules.max), { max: rules.max });
    if (rule === 'oneOf' && rules.oneOf !== undefined)
      add('one_of', oneOfError(name, rules.oneOf), { values: rules.oneOf });
    if (rule === 'pattern' && rules.pattern !== undefined) {
      const message = literal(patternError(name));
      if (runsInJs(rules.pattern)) {
        out.push(
          `{ code: "pattern", pattern: ${regexLiteral(new RegExp(rules.pattern, 'u'))}, message: ${message} }`,
        );
      } else {
        out.push(
          `// JavaScript cannot compile this RE2 pattern: it is not checked here (the worker checks it).\n{ code: "pattern", pattern: null, message: ${message} }`,
        );
      }
    }
    if (rule === 'maxSize' && rules.maxSize !== undefined)
      add('file_size', maxSizeError(name, rules.maxSize), { max: rules.maxSize });
    if (rule === 'accept' && rules.accept !== undefined)
      add('file_type', acceptError(name, rules.accept), { types: rules.accept });
  }
  return out;
}

function fieldEntry(def: FieldDef): string {
  const rules = ruleLines(def);
  const lines = [
    `name: ${literal(def.name)},`,
    `type: ${literal(def.type)},`,
    `required: ${def.required},`,
    `typeMessage: ${literal(typeError(def.name, def.type))},`,
    `requiredMessage: ${literal(requiredError(def.name))},`,
    rules.length === 0
      ? 'rules: [],'
      : `rules: [\n${rules.map((r) => `${r.replace(/^/gm, '      ')},`).join('\n')}\n    ],`,
    // C45: when it applies.
    ...(def.when === undefined ? [] : [`when: ${literal(def.when)},`]),
  ];
  return `  {\n${lines.map((l) => `    ${l}`).join('\n')}\n  },`;
}

const TS_TYPE = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  file: 'File | Blob',
};

/** A field's TypeScript type: a `oneOf` string is the union of its values. */
function tsType(def: FieldDef): string {
  const values = def.type === 'string' ? def.rules?.oneOf : undefined;
  return values !== undefined && values.length > 0
    ? values.map((v) => literal(v)).join(' | ')
    : TS_TYPE[def.type];
}

/**
 * C44: the field's label and help (in the project's default language) as the JSDoc comment of its
 * member, which an editor shows. No text can end the comment (a star and a slash are written
 * with a backslash between them) or move the code around it: every control character, line
 * separator and bidirectional override is written as its escape.
 */
function jsDoc(def: FieldDef, language: string): string[] {
  const label = textIn(def.label, language);
  const help = textIn(def.help, language);
  const paragraphs = [label, help].filter((t): t is string => t !== undefined);
  if (paragraphs.length === 0) return [];
  const lines = paragraphs.join('\n\n').split('\n');
  const safe = (line: string) => shown(line).replace(/\*\//g, '*\\/');
  return ['  /**', ...lines.map((line) => `   * ${safe(line)}`.trimEnd()), '   */'];
}

/**
 * The JSON Schema as a literal. C45: its `then` keywords (a condition's) carry a suppression of
 * Biome's rule against a `then` member, which is there for promises: a site's lint passes.
 */
const schemaLiteral = (schema: unknown) =>
  literal(schema, '').replace(
    /^( *)then: /gm,
    "$1// biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword\n$1then: ",
  );

const memberName = (name: string) => (IDENTIFIER.test(name) && name !== '__proto__' ? name : text(name));

/** The values a field can take when they are few: a boolean's two, a `oneOf` string's list. */
function domainOf(def: FieldDef | undefined): readonly (string | boolean)[] | undefined {
  if (def?.type === 'boolean') return [true, false];
  return def?.type === 'string' ? def.rules?.oneOf : undefined;
}

/**
 * C45: a field whose condition is `equals` or `oneOf` on a boolean or a choice before it, as a
 * union: the values under which it applies (and it is there as declared), or the others (and it
 * is not), so that \`tsc\` refuses \`business: true\` without \`company\`. Any other condition
 * leaves the field optional.
 */
function conditionalUnion(def: FieldDef, byName: ReadonlyMap<string, FieldDef>): string | undefined {
  const c = def.when;
  if (c === undefined || !('field' in c) || 'filled' in c) return undefined;
  const on = byName.get(c.field);
  const domain = domainOf(on);
  if (on === undefined || domain === undefined) return undefined;
  const chosen = 'equals' in c ? [c.equals] : c.oneOf;
  const others = domain.filter((v) => !chosen.includes(v));
  const union = (values: readonly unknown[]) => values.map((v) => literal(v)).join(' | ');
  const control = memberName(on.name);
  const self = memberName(def.name);
  const applies = `{ ${control}: ${union(chosen)}; ${self}${def.required ? '' : '?'}: ${tsType(def)} }`;
  // Absent, the controlling field says no: its condition fails, and so the field does not apply.
  const not = `{ ${control}${on.required ? '' : '?'}: ${union(others)}; ${self}?: never }`;
  return others.length === 0 ? applies : `(${applies} | ${not})`;
}

function submissionType(defs: readonly FieldDef[], language: string): string {
  if (defs.length === 0) return 'export type Submission = Record<string, never>;';
  const members = defs.map((d) => {
    // C45: a field that may not apply is optional here; a union below says when it is there.
    const optional = !d.required || d.when !== undefined;
    return [...jsDoc(d, language), `  ${memberName(d.name)}${optional ? '?' : ''}: ${tsType(d)};`].join('\n');
  });
  const byName = new Map(defs.map((d) => [d.name, d]));
  const unions = defs.flatMap((d) => conditionalUnion(d, byName) ?? []);
  return `export type Submission = {\n${members.join('\n')}\n}${unions.map((u) => ` &\n  ${u}`).join('')};`;
}

/** `Field '…' is not defined for this project`, as a function of the name, cut from the worker's own text. */
function unknownMessageSource(): string {
  const mark = '\u0000';
  const [before = '', after = ''] = unknownError(mark).split(mark);
  // A template, as a site's lint asks; the worker's text has no backquote, `${` or backslash.
  const quoted = (part: string) => part.replace(/[`\\]|\$\{/g, (m) => `\\${m}`);
  return `const unknownMessage = (name: string): string => \`${quoted(before)}\${name}${quoted(after)}\`;`;
}

export type GenerateOptions = {
  /** Named in the module's first line. */
  project?: string;
  /** C22: the project's honeypot, taken out of a body as the worker takes it. */
  honeypot?: string | null;
  /** C44: the project's default language (its hosted page's first), for labels and help; `en` unless said. */
  language?: string | undefined;
};

/** The module's text (C43): types, the JSON Schema (`fields`) and the validator (`schema`). */
export function generateModule(
  defs: readonly FieldDef[],
  unknownFields: UnknownFieldPolicy,
  options: GenerateOptions = {},
): string {
  const ignored = [...RESERVED_FIELDS, ...(options.honeypot ? [options.honeypot] : [])];
  const regex = regexLiteral;
  const language = options.language ?? 'en';
  return [
    `// The fields of ${options.project === undefined ? 'a project' : `project ${options.project}`} of edge-forms, generated by \`forms types\`: do not edit, generate again`,
    '// when they change. `Submission` is what a valid submission holds, `fields` its JSON Schema, and',
    "// `schema` a Standard Schema v1 validator that judges as the worker does, with the worker's messages",
    '// and codes. Self-contained: no import, no dependency.',
    ...(defs.some((d) => d.rules?.unique === true)
      ? [
          `// ${defs
            .filter((d) => d.rules?.unique === true)
            .map((d) => JSON.stringify(d.name))
            .join(', ')} must be unique: only the worker can judge that, against what it has stored (C45).`,
        ]
      : []),
    '',
    submissionType(defs, language),
    '',
    '/** The submission as JSON Schema (2020-12), as `forms project schema` prints it. */',
    `export const fields = ${schemaLiteral(submissionJsonSchema(defs, unknownFields, language))} as const;`,
    '',
    "// The fields as the validator reads them; every message is the worker's own.",
    `const UNKNOWN_FIELDS: 'reject' | 'discard' = ${literal(unknownFields)};`,
    `const IGNORED: readonly string[] = ${literal(ignored)};`,
    `const EMAIL = ${regex(EMAIL_REGEX)};`,
    `const UUID = ${regex(UUID_REGEX)};`,
    `const MAX_PATTERN_INPUT = ${MAX_PATTERN_INPUT};`,
    unknownMessageSource(),
    `const FIELDS: readonly Field[] = [\n${defs.map(fieldEntry).join('\n')}\n];`,
    RUNTIME,
  ].join('\n');
}
