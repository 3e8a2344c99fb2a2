// C39: campaign memory. A spam campaign sends one pitch to many forms, spun ("{Hi|Hello} {there|friend}")
// so that no two copies are the same text. When an owner marks a message spam its MinHash signature
// is kept; a later message whose signature is near one kept is the same campaign. Pure and bounded:
// whatever a stranger sends, at most MAX_TEXT characters are read and MAX_SHINGLES shingles hashed
// (an 8 KB message costs about 2 ms). The constants were measured on spun pitches and on the form
// corpus (data/form-corpus/); test/node/spam-campaign.test.ts holds what they promise.

import { MAX_TEXT, normalise } from './features.ts';

/**
 * How many hash functions a signature has. Spun copies of one pitch share few of their shingles (a
 * quarter in the median, a seventh at the 5th percentile), so the estimate must be fine: with 256,
 * its spread at SAME_CAMPAIGN is ±0.02. Stored packed, 2 KB a signature.
 */
export const SIGNATURE_SIZE = 256;

/**
 * LSH bands: two signatures equal on all ROWS positions of any one band are candidates. 128 bands
 * of 2 rows make a pair at SAME_CAMPAIGN a candidate 87% of the time, at 0.2 99.4%, at 0.05 27%.
 */
export const BANDS = 128;

/** Rows per band (BANDS × ROWS = SIGNATURE_SIZE). */
export const ROWS = 2;

/**
 * The similarity at or above which two messages are the same campaign (32 of 256 positions). Spun
 * copies of one pitch measure 0.23 in the median and 0.13 at the 5th percentile; the form corpus's
 * hand-written messages 0 in the median and 0.07 at the 99.9th, and no genuine message reaches 0.11
 * with any other message.
 */
export const SAME_CAMPAIGN = 0.125;

/** At most this many distinct shingles make a signature, so a signature's cost is bounded. */
export const MAX_SHINGLES = 2000;

/**
 * Characters per shingle. Of 4 to 7 characters and of word 1- to 3-grams, 6 kept spun copies of one
 * pitch furthest from the form corpus's different messages: shorter ones are shared by any two
 * texts of one language, word n-grams lose a copy whose every other word is spun.
 */
const SHINGLE = 6;

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"'()[\]{}]+/giu;
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/gu;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
// Scripts written without spaces: each letter counts as a word.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}]/gu;
const MIN_LETTERS = 40;
const MIN_WORDS = 8;

function hostOf(link: string): string {
  const rest = link.replace(/^(?:https?:\/\/)?(?:[^/?#@]*@)?/i, '');
  return (rest.split(/[/?#:]/, 1)[0] ?? '').replace(/^www\./, '');
}

/**
 * The text of a submission as campaigns are compared: its string values but addresses and names
 * (both spun per message), folded as the classifier folds text, each link reduced to its host (a
 * campaign spins the path), each run of digits one "0", punctuation and spaces one space. Undefined
 * when it is too short to call a campaign (fewer than 40 letters or 8 words): a one-line "call me
 * back" must never match another.
 */
export function campaignText(values: Record<string, unknown>): string | undefined {
  const texts: string[] = [];
  let length = 0;
  for (const [name, value] of Object.entries(values)) {
    if (length >= MAX_TEXT) break;
    if (typeof value !== 'string' || value === '' || /name/i.test(name)) continue;
    const raw = value.slice(0, MAX_TEXT);
    if (EMAIL.test(raw.trim())) continue;
    texts.push(raw);
    length += raw.length + 1;
  }
  const text = normalise(texts.join('\n'))
    .slice(0, MAX_TEXT)
    .replace(LINK, (link) => ` ${hostOf(link)} `)
    .replace(/\p{N}+/gu, '0')
    .replace(NOT_WORD, ' ')
    .trim();
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const words = (text.match(WORD)?.length ?? 0) + (text.match(UNSPACED)?.length ?? 0);
  return letters >= MIN_LETTERS && words >= MIN_WORDS ? text : undefined;
}

/** 32-bit FNV-1a of the UTF-16 units of s from start to end. */
function fnv(s: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** MurmurHash3's finaliser: every bit of x moves every bit of the result. */
function mix(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

// One fixed seed per hash function, from a counter: the same in every isolate and every release.
const SEEDS = Uint32Array.from({ length: SIGNATURE_SIZE }, (_, i) => mix(Math.imul(i + 1, 0x9e3779b9)));

/**
 * The distinct shingles (hashed) a signature is made of: the text's SHINGLE-character substrings,
 * at most MAX_SHINGLES of them, the first met. Exported so the bound can be tested without a clock.
 */
export function shingles(text: string): Set<number> {
  const out = new Set<number>();
  const s = text.slice(0, MAX_TEXT);
  if (s.length <= SHINGLE) {
    out.add(fnv(s, 0, s.length));
    return out;
  }
  for (let i = 0; i + SHINGLE <= s.length && out.size < MAX_SHINGLES; i++) out.add(fnv(s, i, i + SHINGLE));
  return out;
}

/**
 * The MinHash signature of some text (campaignText's): for each of SIGNATURE_SIZE seeded hash
 * functions, the least hash of its shingles. The share of positions two signatures agree on
 * estimates the Jaccard similarity of their shingle sets. Deterministic, with no randomness.
 */
export function signature(text: string): number[] {
  const mins = new Uint32Array(SIGNATURE_SIZE).fill(0xffffffff);
  for (const x of shingles(text)) {
    for (let i = 0; i < SIGNATURE_SIZE; i++) {
      const h = mix(x ^ (SEEDS[i] as number));
      if (h < (mins[i] as number)) mins[i] = h;
    }
  }
  return Array.from(mins);
}

/**
 * The LSH keys of a signature, one per band: the band's number and a 32-bit hash of its ROWS
 * values, as `7:1a2b3c4d`. Two signatures sharing any key are candidates, to be compared with
 * similarity(): a near pair shares one almost always, a far pair almost never, so a store looks
 * up a message's campaign by its BANDS keys instead of comparing it with every signature kept.
 */
export function bandKeys(sig: readonly number[]): string[] {
  const keys: string[] = [];
  for (let band = 0; band < BANDS; band++) {
    let h = mix(band + 1);
    for (let row = 0; row < ROWS; row++) h = mix(h ^ (sig[band * ROWS + row] ?? 0));
    keys.push(`${band}:${h.toString(16).padStart(8, '0')}`);
  }
  return keys;
}

/** The share of positions two signatures agree on: the estimated Jaccard similarity of their texts. */
export function similarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return same / a.length;
}

/** A signature as stored: 8 lower-case hex digits per value, SIGNATURE_SIZE × 8 characters. */
export function packSignature(sig: readonly number[]): string {
  return sig.map((v) => (v >>> 0).toString(16).padStart(8, '0')).join('');
}

/** A stored signature read back; undefined for anything packSignature did not write. */
export function unpackSignature(s: string): number[] | undefined {
  if (typeof s !== 'string' || s.length !== SIGNATURE_SIZE * 8 || !/^[0-9a-f]*$/.test(s)) return undefined;
  const out: number[] = [];
  for (let i = 0; i < s.length; i += 8) out.push(Number.parseInt(s.slice(i, i + 8), 16));
  return out;
}
