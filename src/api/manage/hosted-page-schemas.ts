// C44: the management API's schemas of a project's hosted page: the settings a change gives, a
// text in its languages (a field's label, help and placeholder are ones too), and the preview's
// query. Each is checked again by the operation, with the sentence the tool prints.
import * as v from 'valibot';
import { PAGE_THEMES } from '../../../schema/tables.ts';
import { MAX_STEPS, MAX_TEXT_LANGUAGES } from '../../fields/display.ts';
import { described, known } from '../../http/query-values.ts';
import { DEFAULT_ACCENT, MAX_PAGE_LANGUAGES, PAGE_TEXTS } from '../../ops/hosted-page.ts';

const nullable = <S extends v.GenericSchema>(s: S) => v.optional(v.nullable(s));

/**
 * C44: a text in its languages, as documented: language tag (BCP 47, stored canonical) → text;
 * checked by the operation, with the sentence the tool prints.
 */
export const textMap = (what: string, max: number, lines: boolean) =>
  v.optional(
    v.nullable(
      described(
        v.record(v.string(), v.string()),
        `C44: ${what}, by language: {"en": "…", "de": "…"} (BCP 47 tags, stored canonical; at most ${MAX_TEXT_LANGUAGES}; each at most ${max} characters${lines ? ', line breaks allowed' : ', one line'}). null or {} is none.`,
      ),
    ),
  );

export const PreviewQuery = v.strictObject(
  {
    lang: v.optional(
      described(
        v.pipe(v.string(), v.maxLength(100)),
        "C44: the language to show it in; one the page does not speak shows its first (as the page's `?lang=`).",
      ),
    ),
  },
  known(['lang']),
);

/** C44: the hosted page's settings to change; each is checked again by the operation. */
export const PageBody = v.strictObject({
  enabled: v.optional(described(v.boolean(), 'Whether the page is served (default false: off).')),
  languages: v.optional(
    described(
      v.pipe(v.array(v.string()), v.minLength(1), v.maxLength(MAX_PAGE_LANGUAGES)),
      `The languages it speaks (BCP 47, stored canonical, each once; 1–${MAX_PAGE_LANGUAGES}); the first is its default (default ["en"]). Replaces the list.`,
    ),
  ),
  title: textMap('its title', PAGE_TEXTS.title.max, PAGE_TEXTS.title.lines),
  intro: textMap('its introduction, above the form', PAGE_TEXTS.intro.max, PAGE_TEXTS.intro.lines),
  thanks: textMap('what it says after a submission', PAGE_TEXTS.thanks.max, PAGE_TEXTS.thanks.lines),
  accent: v.optional(described(v.string(), `Its colour, #rrggbb (default ${DEFAULT_ACCENT}).`)),
  theme: v.optional(
    described(v.picklist(PAGE_THEMES), "auto (the visitor's system's choice, the default), light or dark."),
  ),
  turnstileSiteKey: nullable(
    described(
      v.string(),
      "C22: the site key of the project's Turnstile widget (public; the secret is the project's turnstileSecret). Needed for the page to be on while the project checks Turnstile; null removes it.",
    ),
  ),
  steps: nullable(
    described(
      v.array(v.unknown()),
      `C46: the page's steps, in order, each {"title": {"en": "About you"}} (at most ${MAX_STEPS}); a field's \`step\` is its number. null or [] is none (the fields' steps still page it). Replaces the list.`,
    ),
  ),
});
