// C44: hosted pages in the edge cache (the Cache API of the data centre that served them). A page
// is kept by the host it was served under, its form address, its language and its form's
// generation; beside it, what the form's pages need to be found without a query (its project and
// languages) and the generation itself. A change to the project purges every page of its form at
// once, under every host name: it starts a new generation, so that no key of the old one is ever
// looked up again, whatever host it was kept under. A render still in flight when the purge came
// keeps nothing: it read the generation (and the project's last purge) before reading the project,
// and looks again before keeping its page (keepPage). No clock is compared: a purge leaves a mark
// of its own. The Cache API keeps nothing outside the data centre (and the zone) that wrote it:
// elsewhere a page lives at most its time to live (CONFIG_CACHE_SECONDS), as the project's cached
// configuration does.

/** The Cache API, when the runtime has one (a workers.dev deployment's does nothing). */
const edge = (): Cache | undefined => (globalThis as { caches?: { default?: Cache } }).caches?.default;

// Keys are URLs of one origin of our own, whatever host a request came to, so that one purge finds
// what every host name kept; `.invalid` is never a real host (RFC 6761), so no request ever matches one.
const ROOT = 'https://edge-forms.invalid/f';
export const pageKey = (host: string, formId: string, lang: string, generation: string) =>
  `${ROOT}/_page/${encodeURIComponent(host)}/${formId}/${encodeURIComponent(lang)}/${generation}`;
const formKey = (formId: string) => `${ROOT}/_form/${formId}`;
const generationKey = (formId: string) => `${ROOT}/_generation/${formId}`;
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
  const [form, known] = await Promise.all([
    read<{ languages: string[] }>(cache, formKey(formId)),
    read<Generation>(cache, generationKey(formId)),
  ]);
  return form === undefined || known === undefined
    ? undefined
    : { languages: form.languages, generation: known.generation };
}

export async function cachedPage(
  host: string,
  formId: string,
  lang: string,
  generation: string,
): Promise<Response | undefined> {
  return (await edge()?.match(pageKey(host, formId, lang, generation))) ?? undefined;
}

/** A form's generation, and (once a page of it was kept) its project. */
type Generation = { generation: string; projectId?: string };

/**
 * A render that may keep its page: the form's generation as it was when it began, and (when its
 * project was known then) the mark of that project's last purge.
 */
export type Render = { generation: string; projectId?: string; purge?: string };

/** Begins a render, before the project is read: the generation it will keep its page under. */
export async function beginRender(formId: string): Promise<Render | undefined> {
  const cache = edge();
  if (cache === undefined) return undefined;
  const known = await read<Generation>(cache, generationKey(formId));
  if (known === undefined) {
    const generation = newGeneration();
    await cache.put(generationKey(formId), json({ generation }, GENERATION_SECONDS));
    return { generation };
  }
  if (known.projectId === undefined) return { generation: known.generation };
  const purge = await read<string>(cache, purgedKey(known.projectId));
  return {
    generation: known.generation,
    projectId: known.projectId,
    ...(purge === undefined ? {} : { purge }),
  };
}

/**
 * Keeps a page rendered for a language, unless its project was purged since the render began (a
 * render that did not know its project then keeps nothing while a purge's mark lasts). Its
 * project's form is written first, so that a purge from now on finds it and starts a generation.
 */
export async function keepPage(
  render: Render | undefined,
  host: string,
  page: { formId: string; projectId: string; lang: string; languages: readonly string[] },
  response: Response,
  seconds: number,
): Promise<void> {
  const cache = edge();
  if (cache === undefined || render === undefined) return;
  await Promise.all([
    cache.put(projectKey(page.projectId), json(page.formId, GENERATION_SECONDS)),
    render.projectId === undefined
      ? cache.put(
          generationKey(page.formId),
          json({ generation: render.generation, projectId: page.projectId }, GENERATION_SECONDS),
        )
      : undefined,
  ]);
  const purge = await read<string>(cache, purgedKey(page.projectId));
  const purgedSince = render.projectId === undefined ? purge !== undefined : purge !== render.purge;
  if (purgedSince) return;
  await Promise.all([
    cache.put(pageKey(host, page.formId, page.lang, render.generation), response),
    cache.put(formKey(page.formId), json({ languages: page.languages }, seconds)),
  ]);
}

/** C44: forgets every cached page of a project, under every host (called on each change made to it). */
export async function purgeProjectPages(projectId: string): Promise<void> {
  const cache = edge();
  if (cache === undefined) return;
  await cache.put(purgedKey(projectId), json(newGeneration(), PURGE_SECONDS));
  const formId = await read<string>(cache, projectKey(projectId));
  if (formId !== undefined)
    await cache.put(
      generationKey(formId),
      json({ generation: newGeneration(), projectId } satisfies Generation, GENERATION_SECONDS),
    );
}
