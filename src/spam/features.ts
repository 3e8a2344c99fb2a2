// C39: what the classifier reads of a submission: the words and word pairs of its text, each link's
// host and its parents, how many links and whether there is anything but links, a known URL
// shortener, a disposable address, gibberish in a name or an address, the script its text is in.
// Pure and bounded: whatever a stranger sends (10 KB words, a thousand links, zero-width joiners),
// at most MAX_FEATURES features from at most MAX_TEXT characters of each value.

/** The lists the features look up, loaded with the prior (never in the bundle). */
export type Lists = { disposable: ReadonlySet<string>; shorteners: ReadonlySet<string> };

export const MAX_TEXT = 8 * 1024;
export const MAX_FEATURES = 600;
const MAX_LINKS = 50;
const MAX_WORDS = 400;
const LONGEST_WORD = 24;

const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"'()[\]{}]+/giu;
const HAS_URL = /\b(?:https?:\/\/|www\.)/iu;
const EMAIL = /^([^\s@]{1,64})@([^\s@]{1,255})$/u;
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu;
const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Han', 'Hangul', 'Thai', 'Devanagari'];
const SCRIPT_RES = SCRIPTS.map((s) => [s.toLowerCase(), new RegExp(`\\p{Script=${s}}`, 'u')] as const);

/** Text as the classifier compares it: compatibility forms folded, invisible characters gone. */
export function normalise(text: string): string {
  return text.slice(0, MAX_TEXT).normalize('NFKC').replace(INVISIBLE, '').toLowerCase();
}

/** A host and each parent with at least two labels: `a.b.example.com` → itself, `b.example.com`, `example.com`. */
export function hostAndParents(host: string): string[] {
  const labels = host.split('.').filter((l) => l !== '');
  const out: string[] = [];
  for (let i = 0; i + 2 <= labels.length && out.length < 4; i++) out.push(labels.slice(i).join('.'));
  return out;
}

function hostOf(link: string): string | undefined {
  try {
    const url = new URL(link.startsWith('www.') ? `http://${link}` : link);
    return url.hostname.replace(/\.$/, '') || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A word of six Latin letters or more with five consonants in a row, or with its case flipping
 * four times or more: not a name or an address a person types.
 */
export function looksGibberish(text: string): boolean {
  return text.split(/[^a-z]+/i).some((word) => {
    if (word.length < 6) return false;
    if (/[bcdfghjklmnpqrstvwxz]{5,}/i.test(word)) return true;
    return (word.match(/[a-z](?=[A-Z])|[A-Z](?=[a-z])/g) ?? []).length >= 4;
  });
}

function countBucket(n: number): string {
  return n === 0 ? '0' : n === 1 ? '1' : n <= 3 ? '2-3' : n <= 9 ? '4-9' : '10+';
}

/** The dominant script of some text's letters, or undefined when it has few. */
function scriptOf(text: string): string | undefined {
  const letters = [...text.replace(/[^\p{L}]/gu, '').slice(0, 2000)];
  if (letters.length < 10) return undefined;
  const counts = new Map<string, number>();
  for (const ch of letters) {
    const found = SCRIPT_RES.find(([, re]) => re.test(ch));
    const name = found?.[0] ?? 'other';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * The features of a submission's values. A field whose name says "name" is a name; a value that
 * is an address is an address; every other string is text.
 */
export function features(values: Record<string, unknown>, lists: Lists): string[] {
  const out = new Set<string>();
  const add = (f: string) => {
    if (out.size < MAX_FEATURES) out.add(f);
  };
  const texts: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== 'string' || value === '') continue;
    const raw = value.slice(0, MAX_TEXT);
    const email = EMAIL.exec(raw.trim());
    if (email !== null) {
      const [, local = '', given = ''] = email;
      const domain = given.toLowerCase();
      for (const d of hostAndParents(domain)) add(`address domain ${d}`);
      if (lists.disposable.has(domain)) add('disposable address');
      if (looksGibberish(local) || /\d{5,}/.test(local)) add('gibberish address');
      continue;
    }
    if (/name/i.test(name) && raw.length <= 200) {
      if (looksGibberish(raw)) add('gibberish name');
      if (HAS_URL.test(raw)) add('link in name');
      continue;
    }
    texts.push(normalise(raw));
  }
  const text = texts.join('\n');
  let links = 0;
  for (const m of text.matchAll(LINK)) {
    if (links >= MAX_LINKS) break;
    links++;
    const host = hostOf(m[0]);
    if (host === undefined) continue;
    const hosts = hostAndParents(host);
    for (const h of hosts) add(`link domain ${h}`);
    if (hosts.some((h) => lists.shorteners.has(h))) add('url shortener');
  }
  const prose = text.replace(LINK, ' ');
  let words = 0;
  let previous: string | undefined;
  for (const m of prose.matchAll(WORD)) {
    if (words >= MAX_WORDS) break;
    words++;
    const word = m[0];
    if (word.length > LONGEST_WORD) {
      add('very long word');
      previous = undefined;
      continue;
    }
    if (word.length >= 2) add(`word "${word}"`);
    if (previous !== undefined) add(`words "${previous} ${word}"`);
    previous = word;
  }
  // No link says nothing in a form (the corpus's ham are mailing lists, whose footers link): only
  // links counted, never their absence.
  if (links > 0) add(`links ${countBucket(links)}`);
  // Markup, capitals, amounts of money, runs of exclamation marks: how a pitch is written.
  const tags = [...text.matchAll(/<\/?([a-z][a-z0-9]{0,10})\b[^>]{0,200}>/g)].slice(0, 50);
  if (tags.length > 0) add(`markup ${countBucket(tags.length)}`);
  for (const t of tags) add(`tag ${t[1]}`);
  const raws =
    texts.length === 0
      ? ''
      : Object.values(values)
          .filter((v) => typeof v === 'string')
          .join('\n')
          .slice(0, MAX_TEXT);
  const capitals = (raws.match(/\b\p{Lu}{3,}\b/gu) ?? []).length;
  if (capitals > 0) add(`capital words ${countBucket(capitals)}`);
  if (/[$€£]\s?\d/.test(text)) add('amount of money');
  if (/\d\s?%/.test(text)) add('percentage');
  if (/!{2,}/.test(text)) add('exclamation marks');
  if (/[\u00c0-\u00ff]{3,}/.test(text)) add('runs of accented letters');
  if (links > 0 && words < 4) add('only links');
  if (text !== '' && words === 0) add('no words');
  const script = scriptOf(prose);
  if (script !== undefined) add(`script ${script}`);
  return [...out];
}
