// C43: how the widget words a failure (widget/i18n.ts), without a page: the language it picks, the
// label it names a field by, the catalogue's sentence or, failing that, none (the worker's English
// text is kept), and the catalogue fetched once. The page itself is tested in Chromium (test/e2e/i18n.test.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGES, MESSAGES, message } from '../../client/src/messages.ts';
import { word } from '../../client/src/word.ts';
import { CATALOGUE_WAIT_MS, catalogue, labelText, pageLanguage } from '../../widget/i18n.ts';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("C43: the page's language", () => {
  it('a language the catalogue has is itself, a region of it too (formatted as the region writes)', () => {
    expect(pageLanguage('de')).toEqual({ lang: 'de', locale: 'de' });
    expect(pageLanguage('de-AT')).toEqual({ lang: 'de', locale: 'de-AT' });
    expect(pageLanguage('pt-BR')).toEqual({ lang: 'pt', locale: 'pt-BR' });
    expect(pageLanguage('FR-ca')).toEqual({ lang: 'fr', locale: 'FR-ca' });
    expect(pageLanguage('ja')).toEqual({ lang: 'ja', locale: 'ja' });
  });

  it('any other language, none, or a tag that is no tag is English (a broken region is dropped)', () => {
    for (const tag of ['sv', 'zh-Hant', 'x-klingon', '', null, undefined])
      expect(pageLanguage(tag)).toEqual({ lang: 'en', locale: 'en' });
    expect(pageLanguage('de-!!')).toEqual({ lang: 'de', locale: 'de' });
  });
});

describe("C43: a field's label", () => {
  it('is the visible text, trimmed, its white space collapsed, without a trailing * or colon', () => {
    expect(labelText('  E-Mail:  ')).toBe('E-Mail');
    expect(labelText('Your name *')).toBe('Your name');
    expect(labelText('Email\n      <*>:'.replace('<*>', '*'))).toBe('Email');
    expect(labelText('Phone\n   number')).toBe('Phone number');
    expect(labelText('お名前：')).toBe('お名前');
    expect(labelText('Meet at 5:30?')).toBe('Meet at 5:30?');
  });

  it('the first text that has one: an empty label gives way to the next (aria-label), none to undefined', () => {
    expect(labelText('', '  * ', 'Alter')).toBe('Alter');
    expect(labelText(null, undefined, ' ')).toBeUndefined();
    expect(labelText()).toBeUndefined();
  });
});

describe('C43: the sentence for a code', () => {
  const de = MESSAGES.de;

  it("words an issue with its label as the client's message() does, in every language and for every code", () => {
    const params: Record<string, Record<string, unknown>> = {
      type: { type: 'integer' },
      min_length: { min: 3 },
      max_length: { max: 1 },
      min: { min: 1000 },
      max: { max: 2.5 },
      format: { format: 'email' },
      one_of: { values: ['sales', 'support'] },
      file_type: { types: ['application/pdf', 'image/*'] },
      file_size: { max: 5_000_000 },
      // C45: a closed form's reason.
      form_closed: { reason: 'full' },
    };
    for (const lang of LANGUAGES) {
      for (const code of Object.keys(MESSAGES[lang])) {
        const sentence = word(MESSAGES[lang], code, params[code], lang, 'Age');
        expect(sentence, `${lang} ${code}`).toBe(message(code, params[code], lang, 'Age'));
      }
    }
    expect(word(de, 'format', { format: 'email' }, 'de', 'E-Mail')).toBe(
      '„E-Mail“ muss eine E-Mail-Adresse sein.',
    );
    // The region's digits (1'000 or 1’000, as the CLDR of the runtime has it), not Germany's 1.000.
    const swiss = new Intl.NumberFormat('de-CH').format(1000);
    expect(swiss).not.toBe('1.000');
    expect(word(de, 'min', { min: 1000 }, 'de-CH', 'Alter')).toBe(`„Alter“ muss mindestens ${swiss} sein.`);
  });

  it('words a cause, and the codes the client words as another (the visitor can do the same about them)', () => {
    expect(word(de, 'rate_limited', undefined, 'de')).toBe(de.rate_limited);
    expect(word(de, 'project_moving', undefined, 'de')).toBe(de.unavailable);
    expect(word(de, 'in_progress', undefined, 'de')).toBe(de.unavailable);
    expect(word(de, 'missing_key', undefined, 'de')).toBe(de.invalid_key);
  });

  it('has none for a code it does not know, for an issue without the parameters its sentence needs, or without a catalogue', () => {
    expect(word(de, 'a_newer_code', {}, 'de', 'E-Mail')).toBeUndefined();
    expect(word(de, 'invalid_json', undefined, 'de')).toBeUndefined();
    for (const inherited of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      expect(word(de, inherited, undefined, 'de', 'x')).toBeUndefined();
    expect(word(de, 'min', undefined, 'de', 'Alter')).toBeUndefined();
    expect(word(de, 'format', { min: 1 }, 'de', 'E-Mail')).toBeUndefined();
    expect(word(undefined, 'format', { format: 'email' }, 'de', 'E-Mail')).toBeUndefined();
    expect(word(de, undefined, undefined, 'de')).toBeUndefined();
    // A catalogue that is no catalogue (a proxy's page that parsed as JSON).
    expect(
      word(['x'] as unknown as Record<string, unknown>, 'format', { format: 'email' }, 'de'),
    ).toBeUndefined();
  });

  it('without a label, a field is "this field" in its language', () => {
    expect(word(de, 'required', undefined, 'de')).toBe('Dieses Feld ist ein Pflichtfeld.');
  });
});

describe('C43: the catalogue, fetched once per page', () => {
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  it('two failures fetch it once and share it', async () => {
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(MESSAGES.de));
    const url = 'https://forms.example/widget/i18n/de.json';
    const [first, second] = await Promise.all([catalogue(url), catalogue(url)]);
    expect(first).toEqual(MESSAGES.de);
    expect(await catalogue(url)).toBe(second);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]?.[0]).toBe(url);
  });

  it('a 404 or a network error gives none, and the next failure asks again', async () => {
    const answers: (Response | Error)[] = [json({}, 404), new TypeError('offline'), json(MESSAGES.fr)];
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      const next = answers.shift();
      if (next instanceof Error || next === undefined) throw next ?? new Error('no more answers');
      return next;
    });
    const url = 'https://forms.example/widget/i18n/fr.json';
    expect(await catalogue(url)).toBeUndefined();
    expect(await catalogue(url)).toBeUndefined();
    expect(await catalogue(url)).toEqual(MESSAGES.fr);
    expect(await catalogue(url)).toEqual(MESSAGES.fr);
    expect(spy).toHaveBeenCalledTimes(3);
  });

  it('a slow one is not waited for past its time: that failure keeps the worker text, a later one gets it', async () => {
    vi.useFakeTimers();
    let answer: (res: Response) => void = () => {};
    const spy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const url = 'https://forms.example/widget/i18n/nl.json';
    const first = catalogue(url);
    await vi.advanceTimersByTimeAsync(CATALOGUE_WAIT_MS);
    expect(await first).toBeUndefined();
    answer(json(MESSAGES.nl));
    expect(await catalogue(url)).toEqual(MESSAGES.nl);
    expect(spy).toHaveBeenCalledTimes(1);
  });
});
