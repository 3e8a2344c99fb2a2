// C44: hosted pages in the edge cache (the Cache API of the data centre that served them): each
// page by its form address and language, beside the languages the page speaks (so that a visitor's
// language is chosen without a query) and, by project, what was cached of it, so that a change to
// the project purges its pages without a query either. The Cache API keeps nothing outside the data
// centre that wrote it: elsewhere a page lives at most its time to live (CONFIG_CACHE_SECONDS),
// as the project's cached configuration does.

/** The Cache API, when the runtime has one (a workers.dev deployment's does nothing). */
const edge = (): Cache | undefined => (globalThis as { caches?: { default?: Cache } }).caches?.default;

// Keys are URLs of the worker's own origin, under a path no request can reach (`/f/` takes a form
// id, never `_`), so that no visitor's request ever matches one by itself.
export const pageKey = (origin: string, formId: string, lang: string) =>
  `${origin}/f/_page/${formId}/${encodeURIComponent(lang)}`;
const languagesKey = (origin: string, formId: string) => `${origin}/f/_languages/${formId}`;
const projectKey = (origin: string, projectId: string) =>
  `${origin}/f/_project/${encodeURIComponent(projectId)}`;

const json = (value: unknown, seconds: number) =>
  new Response(JSON.stringify(value), {
    headers: { 'Content-Type': 'application/json', 'Cache-Control': `public, max-age=${seconds}` },
  });

/** The languages a cached page speaks, or undefined when none of it is cached here. */
export async function cachedLanguages(origin: string, formId: string): Promise<string[] | undefined> {
  const hit = await edge()?.match(languagesKey(origin, formId));
  return hit === undefined ? undefined : ((await hit.json()) as string[]);
}

export async function cachedPage(
  origin: string,
  formId: string,
  lang: string,
): Promise<Response | undefined> {
  return (await edge()?.match(pageKey(origin, formId, lang))) ?? undefined;
}

/** Keeps a page rendered for a language, with what purging it takes. */
export async function keepPage(
  origin: string,
  page: { formId: string; projectId: string; lang: string; languages: readonly string[] },
  response: Response,
  seconds: number,
): Promise<void> {
  const cache = edge();
  if (cache === undefined) return;
  await Promise.all([
    cache.put(pageKey(origin, page.formId, page.lang), response),
    cache.put(languagesKey(origin, page.formId), json(page.languages, seconds)),
    cache.put(
      projectKey(origin, page.projectId),
      json({ formId: page.formId, languages: page.languages }, seconds),
    ),
  ]);
}

/** C44: forgets every cached page of a project (called on each change made to it). */
export async function purgeProjectPages(origin: string, projectId: string): Promise<void> {
  const cache = edge();
  const hit = await cache?.match(projectKey(origin, projectId));
  if (cache === undefined || hit === undefined) return;
  const { formId, languages } = (await hit.json()) as { formId: string; languages: string[] };
  await Promise.all([
    ...languages.map((lang) => cache.delete(pageKey(origin, formId, lang))),
    cache.delete(languagesKey(origin, formId)),
    cache.delete(projectKey(origin, projectId)),
  ]);
}
