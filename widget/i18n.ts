// C43: the widget words a failure in the page's language. The worker's failures carry codes beside
// their English texts; the worker serves the client's catalogue of each language as
// /widget/i18n/<lang>.json (scripts/build-assets.ts), fetched once a page first meets a failure and
// filled by the client's own formatter, so that the widget and @edge-forms/client word alike.
// Whatever cannot be worded (no catalogue, a code it does not know, a parameter its sentence needs
// and the worker did not send) keeps the worker's English text.
import { localeOf } from '../client/src/choose.ts';
import { type Language, language } from '../client/src/messages.ts';
import { word } from '../client/src/word.ts';

/** One language's catalogue as served: code → template (client/src/catalogue/). */
type Templates = Record<string, unknown>;
type Params = Record<string, unknown> | undefined;

/** A sentence for a code (a field's issue with its label, or a cause), or undefined for the worker's text. */
export type Say = (code: string | undefined, params?: Params, label?: string) => string | undefined;

/** The longest a failure's message waits for its catalogue before the worker's text is shown. */
export const CATALOGUE_WAIT_MS = 3000;

/**
 * The catalogue's language for a page's `lang` (`de-AT` is `de`; a language it lacks is `en`), and
 * the tag to format with: the page's own when Intl takes it (de-CH writes 1’000), else the language.
 */
export function pageLanguage(tag: string | null | undefined): { lang: Language; locale: string } {
  const lang = language(tag ?? undefined);
  return { lang, locale: localeOf(tag, lang) };
}

/**
 * A field's label as its sentences name it: the first text given that has one, its white space
 * collapsed, without a trailing `*` (required) or colon.
 */
export function labelText(...texts: (string | null | undefined)[]): string | undefined {
  for (const text of texts) {
    const clean = text
      ?.replace(/\s+/g, ' ')
      .replace(/[\s*:：]+$/, '')
      .trim();
    if (clean) return clean;
  }
  return undefined;
}

const catalogues = new Map<string, Promise<Templates | undefined>>();

/**
 * The catalogue at `url`, fetched once per page (a failed fetch is tried again at the next
 * failure); undefined when it cannot be had within CATALOGUE_WAIT_MS, so that a slow fetch never
 * keeps a form "Sending…".
 */
export function catalogue(url: string): Promise<Templates | undefined> {
  let pending = catalogues.get(url);
  if (pending === undefined) {
    pending = fetch(url)
      .then((res) => (res.ok ? (res.json() as Promise<Templates>) : undefined))
      .catch(() => undefined)
      .then((templates) => {
        if (templates == null) catalogues.delete(url);
        return templates ?? undefined;
      });
    catalogues.set(url, pending);
  }
  return Promise.race([pending, new Promise<undefined>((resolve) => setTimeout(resolve, CATALOGUE_WAIT_MS))]);
}

/**
 * How a failure is worded on this form: in the language of its closest `lang` (the form's own
 * first, the page's last), from the catalogue of the worker at `base` (where widget.js came from,
 * else the form's endpoint).
 */
export async function wording(form: HTMLFormElement, base: string): Promise<Say> {
  const { lang, locale } = pageLanguage(
    form.closest('[lang]')?.getAttribute('lang') ?? document.documentElement.lang,
  );
  let templates: Templates | undefined;
  try {
    templates = await catalogue(new URL(`/widget/i18n/${lang}.json`, new URL(base, document.baseURI)).href);
  } catch {
    // An endpoint that is no URL: the worker's texts.
  }
  return (code, params, label) => word(templates, code, params, locale, label);
}

/**
 * The text a field's sentences name it by: its `<label>`s (by `for`, or wrapping it; without the
 * text of a control inside), else its `aria-label`, else its name.
 */
export function labelOf(form: HTMLFormElement, name: string): string {
  const field = form.elements.namedItem(name);
  if (!(field instanceof HTMLElement)) return name;
  const labels = Array.from((field as HTMLInputElement).labels ?? [], (label) => {
    const copy = label.cloneNode(true) as HTMLElement;
    for (const inner of Array.from(copy.querySelectorAll('select,textarea,[data-forms-error]')))
      inner.remove();
    return copy.textContent;
  });
  return labelText(...labels, field.getAttribute('aria-label')) ?? name;
}
