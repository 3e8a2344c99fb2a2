// The client's messages (client/src/messages.ts): a sentence for every issue of a field (C43) and
// every cause a visitor meets, in every language, each placeholder filled, as a native reader
// writes it (quotation marks, plural forms, digits, sizes, lists).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fill, LANGUAGES, language, MESSAGES, message } from '../../client/src/messages.ts';
import { ERROR_CODES, ISSUE_CODES } from '../../src/lib/codes.ts';

const ISSUES = Object.keys(ISSUE_CODES) as (keyof typeof ISSUE_CODES)[];
/** The single causes a visitor can meet, as the catalogue words them. */
const CAUSES = [
  'validation_failed',
  'rate_limited',
  'invalid_key',
  'origin_not_allowed',
  'body_too_large',
  'file_too_large',
  'challenge_failed',
  'proof_of_work_failed',
  'unavailable',
  'form_not_found',
  'form_closed',
  'internal_error',
] as const;
const NNBSP = '\u202f';

/** How each language quotes a field's label. */
const QUOTED: Record<string, (label: string) => string> = {
  en: (l) => `“${l}”`,
  de: (l) => `„${l}“`,
  fr: (l) => `«${NNBSP}${l}${NNBSP}»`,
  es: (l) => `«${l}»`,
  it: (l) => `«${l}»`,
  nl: (l) => `‘${l}’`,
  pl: (l) => `„${l}”`,
  pt: (l) => `“${l}”`,
  ja: (l) => `「${l}」`,
};

