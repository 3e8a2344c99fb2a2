// C44: hosted pages in the edge cache (the Cache API of the data centre that served them). A page
// is kept by the origin it was served under (its scheme and host: the page names its own address),
// its form address, its language and its form's generation; beside it, what the form's pages need
// to be found without a query (its languages, its project) and the generation itself. A change to
// the project purges every page of its form at once, under every host name: it starts a new
// generation, so that no key of the old one is ever looked up again, whatever host it was kept
// under. A render still in flight when the purge came keeps nothing: it read the generation (and
// the project's last purge) before reading the project, and reads both again before keeping its
// page (keepPage). No clock is compared: a purge leaves a mark of its own. Only a purge (or a form
// seen for the first time) writes a generation. The Cache API keeps nothing outside the data
// centre (and the zone) that wrote it: elsewhere a page lives at most its time to live
// (CONFIG_CACHE_SECONDS), as the project's cached configuration does.

/** The Cache API, when the runtime has one (a workers.dev deployment's does nothing). */
const edge = (): Cache | undefined => (globalThis as { caches?: { default?: Cache } }).caches?.default;

// Keys are URLs of one origin of our own, whatever host a request came to, so that one purge finds
// what every host name kept; `.invalid` is never a real host (RFC 6761), so no request ever matches one.
const ROOT = 'https://edge-forms.invalid/f';
export const pageKey = (origin: string, formId: string, lang: string, generation: string) =>
  `${ROOT}/_page/${encodeURIComponent(origin)}/${formId}/${encodeURIComponent(lang)}/${generation}`;
const formKey = (formId: string) => `${ROOT}/_form/${formId}`;
const generationKey = (formId: string) => `${ROOT}/_generation/${formId}`;
const linkKey = (formId: string) => `${ROOT}/_link/${formId}`;
const projectKey = (projectId: string) => `${ROOT}/_project/${encodeURIComponent(projectId)}`;
const purgedKey = (projectId: string) => `${ROOT}/_purged/${encodeURIComponent(projectId)}`;

/** A generation outlives every page kept under it (they live CONFIG_CACHE_SECONDS, at most 30 s). */
const GENERATION_SECONDS = 86_400;
/** A purge's mark outlives any render begun before it (D1's slowest write is LOST_WRITE_SECONDS). */
const PURGE_SECONDS = 300;

const json = (value: unknown, seconds: number) =>
  new Response(JSON.stringify(value), {
    headers: { 'Content-Type': 'application/json', 'Cache-Control': `public, max-age=${seconds}` },
  });

const read = async <T>(cache: Cache, key: string): Promise<T | undefined> => {
  const hit = await cache.match(key);
  return hit === undefined ? undefined : ((await hit.json()) as T);
};

const newGeneration = () => crypto.randomUUID();

/** Where a form's cached pages are: the languages its page speaks and its generation, or undefined. */
export type Cached = { languages: string[]; generation: string };

/** What is cached of a form here: none when its page was not kept, or its generation is gone. */
export async function cachedForm(formId: string): Promise<Cached | undefined> {
  const cache = edge();
  if (cache === undefined) return undefined;
  const [form, generation] = await Promise.all([
    read<{ languages: string[] }>(cache, formKey(formId)),
    read<string>(cache, generationKey(formId)),
  ]);
  return form === undefined || generation === undefined
    ? undefined
    : { languages: form.languages, generation };
}

export async function cachedPage(
  origin: string,
  formId: string,
  lang: string,
  generation: string,
): Promise<Response | undefined> {
  return (await edge()?.match(pageKey(origin, formId, lang, generation))) ?? undefined;
}

/**
 * A render that may keep its page: the form's generation as it was when it began, and (when its
 * project was known then, from a page kept before) the mark of that project's last purge.
 */
export type Render = { generation: string; projectId?: string; purge?: string };

/** Begins a render, before the project is read: the generation it will keep its page under. */
export async function beginRender(formId: string): Promise<Render | undefined> {
  const cache = edge();
  if (cache === undefined) return undefined;
  const [known, projectId] = await Promise.all([
    read<string>(cache, generationKey(formId)),
    read<string>(cache, linkKey(formId)),
  ]);
  let generation = known;
  if (generation === undefined) {
    generation = newGeneration();
    await cache.put(generationKey(formId), json(generation, GENERATION_SECONDS));
  }
  if (projectId === undefined) return { generation };
  const purge = await read<string>(cache, purgedKey(projectId));
  return { generation, projectId, ...(purge === undefined ? {} : { purge }) };
}

/**
 * Keeps a page rendered for a language, unless its project was purged since the render began (a
 * render that did not know its project then keeps nothing while a purge's mark lasts) or its form
 * has another generation now. The links between the form and its project are written first, so
 * that a purge from now on finds the form and starts a generation.
 */
export async function keepPage(
  render: Render | undefined,
  origin: string,
  page: { formId: string; projectId: string; lang: string; languages: readonly string[] },
  response: Response,
  seconds: number,
): Promise<void> {
  const cache = edge();
  if (cache === undefined || render === undefined) return;
  await Promise.all([
    cache.put(projectKey(page.projectId), json(page.formId, GENERATION_SECONDS)),
    cache.put(linkKey(page.formId), json(page.projectId, GENERATION_SECONDS)),
  ]);
  const [purge, generation] = await Promise.all([
    read<string>(cache, purgedKey(page.projectId)),
    read<string>(cache, generationKey(page.formId)),
  ]);
  const purgedSince = render.projectId === undefined ? purge !== undefined : purge !== render.purge;
  if (purgedSince || generation !== render.generation) return;
  await Promise.all([
    cache.put(pageKey(origin, page.formId, page.lang, render.generation), response),
    cache.put(formKey(page.formId), json({ languages: page.languages }, seconds)),
  ]);
}

/** C44: forgets every cached page of a project, under every host (called on each change made to it). */
export async function purgeProjectPages(projectId: string): Promise<void> {
  const cache = edge();
  if (cache === undefined) return;
  await cache.put(purgedKey(projectId), json(newGeneration(), PURGE_SECONDS));
  const formId = await read<string>(cache, projectKey(projectId));
  if (formId !== undefined) await cache.put(generationKey(formId), json(newGeneration(), GENERATION_SECONDS));
}
