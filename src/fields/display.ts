// C44: what a field shows a person (its label, help and placeholder) and the texts of a project's
// hosted page, each a map from a language tag to a text: `{"en": "Your email", "de": "Ihre
// E-Mail-Adresse"}`. One parse for the management API's JSON and the tool's `<lang>=<text>`
// options alike, so that both refuse bad input with the same sentence. Tags are stored as
// Intl.getCanonicalLocales writes them (`EN-us` → `en-US`), so that one language is one key.
import { InvalidInput } from '../lib/faults.ts';
import { codePoints } from './rules.ts';

/** A text in each of its languages, keyed by canonical BCP 47 tags, in the order given. */
export type TextMap = Record<string, string>;

/**
 * C44: what a field shows; each member absent when it has none. `multiline`: whether a string
 * field's control takes several lines (true) or one (false); `null` when its owner has not said.
 */
export type FieldDisplay = {
  label?: TextMap;
  help?: TextMap;
  placeholder?: TextMap;
  multiline?: boolean | null;
  /** C46: the step of a hosted page in steps it is on (1 to MAX_STEPS); `null` or absent: the first. */
  step?: number | null;
};
export const DISPLAY_MEMBERS = ['label', 'help', 'placeholder'] as const;
export type DisplayMember = (typeof DISPLAY_MEMBERS)[number];

/** The most languages one text may be given in. */
export const MAX_TEXT_LANGUAGES = 20;
/** The longest tag looked at: BCP 47 asks implementations for 35 characters; an extension may add some. */
const MAX_TAG_LENGTH = 64;

/** How one text is checked: what it is called in a sentence, its longest length, whether it takes line breaks. */
export type TextRule = { what: string; max: number; lines: boolean };

/** C44: the limits of what a field shows (in code points, as C28 counts lengths). */
export const DISPLAY_LIMITS: Record<DisplayMember, { max: number; lines: boolean }> = {
  label: { max: 200, lines: false },
  help: { max: 1000, lines: true },
  placeholder: { max: 200, lines: false },
};

const invalid = (message: string) => new InvalidInput(message);

// The control characters (U+0000–U+001F, DEL, U+0080–U+009F), the line and paragraph separators,
// and the bidirectional overrides and isolates, which make a text show other than it reads (on a
// page, in a generated module's comment). The marks (U+200E, U+200F) are kept: right-to-left text
// needs them, and they reorder nothing.
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

