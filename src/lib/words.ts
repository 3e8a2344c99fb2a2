// The words of a text, as a search finds them: split where Unicode says words end (Intl.Segmenter),
// in lower case, without diacritics (`Zoë` is `zoe`), each at most 64 characters.

// Made on first use: an ICU word breaker costs milliseconds to make, which the worker's startup
// (every request's, in a cold isolate) should not pay for search.
let segmenter: Intl.Segmenter | undefined;
const MAX_WORD = 64;

/** A word as it is indexed and searched for. */
export function normaliseWord(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().slice(0, MAX_WORD);
}

/** The distinct words of `text`, in the order they first occur, at most `max` of them. */
export function wordsOf(text: string, max = Number.POSITIVE_INFINITY): string[] {
  const words = new Set<string>();
  segmenter ??= new Intl.Segmenter('en', { granularity: 'word' });
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    if (!isWordLike) continue;
    const word = normaliseWord(segment);
    if (word !== '') words.add(word);
    if (words.size >= max) break;
  }
  return [...words];
}
