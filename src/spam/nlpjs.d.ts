// @nlpjs/language-min ships no types: what src/spam/language.ts uses of it (C39), the statics of
// its Language class (the library keeps its models in its module, not in instances).
declare module '@nlpjs/language-min' {
  export const Language: {
    /** Adds (or replaces) a language's model: its trigrams, most frequent first, in a script the library counts. */
    addModel(script: string, alpha3: string, trigrams: string): void;
    /** The script most of the text is written in (`Latin`, `Cyrillic`, `cmn`, `jpn`, …) and its share. */
    getTopScript(text: string): [script: string, share: number];
    /**
     * Every modelled language of the text's script (ISO 639-3) with its score, best first (the best
     * scores 1); or the script's key alone when the script has no models (`jpn`, `kor`, `cmn`, …).
     */
    detectAll(text: string, settings?: { minLength?: number }): [language: string, score: number][];
  };
}