/** The parameters each issue carries (C43), drawn. */
const PARAMS: Record<(typeof ISSUES)[number], fc.Arbitrary<Record<string, unknown> | undefined>> = {
  type: fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'file') }),
  required: fc.constant(undefined),
  unknown_field: fc.constant(undefined),
  min_length: fc.record({ min: fc.nat(100_000) }),
  max_length: fc.record({ max: fc.nat(10_000_000) }),
  min: fc.record({ min: fc.double({ noNaN: true, noDefaultInfinity: true }) }),
  max: fc.record({ max: fc.integer() }),
  format: fc.record({ format: fc.constantFrom('email', 'url', 'date', 'date-time', 'uuid') }),
  one_of: fc.record({
    values: fc.array(fc.stringMatching(/^[a-z0-9 ]{1,12}$/), { minLength: 1, maxLength: 6 }),
  }),
  pattern: fc.constant(undefined),
  file_type: fc.record({
    types: fc.array(fc.constantFrom('application/pdf', 'image/*', 'text/plain'), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
  file_size: fc.record({ max: fc.nat(5_000_000_000) }),
  too_many_files: fc.constant(undefined),
  unique: fc.constant(undefined),
  duplicate_field: fc.constant(undefined),
};

describe('the messages: the catalogue', () => {
  it('C43: every language words every issue code, every cause a visitor meets, and the general ones, and nothing else', () => {
    expect(LANGUAGES).toEqual(['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'ja']);
    const codes = [...ISSUES, 'invalid', ...CAUSES, 'network_error', 'unknown'].sort();
    for (const lang of LANGUAGES) expect(Object.keys(MESSAGES[lang]).sort()).toEqual(codes);
    // The causes are the worker's codes, under their names.
    expect(CAUSES.filter((code) => !(code in ERROR_CODES))).toEqual([]);
  });

  it('is plain data: one language as JSON, filled by fill alone, says what message() says', () => {
    const de = JSON.parse(JSON.stringify(MESSAGES.de)) as Record<string, string>;
    expect(fill(de.min_length ?? '', { min: 3 }, 'de', 'Name')).toBe(
      message('min_length', { min: 3 }, 'de', 'Name'),
    );
    expect(fill(de.min_length ?? '', { min: 3 }, 'de', 'Name')).toBe(
      '„Name“ muss mindestens 3 Zeichen lang sein.',
    );
  });

  it('C43: every issue in every language, whatever its parameters and label, is a whole sentence: no placeholder, undefined or NaN left', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ISSUES).chain((code) => fc.tuple(fc.constant(code), PARAMS[code])),
        fc.oneof(
          fc.constantFrom(...LANGUAGES),
          fc.constantFrom('de-AT', 'pt-BR', 'fr-CA', 'es-419', 'zh', 'x'),
        ),
        fc.option(fc.stringMatching(/^[A-Za-zÀ-ÿ0-9 _-]{1,20}$/), { nil: undefined }),
        ([code, params], lang, label) => {
          const text = message(code, params, lang, label);
          expect(text).not.toMatch(/[{}#]|undefined|NaN|null|\[object/);
          expect(text).toMatch(/[.。]$/);
          if (label !== undefined) expect(text).toContain(QUOTED[language(lang)]?.(label));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('every cause in every language is a sentence without placeholders', () => {
    for (const lang of LANGUAGES) {
      for (const code of [...CAUSES, 'network_error', 'unknown']) {
        expect(message(code, undefined, lang)).toMatch(/^[^{}#]+[.。]$/);
      }
    }
  });
});

describe('the messages: as a native reader writes them', () => {
  it('each language quotes a label its own way; without a label a sentence says "this field"', () => {
    expect(message('required', undefined, 'en', 'Email')).toBe('“Email” is required.');
    expect(message('required', undefined, 'de', 'E-Mail')).toBe('„E-Mail“ ist ein Pflichtfeld.');
    expect(message('required', undefined, 'fr', 'E-mail')).toBe(
      `Le champ «${NNBSP}E-mail${NNBSP}» est obligatoire.`,
    );
    expect(message('required', undefined, 'ja', 'メール')).toBe('「メール」は必須です。');
    expect(message('required', undefined, 'pl', 'E-mail')).toBe('Pole „E-mail” jest wymagane.');
    expect(message('required', undefined, 'en')).toBe('This field is required.');
    expect(message('required', undefined, 'de')).toBe('Dieses Feld ist ein Pflichtfeld.');
  });

  it('Polish counts characters in its three forms, from Intl.PluralRules', () => {
    const counted = [1, 2, 4, 5, 12, 21, 22, 25, 112, 1.5].map((min) =>
      message('min_length', { min }, 'pl', 'Imię'),
    );
    expect(counted.map((text) => text.replace('Pole „Imię” musi mieć co najmniej ', ''))).toEqual([
      '1 znak.',
      '2 znaki.',
      '4 znaki.',
      '5 znaków.',
      '12 znaków.',
      '21 znaków.',
      '22 znaki.',
      '25 znaków.',
      '112 znaków.',
      '1,5 znaku.',
    ]);
  });

  it('one and many: English, French (0 and 1 are singular), Japanese (no plural)', () => {
    expect(message('max_length', { max: 1 }, 'en', 'Code')).toBe('“Code” must be at most 1 character long.');
    expect(message('max_length', { max: 1000 }, 'en', 'Code')).toBe(
      '“Code” must be at most 1,000 characters long.',
    );
    expect(message('min_length', { min: 0 }, 'fr', 'Nom')).toContain('au moins 0 caractère.');
    expect(message('max_length', { max: 1_000_000 }, 'fr', 'Nom')).toContain(
      `au plus 1${NNBSP}000${NNBSP}000 de caractères.`,
    );
    expect(message('min_length', { min: 3 }, 'ja', '名前')).toBe('「名前」は3文字以上で入力してください。');
  });

  it('numbers in the language’s digits; sizes in bytes, kB and MB, never rounded up', () => {
    expect(message('min', { min: 1000.5 }, 'de', 'Betrag')).toBe('„Betrag“ muss mindestens 1.000,5 sein.');
    // The region's own digits where Intl knows them (ICU writes 1’000 or 1'000 for Switzerland).
    expect(message('min', { min: 1000 }, 'de-CH', 'Betrag')).toMatch(
      /^„Betrag“ muss mindestens 1[’']000 sein\.$/,
    );
    expect(message('max', { max: 1000 }, 'fr', 'Montant')).toContain(`égal à 1${NNBSP}000.`);
    expect(message('file_size', { max: 5_000_000 }, 'en', 'CV')).toBe('“CV” must be at most 5 MB.');
    expect(message('file_size', { max: 5_242_880 }, 'en', 'CV')).toBe('“CV” must be at most 5.2 MB.');
    expect(message('file_size', { max: 1999 }, 'en', 'CV')).toBe('“CV” must be at most 1.9 kB.');
    expect(message('file_size', { max: 500 }, 'en', 'CV')).toBe('“CV” must be at most 500 bytes.');
    expect(message('file_size', { max: 5_000_000 }, 'fr', 'CV')).toBe(
      `Le champ «${NNBSP}CV${NNBSP}» ne doit pas dépasser 5${NNBSP}Mo.`,
    );
  });

  it('choices are listed with "or", each quoted; types and formats are named in words', () => {
    const values = ['sales', 'support', 'other'];
    expect(message('one_of', { values }, 'en', 'Topic')).toBe(
      '“Topic” must be “sales”, “support”, or “other”.',
    );
    expect(message('one_of', { values }, 'de', 'Thema')).toBe(
      '„Thema“ muss „sales“, „support“ oder „other“ sein.',
    );
    expect(message('one_of', { values: ['a'] }, 'nl', 'Keuze')).toBe('Het veld ‘Keuze’ moet ‘a’ zijn.');
    expect(message('file_type', { types: ['application/pdf', 'image/*'] }, 'es', 'CV')).toBe(
      'El campo «CV» debe contener un archivo de tipo application/pdf o image/*.',
    );
    expect(message('type', { type: 'integer' }, 'it', 'Età')).toBe(
      'Il campo «Età» deve essere un numero intero.',
    );
    expect(message('format', { format: 'email' }, 'pt', 'E-mail')).toBe(
      'O campo “E-mail” deve conter um endereço de e-mail.',
    );
    expect(message('format', { format: 'date' }, 'de', 'Datum')).toBe(
      '„Datum“ muss ein Datum (JJJJ-MM-TT) sein.',
    );
  });
});

describe('the messages: languages and codes it does not know', () => {
  it('a BCP 47 tag is read by its language; any other, or none, is English', () => {
    expect(language('de-AT')).toBe('de');
    expect(language('pt-BR')).toBe('pt');
    expect(language('PT_br')).toBe('pt');
    expect(language('zh-Hant')).toBe('en');
    expect(language(undefined)).toBe('en');
    expect(message('required', undefined, 'pt-BR', 'Nome')).toBe('O campo “Nome” é obrigatório.');
    expect(message('required', undefined, 'sv', 'Namn')).toBe('“Namn” is required.');
    expect(message('min', { min: 1000 }, 'not a tag!', 'N')).toBe('“N” must be at least 1,000.');
  });

  it('a code newer than the catalogue, or an issue without its parameters, gets the general sentence', () => {
    expect(message('some_new_rule', { x: 1 }, 'de', 'Feld')).toBe('„Feld“ ist ungültig.');
    expect(message('min_length', undefined, 'en', 'Name')).toBe('“Name” is not valid.');
    expect(message('some_new_cause', undefined, 'fr')).toBe(
      'Le formulaire n’a pas pu être envoyé. Veuillez réessayer.',
    );
    expect(message('missing_key', undefined, 'en')).toBe(message('invalid_key', undefined, 'en'));
    expect(message('project_moving', undefined, 'ja')).toBe(message('unavailable', undefined, 'ja'));
    // Not the catalogue's own properties.
    expect(message('toString', undefined, 'en')).toBe(message('unknown', undefined, 'en'));
  });
});
