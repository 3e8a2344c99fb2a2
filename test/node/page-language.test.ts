// C44: the language a hosted page speaks to a visitor: `?lang=` when the page speaks it, else the
// best of the visitor's Accept-Language among the page's languages (a refused one, q=0, never),
// matching a region to its language both ways; else the page's first.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptedLanguages, chooseLanguage } from '../../src/pages/language.ts';

describe("C44: a hosted page's language for a visitor", () => {
  it('never one the visitor refuses (q=0), however the header spells it', () => {
    expect(acceptedLanguages('fr;q=0, de;q=0.5')).toEqual(['de']);
    expect(acceptedLanguages('fr;q=0.0, en')).toEqual(['en']);
    expect(chooseLanguage(['fr', 'de'], undefined, 'fr;q=0, de;q=0.1')).toBe('de');
    // Refused and nothing else wanted: the page's first, never the refused one chosen by its tag.
    expect(chooseLanguage(['de', 'fr'], undefined, 'fr;q=0')).toBe('de');
    expect(chooseLanguage(['fr', 'de'], undefined, 'de;q=0, fr;q=0.2')).toBe('fr');
    // A region refused is not chosen for its language asked for.
    expect(chooseLanguage(['en', 'de-CH'], undefined, 'de, de-CH;q=0')).toBe('en');
  });

  it("a visitor's language finds the page's region of it, and a region the page's language", () => {
    expect(chooseLanguage(['en', 'de-CH'], undefined, 'de')).toBe('de-CH');
    expect(chooseLanguage(['en', 'de'], undefined, 'de-AT')).toBe('de');
    expect(chooseLanguage(['en', 'de-CH', 'de'], undefined, 'de')).toBe('de');
    expect(chooseLanguage(['en', 'fr'], undefined, 'de, fr;q=0.5')).toBe('fr');
  });

  it("?lang= first when the page speaks it; the most wanted next, in the header's order on a tie", () => {
    expect(chooseLanguage(['en', 'fr', 'de'], 'DE', 'fr')).toBe('de');
    expect(chooseLanguage(['en', 'fr'], 'it', 'fr')).toBe('fr');
    expect(chooseLanguage(['en', 'fr', 'de'], undefined, 'de;q=0.8, fr;q=0.8')).toBe('de');
    expect(chooseLanguage(['en', 'fr'], undefined, '*')).toBe('en');
    expect(chooseLanguage(['en', 'fr'], undefined, undefined)).toBe('en');
  });

  it("whatever the header says, the choice is one of the page's languages, and a refused one only as the page's first", () => {
    const tags = ['en', 'fr', 'de', 'de-CH', 'it', 'pt-BR', '*', 'x y'];
    const page = ['en', 'fr', 'de-CH'];
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...tags)),
        fc.array(fc.constantFrom('', ';q=0', ';q=0.5', ';q=1', ';q=2')),
        (chosenTags, qs) => {
          const parts = chosenTags.map((t, i) => `${t}${qs[i] ?? ''}`);
          const chosen = chooseLanguage(page, undefined, parts.join(', '));
          expect(page).toContain(chosen);
          const refused = chosenTags.filter((_, i) => qs[i] === ';q=0');
          if (chosen !== page[0]) expect(refused).not.toContain(chosen);
        },
      ),
    );
  });
});
