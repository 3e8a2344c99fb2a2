// @edge-forms/client/messages: a visitor's sentence for every issue of a field (C43) and for the
// single causes a visitor can meet, in nine languages. `MESSAGES` is the catalogue as plain data
// (language → code → template), each template whole (its label's wording put in), so that one
// language's part can be served as JSON and filled by `fill` alone.

import type { MessageCode, Templates } from './catalogue/codes.ts';
import { de } from './catalogue/de.ts';
import { en } from './catalogue/en.ts';
import { es } from './catalogue/es.ts';
import { fr } from './catalogue/fr.ts';
import { it } from './catalogue/it.ts';
import { ja } from './catalogue/ja.ts';
import { nl } from './catalogue/nl.ts';
import { pl } from './catalogue/pl.ts';
import { pt } from './catalogue/pt.ts';
import { lacksParameter, localeOf, templateOf } from './choose.ts';
import { fill } from './fill.ts';

export type { CauseCode, IssueCode, MessageCode } from './catalogue/codes.ts';
export { fill };

const SOURCES = { en, de, fr, es, it, nl, pl, pt, ja };

export type Language = keyof typeof SOURCES;
export const LANGUAGES: Language[] = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'ja'];

/** One language's whole templates: `{label}` stands for the language's wording of the field's name. */
function compose({ label, ...templates }: Templates): Record<MessageCode, string> {
  return Object.fromEntries(
    Object.entries(templates).map(([code, template]) => [code, template.replace(/\{label\}/g, () => label)]),
  ) as Record<MessageCode, string>;
}

const catalogue = () =>
  Object.fromEntries(LANGUAGES.map((lang) => [lang, compose(SOURCES[lang])])) as Record<
    Language,
    Record<MessageCode, string>
  >;

// Pure, for a bundler: a page that imports `fill` alone carries none of the catalogue.
export const MESSAGES = /* @__PURE__ */ catalogue();

/** The catalogue's language for a BCP 47 tag: `de-AT` is `de`, `pt-BR` is `pt`; any other is `en`. */
export function language(tag: string | undefined): Language {
  const base = (tag ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  return (LANGUAGES as string[]).includes(base) ? (base as Language) : 'en';
}

/**
 * A sentence for the visitor in `lang`: for a field's issue (`label` is the field's visible label,
 * or its name; without one, the sentence says "this field"), or for a single cause. A code the
 * catalogue does not know, or an issue without the parameters its sentence needs, gets the general
 * sentence: `invalid` for a field (when a label is given), `unknown` otherwise.
 */
export function message(
  code: string,
  params: Record<string, unknown> | undefined,
  lang: string | undefined,
  label?: string,
): string {
  const base = language(lang);
  const templates = MESSAGES[base];
  let template = templateOf(templates, code) ?? templates[label === undefined ? 'unknown' : 'invalid'];
  if (lacksParameter(template, params)) template = templates.invalid;
  return fill(template, params, localeOf(lang, base), label);
}
