// Which template of a language's catalogue words a code, and the locale to fill it in: shared by
// message() (messages.ts) and the browser widget, which carries no catalogue but the one language it
// fetched, so that both choose alike (C43). No import: a page that imports it carries nothing else.

/** Codes worded as another: the visitor can do the same about them. */
const SAME_AS: Record<string, string> = {
  missing_key: 'invalid_key',
  in_progress: 'unavailable',
  project_moving: 'unavailable',
};

/** A code's template, or that of the code it is worded as; undefined when the language has neither. */
export function templateOf(templates: Record<string, unknown>, code: string): string | undefined {
  // Own keys only: an inherited `constructor` is no code.
  const key = Object.hasOwn(templates, code) ? code : Object.hasOwn(SAME_AS, code) ? SAME_AS[code] : '';
  const template = key ? templates[key] : undefined;
  return typeof template === 'string' ? template : undefined;
}

/** Whether a template needs a parameter that `params` lacks (the label is given apart). */
export function lacksParameter(template: string, params: Record<string, unknown> | undefined): boolean {
  for (const [, name = ''] of template.matchAll(/\{(\w+)/g))
    if (name !== 'label' && params?.[name] == null) return true;
  return false;
}

/** The tag itself when Intl takes it and it is of the language (de-CH writes 1’000), else the language. */
export function localeOf(tag: string | null | undefined, lang: string): string {
  try {
    return tag && Intl.getCanonicalLocales(tag)[0]?.toLowerCase().split('-')[0] === lang ? tag : lang;
  } catch {
    // Not a BCP 47 tag: its language alone.
    return lang;
  }
}
