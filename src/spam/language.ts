// C39: the message's language against the languages its project expects (`languages`, BCP 47).
// Told by @nlpjs/language-min (a port of franc: the text's script first, then trigram distances to
// the models of the languages written in it), whose code is a few kilobytes of the worker; the
// models of 107 languages (from @nlpjs/language, MIT) are the asset spam/languages.json, read once
// per isolate by the consumer, never bundled (the worker's 240 KiB budget: docs/performance.md).
// Only a message that is surely in another language counts: long enough to tell, and no expected
// language near the best guess. A wrong flag costs a genuine message 1.5 in log-odds; a missed one
// only leaves the other evidence to judge it.
/// <reference path="./nlpjs.d.ts" />
import { Language } from '@nlpjs/language-min';
import { assetLoader } from '../lib/assets.ts';
import { normalise } from './features.ts';

export const LANGUAGES_PATH = '/spam/languages.json';

/**
 * assets/spam/languages.json (scripts/build-assets.ts): for each script the library models, each
 * language's trigrams, most frequent first (by ISO 639-3 code); and the tags each language the
 * detector can name answers to, the one reported first (its ISO 639-1 code when it has one).
 * Languages of a script of their own (Japanese kana, Hangul, Thai, Greek, Han…) have no model: the
 * library names them by their script's key, which `tags` lists too.
 */
export type LanguagesFile = {
  models: Record<string, Record<string, string>>;
  tags: Record<string, string[]>;
};

/** What the rule asks of the library, with the file's tables. */
export type Detector = {
  /** Each modelled script's languages (ISO 639-3). */
  scripts: ReadonlyMap<string, readonly string[]>;
  /** Each language's tags, the reported one first. */
  tags: ReadonlyMap<string, readonly string[]>;
  /** Every tag the detector can tell (an expected language outside it cannot be told from others). */
  known: ReadonlySet<string>;
};

/** Text in a script its expected languages are written in says which of them it is from this many letters on. */
export const MIN_LETTERS = 40;
/** Text in a script none of them is written in (Cyrillic to a project expecting de, en) says so sooner. */
export const MIN_SCRIPT_LETTERS = 12;
/** An expected language scoring this much or more (the best guess scores 1) is a match: too close to tell. */
export const MARGIN = 0.95;
/** The rule's thresholds (bench/language.ts measures others). */
export type Tuning = { minLetters: number; minScriptLetters: number; margin: number };
const TUNING: Tuning = { minLetters: MIN_LETTERS, minScriptLetters: MIN_SCRIPT_LETTERS, margin: MARGIN };
/** The library reads this much of a text (of its letters, here). */
const SAMPLE = 2048;

/**
 * The detector with every model of the file. The library keeps its models in its module (one set
 * per isolate), so this adds them there; a second call replaces them with the same.
 */
export function detectorOf(file: LanguagesFile): Detector {
  const scripts = new Map<string, string[]>();
  for (const [script, languages] of Object.entries(file.models)) {
    for (const [alpha3, trigrams] of Object.entries(languages)) Language.addModel(script, alpha3, trigrams);
    scripts.set(script, Object.keys(languages));
  }
  const tags = new Map(Object.entries(file.tags));
  return { scripts, tags, known: new Set([...tags.values()].flat()) };
}

/** The detector, its models fetched from the assets binding once per isolate (again after a failure). */
export const loadLanguages = assetLoader(LANGUAGES_PATH, 'the language models', (json) =>
  detectorOf(json as LanguagesFile),
);

/** A BCP 47 tag's language, lower-cased: `pt-BR` → `pt`, `zh-Hant` → `zh`, `FIL` → `fil`. */
export const primaryTag = (tag: string) => (tag.trim().split(/[-_]/)[0] ?? '').toLowerCase();

const letterCount = (text: string) => text.match(/\p{L}/gu)?.length ?? 0;
const LATIN_WORD = /\p{Script=Latin}/u;
const LINK = /https?:\/\/|www\./i;
/** A word as far as a link in it starts; an address, nothing. */
function withoutLink(word: string): string {
  if (word.includes('@')) return '';
  const link = word.search(LINK);
  return link < 0 ? word : word.slice(0, link);
}
const lettersOf = (text: string) => text.replace(/[^\p{L}\p{M}]+/gu, ' ').trim();

