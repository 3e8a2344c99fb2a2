// C44: what a field shows and a hosted page's texts: maps of language tag → text, parsed by one
// function for the management API's JSON and the tool's `<lang>=<text>` options, tags canonical,
// within their limits, with no control character; and the page's settings, checked member by member.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DISPLAY_LIMITS,
  displayRule,
  MAX_TEXT_LANGUAGES,
  parseTextMap,
  type TextRule,
  textIn,
  textOptions,
} from '../../src/fields/display.ts';
import { fieldFromJson } from '../../src/fields/spec.ts';
import { MAX_PAGE_LANGUAGES, PAGE_TEXTS, parsePage } from '../../src/ops/hosted-page.ts';

const LABEL = displayRule('label', 'email');
const HELP = displayRule('help', 'email');

/** What a parse does: the map it makes, or the sentence it refuses with. */
function outcome(parse: () => unknown): { ok: unknown } | { refused: string } {
  try {
    return { ok: parse() };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

const refusal = (parse: () => unknown) => {
  const result = outcome(parse);
  if (!('refused' in result)) throw new Error(`taken: ${JSON.stringify(result.ok)}`);
  return result.refused;
};

// Tags as people write them: good ones in any case, deprecated ones, and some that are none.
const tag = fc.oneof(
  fc
    .constantFrom(
      'en',
      'en-us',
      'de-at',
      'pt-br',
      'zh-hant-tw',
      'sr-latn',
      'es-419',
      'iw',
      'mo',
      'ja',
      'fr-CA',
    )
    .chain((t) =>
      fc
        .array(fc.boolean(), { minLength: t.length, maxLength: t.length })
        .map((upper) => [...t].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join('')),
    ),
  fc.constantFrom('', 'en_US', 'x-private', 'i-klingon', 'toolongtag', 'en-', ' de', '__proto__'),
  fc.string({ maxLength: 8 }),
);
// Texts of every kind: any code point, control characters included, sometimes long.
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 190, maxLength: 1010 }),
);
/** Maps more likely taken: known tags in any case, printable texts of a few words. */
const likely = fc.array(
  fc.tuple(
    fc.constantFrom('EN', 'en-gb', 'De', 'pt-BR', 'zh-hans', 'IW', 'fr', 'nl', 'ja-JP'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }),
  ),
  { minLength: 1, maxLength: 5 },
);
const rule = fc.constantFrom<TextRule>(LABEL, HELP, displayRule('placeholder', 'email'), PAGE_TEXTS.intro);

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a text may not hold
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe('C44: a text in its languages', () => {
  it('C44 (property): a map taken is canonical, within its limits, has no control character, and is taken again as it is', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.tuple(tag, text), { maxLength: 22 }), likely), rule, (entries, r) => {
        const result = outcome(() => parseTextMap(Object.fromEntries(entries), r));
        if (!('ok' in result)) return;
        const map = result.ok as Record<string, string>;
        if (Object.keys(map).length > 0) taken++;
        expect(Object.keys(map).length).toBeLessThanOrEqual(MAX_TEXT_LANGUAGES);
        for (const [t, value] of Object.entries(map)) {
          expect(Intl.getCanonicalLocales(t)).toEqual([t]);
          expect([...value].length).toBeLessThanOrEqual(r.max);
          expect(value.trim()).not.toBe('');
          expect(CONTROL.test(value.replaceAll(r.lines ? '\n' : '', ''))).toBe(false);
          if (!r.lines) expect(value).not.toContain('\n');
        }
        expect(parseTextMap(map, r)).toEqual(map);
      }),
      { numRuns: 400 },
    );
    // Enough maps with texts in them were taken for the property to say something.
    expect(taken).toBeGreaterThan(40);
  });

  it("C44 (property): the tool's `<lang>=<text>` options and the API's JSON are taken alike, or refused in the same sentence", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(tag, text), { maxLength: 4 }), rule, (entries, r) => {
        // Where a tag is empty the options cannot say it (`=text` is no option): left to the JSON.
        // A JSON object's integer-like keys come first in JavaScript (no tag is one): left out too.
        fc.pre(entries.every(([t]) => t !== '' && !t.includes('=') && !/^\d+$/.test(t)));
        fc.pre(new Set(entries.map(([t]) => t)).size === entries.length);
        const json = outcome(() => parseTextMap(Object.fromEntries(entries), r));
        const options = outcome(() =>
          textOptions(
            entries.map(([t, v]) => `${t}=${v}`),
            r,
          ),
        );
        expect(options).toEqual(json);
      }),
      { numRuns: 300 },
    );
  });

  it('C44 (property): any control character, line and paragraph separator or bidirectional override is refused, naming it', () => {
    const control = fc.oneof(
      fc.integer({ min: 0, max: 0x1f }),
      fc.integer({ min: 0x7f, max: 0x9f }),
      fc.constantFrom(0x2028, 0x2029, 0x202a, 0x202e, 0x2066, 0x2069),
    );
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 10 }),
        control,
        fc.string({ maxLength: 10 }),
        (a, c, b) => {
          fc.pre(!(c === 0x0a || c === 0x0d) && !CONTROL.test(a + b) && `${a}${b}`.trim() !== '');
          const value = `${a}${String.fromCodePoint(c)}${b}`;
          for (const r of [LABEL, HELP]) {
            const code = `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
            expect(refusal(() => parseTextMap({ en: value }, r))).toBe(
              `The ${r.what} in 'en' holds ${code}: no control characters`,
            );
          }
        },
      ),
    );
  });

  it('C44: tags are stored canonical; one language given twice, in any spelling, is refused', () => {
    expect(parseTextMap({ 'EN-us': 'Email', iw: 'דוא"ל', 'zh-hant-tw': '電子郵件' }, LABEL)).toEqual({
      'en-US': 'Email',
      he: 'דוא"ל',
      'zh-Hant-TW': '電子郵件',
    });
    expect(refusal(() => parseTextMap({ 'en-US': 'a', 'EN-us': 'b' }, LABEL))).toBe(
      "The label of field 'email' is given twice in 'en-US'",
    );
    expect(refusal(() => textOptions(['de=Ihre E-Mail', 'DE=Noch eine'], LABEL))).toBe(
      "The label of field 'email' is given twice in 'de'",
    );
    expect(refusal(() => parseTextMap({ en_US: 'Email' }, LABEL))).toBe(
      "Invalid language tag 'en_US' in the label of field 'email': a BCP 47 tag such as en, de or pt-BR",
    );
    expect(refusal(() => parseTextMap(JSON.parse('{"__proto__": "x", "en": "y"}'), LABEL))).toContain(
      "Invalid language tag '__proto__'",
    );
  });

  it('C44: the limits: a label or placeholder 200 characters, a help 1,000 (code points), 20 languages', () => {
    expect(DISPLAY_LIMITS).toEqual({
      label: { max: 200, lines: false },
      help: { max: 1000, lines: true },
      placeholder: { max: 200, lines: false },
    });
    expect(parseTextMap({ en: '😀'.repeat(200) }, LABEL)).toEqual({ en: '😀'.repeat(200) });
    expect(refusal(() => parseTextMap({ en: 'x'.repeat(201) }, LABEL))).toBe(
      "The label of field 'email' in 'en' is 201 characters: at most 200",
    );
    expect(parseTextMap({ en: 'x'.repeat(1000) }, HELP).en).toHaveLength(1000);
    expect(refusal(() => parseTextMap({ en: 'x'.repeat(1001) }, HELP))).toBe(
      "The help of field 'email' in 'en' is 1001 characters: at most 1000",
    );
    const languages = [
      'en',
      'de',
      'fr',
      'es',
      'it',
      'nl',
      'pl',
      'pt',
      'ja',
      'zh',
      'ko',
      'ru',
      'uk',
      'cs',
      'sk',
    ];
    const twenty = [...languages, 'sv', 'da', 'fi', 'nb', 'el'];
    expect(Object.keys(parseTextMap(Object.fromEntries(twenty.map((l) => [l, l])), LABEL))).toEqual(twenty);
    expect(refusal(() => parseTextMap(Object.fromEntries([...twenty, 'tr'].map((l) => [l, l])), LABEL))).toBe(
      "The label of field 'email' is given in 21 languages: at most 20",
    );
  });

  it('C44: help takes line breaks (CRLF stored as LF), a label none; an empty map or null is none; a blank text is refused', () => {
    expect(parseTextMap({ en: 'One\r\nTwo\rThree\nFour' }, HELP)).toEqual({ en: 'One\nTwo\nThree\nFour' });
    expect(refusal(() => parseTextMap({ en: 'One\nTwo' }, LABEL))).toBe(
      "The label of field 'email' in 'en' holds U+000A: it is one line",
    );
    expect(refusal(() => parseTextMap({ en: 'One\r\nTwo' }, LABEL))).toBe(
      "The label of field 'email' in 'en' holds U+000D: no control characters",
    );
    expect(parseTextMap({}, LABEL)).toEqual({});
    expect(parseTextMap(null, LABEL)).toEqual({});
    expect(refusal(() => parseTextMap({ en: '  ' }, LABEL))).toBe(
      "The label of field 'email' in 'en' is empty: leave the language out",
    );
    expect(refusal(() => parseTextMap({ en: 42 }, LABEL))).toBe(
      "The label of field 'email' in 'en' is not text",
    );
    expect(refusal(() => parseTextMap('Email', LABEL))).toBe(
      `The label of field 'email' is an object of language tags and texts, e.g. {"en": "…", "de": "…"}`,
    );
    expect(refusal(() => textOptions(['Email'], LABEL))).toBe(
      "Give the label of field 'email' as <language>=<text>, e.g. en=Hello: not 'Email'",
    );
    // The text keeps any `=` after the first.
    expect(textOptions(['en=a=b'], LABEL)).toEqual({ en: 'a=b' });
  });

  it("C44: a text in the project's default language: the page's first, else en, else the first it has", () => {
    expect(textIn({ en: 'Email', de: 'E-Mail' }, 'de')).toBe('E-Mail');
    expect(textIn({ fr: 'Courriel', en: 'Email' }, 'de')).toBe('Email');
    expect(textIn({ fr: 'Courriel', it: 'Posta' }, 'de')).toBe('Courriel');
    expect(textIn({}, 'en')).toBeUndefined();
    expect(textIn(undefined, 'en')).toBeUndefined();
  });
});

describe('C44: a field as JSON carries what it shows', () => {
  it('takes label, help and placeholder beside type and rules; an unknown member names them all', () => {
    expect(
      fieldFromJson('email', {
        type: 'string',
        rules: { format: 'email' },
        label: { 'EN-gb': 'Your email' },
        help: { en: 'We reply\nwithin a day' },
        placeholder: null,
      }),
    ).toEqual({
      name: 'email',
      type: 'string',
      required: false,
      rules: { format: 'email' },
      label: { 'en-GB': 'Your email' },
      help: { en: 'We reply\nwithin a day' },
      placeholder: {},
    });
    expect(fieldFromJson('email', { type: 'string' })).toEqual({
      name: 'email',
      type: 'string',
      required: false,
    });
    expect(refusal(() => fieldFromJson('email', { type: 'string', title: { en: 'x' } }))).toBe(
      "Unknown member 'title' in field 'email': use type, required, rules, label, help, placeholder, multiline, when, capture, step",
    );
    expect(refusal(() => fieldFromJson('email', { type: 'string', placeholder: { en: 'a\tb' } }))).toBe(
      "The placeholder of field 'email' in 'en' holds U+0009: no control characters",
    );
  });
});

describe("C44: the page's settings", () => {
  it('checks each member given and says which columns change; the others are not named', () => {
    expect(parsePage({ enabled: true })).toEqual({
      columns: { pageEnabled: true },
      detail: { enabled: true },
    });
    expect(
      parsePage({
        languages: ['DE-at', 'en'],
        title: { de: 'Schreiben Sie uns', en: 'Write to us' },
        intro: { en: 'Line one\r\nLine two' },
        thanks: {},
        accent: '#1F5FBF',
        theme: 'dark',
      }),
    ).toEqual({
      columns: {
        pageLanguages: '["de-AT","en"]',
        pageTitle: '{"de":"Schreiben Sie uns","en":"Write to us"}',
        pageIntro: '{"en":"Line one\\nLine two"}',
        pageThanks: null,
        pageAccent: '#1f5fbf',
        pageTheme: 'dark',
      },
      detail: {
        languages: ['de-AT', 'en'],
        title: { de: 'Schreiben Sie uns', en: 'Write to us' },
        intro: { en: 'Line one\nLine two' },
        thanks: {},
        accent: '#1f5fbf',
        theme: 'dark',
      },
    });
    expect(parsePage({})).toEqual({ columns: {}, detail: {} });
  });

  it('refuses each bad member in a sentence that names it', () => {
    const cases: [unknown, string][] = [
      [[], 'The page is an object of the settings to change, e.g. {"enabled": true}'],
      [{ enabled: 'yes' }, "The page's enabled is true or false"],
      [
        { languages: [] },
        `The page's languages are 1 to ${MAX_PAGE_LANGUAGES} language tags, the first its default, e.g. ["en", "de"]`,
      ],
      [
        { languages: 'en' },
        `The page's languages are 1 to ${MAX_PAGE_LANGUAGES} language tags, the first its default, e.g. ["en", "de"]`,
      ],
      [
        { languages: ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'ja', 'zh', 'ko'] },
        `The page's languages are 1 to ${MAX_PAGE_LANGUAGES} language tags, the first its default, e.g. ["en", "de"]`,
      ],
      [{ languages: ['en', 'EN'] }, "The language 'en' is given twice in the page's languages"],
      [
        { languages: ['en-GB', 'British English'] },
        "Invalid language tag 'British English' in the page's languages: a BCP 47 tag such as en, de or pt-BR",
      ],
      [{ title: { en: 'x'.repeat(201) } }, "The page's title in 'en' is 201 characters: at most 200"],
      [{ title: { en: 'One\nTwo' } }, "The page's title in 'en' holds U+000A: it is one line"],
      [{ intro: { en: 'x'.repeat(2001) } }, "The page's intro in 'en' is 2001 characters: at most 2000"],
      [{ thanks: { en: 'x'.repeat(1001) } }, "The page's thanks in 'en' is 1001 characters: at most 1000"],
      [{ accent: 'red' }, "The page's accent is a colour as #rrggbb, e.g. #1f5fbf: not 'red'"],
      [{ accent: '#1f5fb' }, "The page's accent is a colour as #rrggbb, e.g. #1f5fbf: not '#1f5fb'"],
      [{ theme: 'blue' }, "The page's theme is auto, light, dark: not 'blue'"],
      [
        { turnstileSiteKey: '<script>' },
        "Invalid Turnstile site key: copy the site key (not the secret) from the Turnstile widget's settings, e.g. 0x4AAAAAAA…",
      ],
      [
        { colour: '#000000' },
        "Unknown member 'colour' of the page: use enabled, languages, title, intro, thanks, accent, theme, turnstileSiteKey, steps",
      ],
      [
        { logo: { type: 'image/png' } },
        "The page's logo is set by itself: PUT /api/v1/projects/<id>/page/logo, or forms page logo",
      ],
    ];
    for (const [input, sentence] of cases)
      expect(
        refusal(() => parsePage(input)),
        JSON.stringify(input),
      ).toBe(sentence);
    // Ten languages, the most a page speaks.
    const ten = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'ja', 'zh'];
    expect(parsePage({ languages: ten }).detail.languages).toEqual(ten);
  });
});
