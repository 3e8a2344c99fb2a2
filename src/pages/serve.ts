// C44: `GET /f/<form-id>`: the project's hosted form page, when its owner has turned it on and the
// operator has not turned hosted pages off (HOSTED_PAGES); `GET /f/<form-id>/logo`, its logo. A
// page that is off, of a project moving or gone, or at an address that names no form, is a plain
// 404 page. Served from the edge cache when it holds the page (no query); otherwise read from D1
// in two round trips (the form's project, then that project in one batch), rendered and kept. Loaded on the first such request only: a form post never evaluates
// any of it (docs/layout.md, the lazy boundary).
import type { Context } from 'hono';
import { html } from 'hono/html';
import { closedByTime } from '../accept/steps.ts';
import { config } from '../config.ts';
import { logoKey } from '../files/logo.ts';
import { afterReply } from '../http/after-reply.ts';
import type { AppEnv } from '../http/env.ts';
import { PAGE_HEADERS, page } from '../http/html-page.ts';
import { formClosed } from '../http/replies.ts';
import { requestIdOf } from '../http/request-id.ts';
import { database } from '../store/db.ts';
import { acceptedCount } from '../store/hosted-pages.ts';
import { beginRender, cachedForm, cachedPage, keepPage } from './cache.ts';
import { composePage } from './compose.ts';
import { chooseLanguage, textIn } from './language.ts';
import { hostedPageProject } from './project.ts';
import { pageResponse } from './render.ts';
import { closedWords } from './replies.ts';

type PageContext = Context<AppEnv>;

const withRequestId = (c: PageContext, response: Response, extra: Record<string, string> = {}) => {
  const headers = new Headers(response.headers);
  headers.set('X-Request-Id', requestIdOf(c));
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(response.body, { status: response.status, headers });
};

/** C44: the one answer of a page that is not there, whatever the reason: off, moving, gone, never. */
function notFoundPage(c: PageContext): Response {
  const body = page('Not found', html`<h1>Not found</h1><p>There is no form at this address.</p>`);
  return new Response(body, { status: 404, headers: { ...PAGE_HEADERS, 'X-Request-Id': requestIdOf(c) } });
}

export async function servePage(c: PageContext): Promise<Response> {
  const settings = config(c.env);
  if (!settings.HOSTED_PAGES) return notFoundPage(c);
  const formId = c.req.param('formId') ?? '';
  const url = new URL(c.req.url);
  const origin = url.origin;
  const asked = c.req.query('lang');
  const acceptLanguage = c.req.header('Accept-Language');
  const cached = await cachedForm(formId);
  if (cached !== undefined) {
    const lang = chooseLanguage(cached.languages, asked, acceptLanguage);
    const hit = await cachedPage(origin, formId, lang, cached.generation);
    if (hit !== undefined) return withRequestId(c, hit, { 'X-Cache': 'hit' });
  }
  // Before the project is read: a purge from now on keeps this render's page out of the cache.
  const render = await beginRender(formId).catch(() => undefined);
  const found = await hostedPageProject(c, formId);
  if (found === undefined) return notFoundPage(c);
  const { view } = found;
  const pageSettings = view.page;
  const lang = chooseLanguage(pageSettings.languages, asked, acceptLanguage);
  const { logo } = pageSettings;
  const closed = await closedText(c, found, lang);
  const rendered = await composePage(view, {
    origin,
    formId,
    lang,
    ...(closed === undefined ? {} : { closed }),
    // Its address changes with its bytes (`?v=` of its hash).
    logo: logo === null ? undefined : `${origin}/f/${formId}/logo?v=${logo.sha256.slice(0, 12)}`,
  });
  const seconds = settings.CONFIG_CACHE_SECONDS;
  const response = pageResponse(rendered, lang, {
    'Referrer-Policy': 'same-origin',
    'Cache-Control': `public, max-age=${seconds}`,
    Vary: 'Accept-Language',
  });
  await afterReply(
    c,
    keepPage(
      render,
      origin,
      { formId, projectId: view.id, lang, languages: pageSettings.languages },
      response.clone(),
      seconds,
    ).catch(() => {}),
  );
  return withRequestId(c, response, { 'X-Cache': 'miss' });
}

/**
 * C45: why the form takes nothing now, in the visitor's language (its owner's closed text, else the
 * widget's catalogue's words for the reason); undefined while it is open. Judged as a post is: the
 * times now, and the accepted submissions (one query more, only for a form with a most).
 */
async function closedText(
  c: PageContext,
  { view, place }: NonNullable<Awaited<ReturnType<typeof hostedPageProject>>>,
  lang: string,
): Promise<string | undefined> {
  const { maxSubmissions, opensAt, closesAt, closedText: own } = view.limits;
  const reason =
    closedByTime({ opensAt, closesAt }, Date.now()) ??
    (maxSubmissions !== null && (await acceptedCount(database(place.d1), view.id)) >= maxSubmissions
      ? 'full'
      : undefined);
  if (reason === undefined) return undefined;
  const fallback = view.page.languages[0] ?? lang;
  return textIn(own, lang, fallback) ?? (await closedWords(c, lang, reason)) ?? formClosed(reason).message;
}

/** C44: the page's logo, from the bucket of the project's place; 404 as the page when there is none. */
export async function serveLogo(c: PageContext): Promise<Response> {
  const found = await hostedPageProject(c, c.req.param('formId') ?? '');
  const logo = found?.view.page.logo;
  const object = found && logo ? await found.place.files?.get(logoKey(found.view.id)) : undefined;
  if (!object || !logo) return notFoundPage(c);
  return new Response(object.body, {
    headers: {
      'Content-Type': logo.type,
      'Content-Length': String(logo.size),
      'Content-Security-Policy': "default-src 'none'",
      'X-Content-Type-Options': 'nosniff',
      // Its address changes with its bytes (`?v=` of its hash): kept a day.
      'Cache-Control': 'public, max-age=86400',
      'X-Request-Id': requestIdOf(c),
    },
  });
}
