// C44: a project's page as a visitor sees it: its settings and fields, each text in the page's
// language (else its first language's, else another's), rendered. The page's own address and the
// dashboard's preview (which shows it while it is off too) compose it the same way.
import type { ProjectView } from '../ops/project-view.ts';
import { pageTextIn, textIn } from './language.ts';
import { type RenderedPage, renderPage } from './render.ts';

export type Where = {
  /** The deployment's own origin. */
  origin: string;
  formId: string;
  lang: string;
  /** The logo's address (when the page has one): the page's own, or a `data:` address. */
  logo: string | undefined;
  /** The dashboard's preview (its logo a `data:` address, no script named). */
  preview?: boolean | undefined;
  /** C45: why the form takes nothing now, worded in the visitor's language; absent: it is open. */
  closed?: string | undefined;
};

export function composePage(view: ProjectView, where: Where): Promise<RenderedPage> {
  const settings = view.page;
  const { lang } = where;
  const fallback = settings.languages[0] ?? lang;
  const say = (map: Record<string, string> | null | undefined) => textIn(map, lang, fallback);
  return renderPage({
    origin: where.origin,
    formId: where.formId,
    projectName: view.name,
    lang,
    languages: settings.languages,
    title: pageTextIn(settings.title, 'title', lang, fallback),
    intro: pageTextIn(settings.intro, 'intro', lang, fallback),
    thanks: pageTextIn(settings.thanks, 'thanks', lang, fallback),
    accent: settings.accent,
    theme: settings.theme,
    logo: where.logo,
    preview: where.preview,
    ...(where.closed === undefined ? {} : { closed: where.closed }),
    honeypot: view.honeypot,
    // C22: the widget only when the project checks Turnstile; a key left from before is not shown.
    turnstileSiteKey: view.turnstile ? (settings.turnstileSiteKey ?? undefined) : undefined,
    // C46: each step's title in the visitor's language, by its number.
    steps: settings.steps.map((step) => say(step.title)),
    // C46: partial submissions on: the page says so, and keeps drafts for these days.
    draftDays: view.partials.enabled ? view.partials.keepDays : undefined,
    fields: view.fields.map((field) => {
      const shown: { label?: string; help?: string; placeholder?: string } = {};
      for (const member of ['label', 'help', 'placeholder'] as const) {
        const text = say(field[member]);
        if (text !== undefined) shown[member] = text;
      }
      return { field, shown };
    }),
  });
}
