// C44: the answer to a form posted from its hosted page with scripts off: the thank-you page (the
// owner's thanks) or the page of what to fix, in the page's look and the language it was shown
// in (its `?lang=`, else the visitor's Accept-Language among the page's), each field's problem
// worded from the widget's catalogue of that language and named by its label there (C43). Read
// after the submission is stored or refused: the one query it costs is never the accepted path's.
import type { Context } from 'hono';
import { word } from '../../client/src/word.ts';
import { escapeHtml } from '../fields/form-html.ts';
import type { AppEnv } from '../http/env.ts';
import { requestIdOf } from '../http/request-id.ts';
import { type Assets, assetLoader } from '../lib/assets.ts';
import type { FieldIssue } from '../lib/codes.ts';
import { chooseLanguage, pageTextIn, textIn } from './language.ts';
import { hostedPageProject } from './project.ts';
import { pageResponse, shell } from './render.ts';
import { wordsOf } from './words.ts';

export type Outcome =
  | { sent: true }
  | {
      sent: false;
      status: number;
      messages: readonly string[];
      /** Each field's problem (C43), one for each message. */
      issues?: readonly FieldIssue[];
      /** The one cause's code (C43), when it is one: a failed challenge, an unavailable service. */
      code?: string;
    };

/** The `?lang=` of the hosted page a post came from, or undefined when it came from elsewhere. */
export function fromHostedPage(c: Context<AppEnv>, formId: string): { lang?: string } | undefined {
  const referer = c.req.header('Referer');
  if (referer === undefined) return undefined;
  try {
    const url = new URL(referer);
    const own = new URL(c.req.url);
    if (url.origin !== own.origin || url.pathname !== `/f/${formId}`) return undefined;
    const lang = url.searchParams.get('lang');
    return lang === null ? {} : { lang };
  } catch {
    return undefined;
  }
}

type Templates = Record<string, unknown>;

/** One loader per catalogue (C43: by primary language), each read once per isolate. */
const catalogues = new Map<string, (assets: Assets) => Promise<Templates>>();

/** The widget's catalogue of a language, from the worker's own assets; undefined without one. */
async function catalogue(c: Context<AppEnv>, lang: string): Promise<Templates | undefined> {
  const assets = (c.env as { ASSETS?: Assets }).ASSETS;
  const primary = (lang.split('-')[0] ?? lang).toLowerCase();
  if (assets === undefined || !/^[a-z]{2,3}$/.test(primary)) return undefined;
  let load = catalogues.get(primary);
  if (load === undefined) {
    load = assetLoader(
      `/widget/i18n/${primary}.json`,
      `the catalogue '${primary}'`,
      (json) => json as Templates,
    );
    catalogues.set(primary, load);
  }
  // A language without a catalogue (or a failed read, tried again next time): the English words.
  return load(assets).catch(() => undefined);
}

/** C45: a closed form's reason in the widget's words for the language, if its catalogue has them. */
export const closedWords = async (c: Context<AppEnv>, lang: string, reason: string) =>
  word(await catalogue(c, lang), 'form_closed', { reason }, lang);

/** C44: the page of an outcome in the hosted page's look, or undefined when its page is off or gone. */
export async function hostedReply(
  c: Context<AppEnv>,
  formId: string,
  asked: { lang?: string },
  outcome: Outcome,
  headers: Record<string, string> = {},
): Promise<Response | undefined> {
  const found = await hostedPageProject(c, formId);
  if (found === undefined) return undefined;
  const { view } = found;
  const { languages } = view.page;
  const lang = chooseLanguage(languages, asked.lang, c.req.header('Accept-Language'));
  const fallback = languages[0] ?? lang;
  const words = wordsOf(lang);
  const back = `<p><a href="${escapeHtml(`/f/${formId}?lang=${encodeURIComponent(lang)}`)}">${escapeHtml(words.back)}</a></p>`;
  let heading: string;
  let body: string;
  if (outcome.sent) {
    heading = words.thankYou;
    const thanks = pageTextIn(view.page.thanks, 'thanks', lang, fallback) ?? words.thanks;
    body = `<h1>${escapeHtml(heading)}</h1><p data-state="success">${escapeHtml(thanks)}</p>${back}`;
  } else {
    heading = words.checkForm;
    const templates = await catalogue(c, lang);
    const labelOf = (name: string) =>
      textIn(view.fields.find((f) => f.name === name)?.label, lang, fallback) ?? name;
    const items = outcome.messages.map((text, i) => {
      const issue = outcome.issues?.[i];
      const said = issue
        ? word(templates, issue.code, issue.params, lang, labelOf(issue.field))
        : word(templates, outcome.code, undefined, lang);
      return `<li>${escapeHtml(said || text)}</li>`;
    });
    body = `<h1>${escapeHtml(heading)}</h1><p>${escapeHtml(words.notSent)}</p><ul data-state="error">${items.join('')}</ul>${back}`;
  }
  const page = await shell({ lang, heading, accent: view.page.accent, theme: view.page.theme, body });
  return pageResponse(
    page,
    lang,
    { 'Cache-Control': 'no-store', 'X-Request-Id': requestIdOf(c), ...headers },
    outcome.sent ? 200 : outcome.status,
  );
}