/**
 * The text as the library should read it, the script it is in, and how many letters say so:
 * compatibility forms folded and invisible characters gone (as the classifier reads it), every run
 * of what is no letter (digits, punctuation of any script, emoji) one space, the first 2,048
 * characters. The script and the count leave out links and addresses, which are in no language: a
 * Russian greeting before a link is Cyrillic text of 6 letters, too short to tell. The library's
 * script count takes any printable ASCII for Latin (spaces too), so the script is counted on the
 * letters alone, and text in another script loses its Latin words: a Chinese message with a link
 * and a QQ number in it is Chinese, not Latin text with trigrams no Latin model holds. Latin text
 * keeps its links for the trigrams: their words are mostly the message's language (without them,
 * 12 own-language lines of the form corpus were flagged instead of 6).
 */
export function languageText(text: string): { sample: string; script: string; letters: number } {
  const folded = normalise(text).slice(0, SAMPLE);
  // Word by word: a pattern over the whole text would backtrack on a long run with no space in it.
  const words = lettersOf(folded.split(/\s+/).map(withoutLink).join(' '));
  const [script] = Language.getTopScript(words.replaceAll(' ', ''));
  const sample =
    script === 'Latin'
      ? lettersOf(folded)
      : words
          .split(' ')
          .filter((word) => !LATIN_WORD.test(word))
          .join(' ');
  return { sample, script, letters: letterCount(script === 'Latin' ? words : sample) };
}

/** Whether a detected language (ISO 639-3, or a script's key) is one of the wanted tags. */
function accepts(detector: Detector, wanted: ReadonlySet<string>, language: string): boolean {
  // Japanese written in kanji alone (a name, an address, a short line) is Han script, which the
  // library names Chinese: held against a project expecting `ja`, it would flag its own messages.
  if (language === 'cmn' && (wanted.has('ja') || wanted.has('jpn'))) return true;
  return (detector.tags.get(language) ?? [language]).some((tag) => wanted.has(tag));
}

/**
 * The language the text is surely in when it is none of `expected` (a tag: lower-case, ISO 639-1
 * when the language has one, else 639-3); undefined when it may be one of them, when it is too
 * short to tell, when nothing is expected, or when an expected language is one the detector
 * cannot tell (its text would be guessed as some other language).
 */
export function languageMismatch(
  detector: Detector,
  text: string,
  expected: readonly string[],
  tuning: Tuning = TUNING,
): string | undefined {
  if (expected.length === 0) return undefined;
  const wanted = new Set(expected.map(primaryTag));
  for (const tag of wanted) if (!detector.known.has(tag)) return undefined;
  const { sample, script, letters } = languageText(text);
  // The languages written in the text's script: a modelled script's, or the script's own.
  const writtenIn = detector.scripts.get(script) ?? [script];
  const ownScript = writtenIn.some((language) => accepts(detector, wanted, language));
  if (letters < (ownScript ? tuning.minLetters : tuning.minScriptLetters)) return undefined;
  const guesses = Language.detectAll(sample, { minLength: 1 });
  const best = guesses[0]?.[0];
  if (best === undefined || accepts(detector, wanted, best)) return undefined;
  for (const [language, score] of guesses)
    if (score >= tuning.margin && accepts(detector, wanted, language)) return undefined;
  return detector.tags.get(best)?.[0];
}

/** The reason's words: `language ru; expected de, en` (the expected tags as the owner wrote them). */
export function languageSignal(detected: string, expected: readonly string[]): string {
  return `language ${detected}; expected ${expected.join(', ')}`;
}

const ADDRESS_OR_LINK = /^\S+@\S+$|^https?:\/\//iu;

/** The text a submission's language is told by: its text values, addresses and links aside. */
export const messageText = (values: Record<string, unknown>) =>
  Object.values(values)
    .filter((v): v is string => typeof v === 'string' && !ADDRESS_OR_LINK.test(v.trim()))
    .join('\n');
