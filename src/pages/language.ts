// C44: the language a hosted page speaks to a visitor: the one `?lang=` names, when the page
// speaks it; else the best of the visitor's Accept-Language among the page's languages; else the
// page's first. A visitor's `de-AT` finds a page's `de`, and `de` a page's `de-CH`.

type Wanted = { tag: string; q: number; at: number };

/** An Accept-Language header's well-formed entries, with their weights (q=0: refused). */
function entriesOf(header: string | undefined): Wanted[] {
  if (header === undefined) return [];
  const entries: Wanted[] = [];
  for (const [at, part] of header.split(',').slice(0, 32).entries()) {
    const [tag = '', ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!/^(?:[a-z]{1,8}(?:-[a-z0-9]{1,8})*|\*)$/i.test(tag.trim()) || !(q >= 0 && q <= 1)) continue;
    entries.push({ tag: tag.trim().toLowerCase(), q, at });
  }
  return entries;
}

/** The tags of an Accept-Language header, most wanted first (q=0 and malformed entries left out). */
export function acceptedLanguages(header: string | undefined): string[] {
  return entriesOf(header)
    .filter((w) => w.q > 0)
    .sort((a, b) => b.q - a.q || a.at - b.at)
    .map((w) => w.tag);
}

const primary = (tag: string) => tag.split('-')[0] ?? tag;

/** The page's language for a visitor (`languages` is the page's, its first the default). */
export function chooseLanguage(
  languages: readonly string[],
  asked: string | undefined,
  acceptLanguage: string | undefined,
): string {
  const [fallback = 'en'] = languages;
  const lower = languages.map((l) => l.toLowerCase());
  if (asked !== undefined) {
    const at = lower.indexOf(asked.toLowerCase());
    if (at >= 0) return languages[at] ?? fallback;
  }
  // A language the visitor refused (q=0) is never chosen for another it asked for, however near.
  const refused = new Set(
    entriesOf(acceptLanguage)
      .filter((w) => w.q === 0)
      .map((w) => w.tag),
  );
  const open = (l: string) => !refused.has(l);
  for (const tag of acceptedLanguages(acceptLanguage)) {
    if (tag === '*') return fallback;
    const exact = lower.indexOf(tag);
    if (exact >= 0 && open(tag)) return languages[exact] ?? fallback;
    const near = lower.findIndex((l) => open(l) && primary(l) === primary(tag));
    if (near >= 0) return languages[near] ?? fallback;
  }
  return fallback;
}

/**
 * A text of a language map in the page's language: its own, else the page's default's, else any
 * (`any` false: none, where the page has words of its own in every language, as for its thanks).
 */
export function textIn(
  map: Record<string, string> | null | undefined,
  lang: string,
  fallback: string,
  any = true,
): string | undefined {
  if (map == null) return undefined;
  return map[lang] ?? map[fallback] ?? (any ? Object.values(map)[0] : undefined);
}

/** The page's own texts. */
export type PageText = 'title' | 'intro' | 'thanks';

/**
 * C44: a page's own text in a language, as the page shows it: the title and introduction else in
 * any language the owner wrote them in; the thanks only in that language or the page's first (the
 * page has a thanks of its own in the visitor's language, `words.ts`).
 */
export const pageTextIn = (
  map: Record<string, string> | null | undefined,
  member: PageText,
  lang: string,
  fallback: string,
): string | undefined => textIn(map, lang, fallback, member !== 'thanks');

/** A language's name in itself (`Deutsch` for de), for the page's language switch. */
export function nameOfLanguage(tag: string): string {
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
    return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    return tag;
  }
}