const codeOf = (ch: string) => `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** A tag as Intl writes it (`EN-us` → `en-US`, `iw` → `he`), or undefined when it is none. */
export function canonicalTag(tag: string): string | undefined {
  if (tag.length === 0 || tag.length > MAX_TAG_LENGTH) return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/** One language tag, canonical; `where` names what it is in (`in the label of field 'email'`). */
export function parseLanguageTag(tag: unknown, where: string): string {
  const canonical = typeof tag === 'string' ? canonicalTag(tag) : undefined;
  if (canonical === undefined) {
    throw invalid(`Invalid language tag '${String(tag)}' ${where}: a BCP 47 tag such as en, de or pt-BR`);
  }
  return canonical;
}

/** One text of a map: not empty, within its length, no control character (a line break where it takes them). */
function checkText(rule: TextRule, tag: string, value: unknown): string {
  if (typeof value !== 'string') throw invalid(`The ${rule.what} in '${tag}' is not text`);
  // A browser's text area sends CRLF: a line break is stored as LF alone.
  const text = rule.lines ? value.replace(/\r\n?/g, '\n') : value;
  if (text.trim() === '') throw invalid(`The ${rule.what} in '${tag}' is empty: leave the language out`);
  const length = codePoints(text);
  if (length > rule.max) {
    throw invalid(`The ${rule.what} in '${tag}' is ${length} characters: at most ${rule.max}`);
  }
  for (const ch of text) {
    if (ch === '\n' && rule.lines) continue;
    if (CONTROL.test(ch)) {
      const why = ch === '\n' ? 'it is one line' : 'no control characters';
      throw invalid(`The ${rule.what} in '${tag}' holds ${codeOf(ch)}: ${why}`);
    }
  }
  return text;
}

/**
 * C44: a text in its languages, from its entries as given (a JSON object's, or the tool's
 * `<lang>=<text>` options'): every tag canonical and given once, at most MAX_TEXT_LANGUAGES of them,
 * each text checked by `rule`. An empty map is none: `{}`.
 */
export function parseTextEntries(entries: readonly (readonly [string, unknown])[], rule: TextRule): TextMap {
  if (entries.length > MAX_TEXT_LANGUAGES) {
    throw invalid(`The ${rule.what} is given in ${entries.length} languages: at most ${MAX_TEXT_LANGUAGES}`);
  }
  const out: TextMap = {};
  for (const [given, value] of entries) {
    const tag = parseLanguageTag(given, `in the ${rule.what}`);
    if (Object.hasOwn(out, tag)) throw invalid(`The ${rule.what} is given twice in '${tag}'`);
    out[tag] = checkText(rule, tag, value);
  }
  return out;
}

/** C44: a text map as JSON gives it: an object of tags and texts; `null` or `{}` is none. */
export function parseTextMap(input: unknown, rule: TextRule): TextMap {
  if (input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw invalid(`The ${rule.what} is an object of language tags and texts, e.g. {"en": "…", "de": "…"}`);
  }
  return parseTextEntries(Object.entries(input), rule);
}

/** C44: the tool's `--label en=Your email`, each split at its first `=`, as the entries of a map. */
export function textOptions(options: readonly string[], rule: TextRule): TextMap {
  return parseTextEntries(
    options.map((option) => {
      const eq = option.indexOf('=');
      if (eq <= 0)
        throw invalid(`Give the ${rule.what} as <language>=<text>, e.g. en=Hello: not '${option}'`);
      return [option.slice(0, eq), option.slice(eq + 1)] as const;
    }),
    rule,
  );
}

/** The rule of a field's label, help or placeholder, named for the field. */
export const displayRule = (member: DisplayMember, field: string): TextRule => ({
  what: `${member} of field '${field}'`,
  ...DISPLAY_LIMITS[member],
});

/**
 * C44: `multiline` as given: true or false for a string field that is not a list of choices (a
 * list or a number has no lines to choose), `null` for "not said" (more than 200 characters
 * allowed then takes several lines), absent when not given (a replaced field keeps it).
 */
export function parseMultiline(
  field: string,
  value: unknown,
  of: { type: string; rules?: { oneOf?: unknown } | undefined },
): boolean | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value !== 'boolean') {
    throw invalid(`'multiline' is true, false or null in field '${field}'`);
  }
  if (of.type !== 'string' || of.rules?.oneOf !== undefined) {
    const what =
      of.type === 'string' ? 'a list of choices' : `${of.type === 'integer' ? 'an' : 'a'} ${of.type} field`;
    throw invalid(`'multiline' is for a text field: '${field}' is ${what}`);
  }
  return value;
}

/** C46: the most steps a hosted page has. */
export const MAX_STEPS = 20;

/**
 * C46: `step` as given: a whole number from 1 to MAX_STEPS, `null` for the first (as not said),
 * absent when not given (a replaced field keeps it).
 */
export function parseStep(field: string, value: unknown): number | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_STEPS) {
    throw invalid(
      `'step' is a whole number from 1 to ${MAX_STEPS} in field '${field}': not ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * C44: the members of what a field shows that `given` holds (a JSON body's, or the tool's options
 * made into maps), each checked; a member absent stays absent (a replaced field keeps it), `null`
 * or `{}` is an empty map (none).
 */
export function parseFieldDisplay(
  field: string,
  given: Partial<Record<DisplayMember, unknown>>,
): FieldDisplay {
  const out: FieldDisplay = {};
  for (const member of DISPLAY_MEMBERS) {
    const value = given[member];
    if (value !== undefined) out[member] = parseTextMap(value, displayRule(member, field));
  }
  return out;
}

/** What a field shows, without the members given as none (an empty map, `multiline` not said). */
export function withoutEmpty<T extends FieldDisplay>(def: T): T {
  const out = { ...def };
  for (const member of DISPLAY_MEMBERS) {
    const map = out[member];
    if (map !== undefined && Object.keys(map).length === 0) delete out[member];
  }
  if (out.multiline === null) delete out.multiline;
  // C46: the first step is every field's unless it says another.
  if (out.step === null || out.step === 1) delete out.step;
  return out;
}

/** A stored map (JSON text, NULL when none) as a map. */
export const storedTextMap = (text: string | null): TextMap =>
  text === null ? {} : (JSON.parse(text) as TextMap);

/** A map as it is stored: JSON, or NULL when it is empty (an empty map is none). */
export const textMapColumn = (map: TextMap): string | null =>
  Object.keys(map).length === 0 ? null : JSON.stringify(map);

/**
 * C44: a text in the project's default language: the page's first language, else `en`, else the
 * first the text has; undefined when it has none.
 */
export function textIn(map: TextMap | undefined, language: string): string | undefined {
  if (map === undefined) return undefined;
  const own = (tag: string) => (Object.hasOwn(map, tag) ? map[tag] : undefined);
  return own(language) ?? own('en') ?? Object.values(map)[0];
}
