// C28: a project's submission as JSON Schema (2020-12): each field's type and its rules, with the
// matching keywords, for a site's own tooling (`forms project schema <project>`); C44: its label as
// `title` and its help as `description`, in the project's default language.
import type { FieldRules, Format, UnknownFieldPolicy } from './catalogue.ts';
import type { Condition } from './conditions.ts';
import { textIn } from './display.ts';
import type { FieldDef } from './validation.ts';

type Json = Record<string, unknown>;

const FORMAT_KEYWORD: Record<Format, string> = {
  email: 'email',
  url: 'uri',
  date: 'date',
  'date-time': 'date-time',
  uuid: 'uuid',
};

const SAFE = Number.MAX_SAFE_INTEGER;

function ruleKeywords(rules: FieldRules | undefined): Json {
  if (rules === undefined) return {};
  const out: Json = {};
  if (rules.format !== undefined) out.format = FORMAT_KEYWORD[rules.format];
  // JSON Schema counts string lengths in code points too, as C28 does.
  if (rules.minLength !== undefined) out.minLength = rules.minLength;
  if (rules.maxLength !== undefined) out.maxLength = rules.maxLength;
  if (rules.min !== undefined) out.minimum = rules.min;
  if (rules.max !== undefined) out.maximum = rules.max;
  if (rules.oneOf !== undefined) out.enum = rules.oneOf;
  if (rules.pattern !== undefined) out.pattern = rules.pattern;
  return out;
}

/**
 * C44: the label and help in the project's default language (the hosted page's first language);
 * a file field's help replaces the note on how a file is sent.
 */
function texts(def: FieldDef, language: string): Json {
  const title = textIn(def.label, language);
  const description = textIn(def.help, language);
  return {
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
  };
}

export function fieldJsonSchema(def: FieldDef, language = 'en'): Json {
  return { ...typeKeywords(def), ...texts(def, language) };
}

function typeKeywords(def: FieldDef): Json {
  switch (def.type) {
    case 'string':
      return { type: 'string', ...ruleKeywords(def.rules) };
    case 'boolean':
      return { type: 'boolean' };
    case 'number':
      return { type: 'number', ...ruleKeywords(def.rules) };
    case 'integer':
      // C13: within ±(2^53−1); a rule's bound applies where it is tighter.
      return {
        type: 'integer',
        minimum: Math.max(-SAFE, def.rules?.min ?? -SAFE),
        maximum: Math.min(SAFE, def.rules?.max ?? SAFE),
      };
    // C30: a file is sent only as multipart to the HTML form endpoint; no JSON value is one, so
    // the JSON endpoint accepts nothing for it.
    case 'file':
      return {
        not: {},
        description: 'a file: send it as multipart/form-data to the form endpoint (POST /f/<form-id>)',
      };
  }
}

/**
 * C45: a condition as a schema an object matches when it holds. A field it names counts only while
 * that field applies itself (a field that does not is absent to the conditions after it), so a
 * test of a conditional field carries that field's own condition.
 */
function conditionSchema(c: Condition, byName: ReadonlyMap<string, FieldDef>): Json {
  if ('all' in c) return { allOf: c.all.map((p) => conditionSchema(p, byName)) };
  if ('any' in c) return { anyOf: c.any.map((p) => conditionSchema(p, byName)) };
  if ('not' in c) return { not: conditionSchema(c.not, byName) };
  const own = byName.get(c.field)?.when;
  const test =
    'filled' in c
      ? { required: [c.field], properties: { [c.field]: { not: { const: '' } } } }
      : {
          required: [c.field],
          properties: { [c.field]: 'equals' in c ? { const: c.equals } : { enum: c.oneOf } },
        };
  const there = own === undefined ? test : { allOf: [conditionSchema(own, byName), test] };
  return 'filled' in c && !c.filled ? { not: there } : there;
}

/** `language`: C44, the project's default language, which titles and descriptions are in. */
export function submissionJsonSchema(
  defs: readonly FieldDef[],
  unknownFields: UnknownFieldPolicy,
  language = 'en',
): Json {
  const byName = new Map(defs.map((d) => [d.name, d]));
  // C45: a field that applies only when its condition holds is checked (and required) only then;
  // otherwise the worker ignores what is sent for it, and so does the schema.
  const conditional = defs.filter((d) => d.when !== undefined);
  const rules = conditional.map((d) => ({
    if: conditionSchema(d.when as Condition, byName),
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword
    then: {
      properties: { [d.name]: fieldJsonSchema(d, language) },
      ...(d.required ? { required: [d.name] } : {}),
    },
  }));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    minProperties: 1,
    properties: Object.fromEntries(
      defs.map((d) => [d.name, d.when === undefined ? fieldJsonSchema(d, language) : texts(d, language)]),
    ),
    required: defs.filter((d) => d.required && d.when === undefined).map((d) => d.name),
    // C13: `reject` refuses fields the project does not define; `discard` drops them.
    additionalProperties: unknownFields === 'discard',
    ...(rules.length === 0 ? {} : { allOf: rules }),
  };
}
