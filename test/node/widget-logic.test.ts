// C45: the widget's conditions, prefill and capture (widget/logic.ts), without a DOM: a field hidden by the
// widget is exactly a field the worker judges not to apply, on random projects with random
// conditions and random values, whether the form goes as the hosted page sends it (multipart, read
// by the worker's own conversion) or as JSON; each condition read back from the markup
// src/fields/form-html.ts writes. The page itself is tested in Chromium (test/e2e/conditions.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertForm, type FormEntry } from '../../src/api/html-form/convert.ts';
import { CAPTURE_MAX } from '../../src/fields/capture.ts';
import { type Condition, inactiveFields } from '../../src/fields/conditions.ts';
import { control } from '../../src/fields/form-html.ts';
import type { FieldDef } from '../../src/fields/validation.ts';
import {
  capturedValue,
  type Fillable,
  fillOf,
  hiddenNames,
  type Seen,
  sentValue,
} from '../../widget/logic.ts';
import { conditionOver } from './condition-arbitraries.ts';

// No name from `_`: a form post's such names are its own controls (C29), never a field's value.
// `__proto__` is the JSON path's alone (below).
const NAMES = ['business', 'company', 'a', 'constructor', 'toString', 'it\'s"q"', 'naïve😀', 'x&<y>', '1'];
const CHOICES = ['sales', 'support', 'it’s', 'A "B"'];
const TYPES = ['string', 'choice', 'integer', 'number', 'boolean', 'file'] as const;

const smallInt = fc.integer({ min: -3, max: 3 });
const DRAWN = { texts: ['x', 'ada'], numbers: smallInt };

const fieldOf = (name: string, kind: (typeof TYPES)[number], required: boolean): FieldDef =>
  kind === 'choice'
    ? { name, type: 'string', required, rules: { oneOf: CHOICES } }
    : { name, type: kind, required };

/** A project: each field after the first perhaps conditional on those before it. */
const project: fc.Arbitrary<FieldDef[]> = fc
  .uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 6 })
  .chain((names) =>
    fc.tuple(
      ...names.map((name) =>
        fc.tuple(fc.constantFrom(...TYPES), fc.boolean()).map(([t, required]) => fieldOf(name, t, required)),
      ),
    ),
  )
  .chain((defs) =>
    fc.tuple(
      ...defs.map((def, i) =>
        i === 0
          ? fc.constant(def)
          : fc.oneof(fc.constant(def), {
              arbitrary: conditionOver(defs.slice(0, i), DRAWN).map((when): FieldDef => ({ ...def, when })),
              weight: 3,
            }),
      ),
    ),
  );

/** What a visitor left in a field's control: as a browser keeps it (a number input's text is a number or empty). */
const stateOf = (def: FieldDef): fc.Arbitrary<{ value: string; checked: boolean }> => {
  const text = (values: fc.Arbitrary<string>) => values.map((value) => ({ value, checked: false }));
  switch (def.type) {
    case 'boolean':
      return fc.boolean().map((checked) => ({ value: 'on', checked }));
    case 'integer':
      return text(fc.oneof(fc.constant(''), smallInt.map(String)));
    case 'number':
      return text(fc.oneof(fc.constant(''), smallInt.map(String), fc.constantFrom('0.5', '-1.25', '2.0')));
    case 'file':
      return text(fc.constantFrom('', 'C:\\fakepath\\cv.pdf'));
    case 'string':
      return text(
        def.rules?.oneOf
          ? fc.constantFrom('', ...def.rules.oneOf)
          : fc.oneof(fc.constantFrom('', 'x', 'ada', ' '), fc.string({ maxLength: 3 })),
      );
  }
};

const UNESCAPE: Record<string, string> = {
  '&quot;': '"',
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
  '&amp;': '&',
};

/** The control's `data-when` as a browser reads the attribute form-html.ts writes. */
function whenIn(html: string): string | null {
  const match = /data-when="([^"]*)"/.exec(html);
  return match ? (match[1] ?? '').replace(/&(?:quot|#39|lt|gt|amp);/g, (e) => UNESCAPE[e] ?? e) : null;
}

/** The control as the widget sees it: its markup's condition, its kind, the visitor's value. */
function seenOf(def: FieldDef, state: { value: string; checked: boolean }): Seen {
  const type =
    def.type === 'boolean'
      ? 'checkbox'
      : def.type === 'integer' || def.type === 'number'
        ? 'number'
        : def.type === 'file'
          ? 'file'
          : def.rules?.oneOf
            ? 'select-one'
            : 'text';
  return { name: def.name, type, ...state, when: whenIn(control(def)) };
}

/** What a browser's form post carries of the controls that are not disabled (FormData's entries). */
function entriesOf(controls: readonly Seen[], off: ReadonlySet<string>): FormEntry[] {
  return controls.flatMap((c): FormEntry[] => {
    if (off.has(c.name)) return [];
    if (c.type === 'checkbox') return c.checked ? [{ name: c.name, value: 'on' }] : [];
    if (c.type === 'file')
      return [
        {
          name: c.name,
          filename: c.value === '' ? '' : 'cv.pdf',
          bytes: new Uint8Array(c.value === '' ? 0 : 5),
        },
      ];
    return [{ name: c.name, value: c.value }];
  });
}

const setOf = (s: Set<string>) => [...s].sort();

describe('C45: the widget hides exactly the fields the worker judges not to apply', () => {
  it('(property) on random projects, conditions and values: as the hosted page posts them, and as JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        project.chain((defs) => fc.tuple(fc.constant(defs), fc.tuple(...defs.map(stateOf)))),
        async ([defs, states]) => {
          const controls = defs.map((def, i) => seenOf(def, states[i] ?? { value: '', checked: false }));
          const hidden = hiddenNames(controls);
          // The hosted page: a multipart post of the enabled controls, read by the worker.
          const { body } = await convertForm(entriesOf(controls, hidden), defs);
          expect(setOf(hidden)).toEqual(setOf(inactiveFields(defs, body)));
          // A widget form's JSON: the values it sends of the enabled controls.
          const json = Object.fromEntries(
            controls
              .filter((c) => !hidden.has(c.name))
              .flatMap((c) => {
                const v = sentValue(c);
                return v === undefined ? [] : [[c.name, v]];
              }),
          );
          expect(setOf(hidden)).toEqual(setOf(inactiveFields(defs, json)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a condition reaches the widget whole through the markup, whatever its names and values hold', () => {
    const when: Condition = {
      any: [{ field: 'it\'s"q"&<x>', oneOf: ['A "B"', '</small>'] }, { not: { field: 'n', filled: true } }],
    };
    const html = control({ name: 'company', type: 'string', required: true, when });
    expect(html).toContain('<input id="f-company" name="company" data-when="{&quot;any&quot;:');
    expect(JSON.parse(whenIn(html) ?? '')).toEqual(when);
    // One attribute: no quote or bracket of the condition is left raw.
    expect(html.match(/"/g)?.length).toBe(8);
  });

  it('in field order: a field that does not apply is absent to the conditions after it, whatever it holds', () => {
    const kind: Seen = { name: 'kind', type: 'select-one', value: 'private', checked: false };
    const company: Seen = {
      name: 'company',
      type: 'text',
      value: 'ACME',
      checked: false,
      when: '{"field":"kind","equals":"business"}',
    };
    const vat: Seen = {
      name: 'vat',
      type: 'text',
      value: '',
      checked: false,
      when: '{"field":"company","filled":true}',
    };
    expect(setOf(hiddenNames([kind, company, vat]))).toEqual(['company', 'vat']);
    expect(setOf(hiddenNames([{ ...kind, value: 'business' }, company, vat]))).toEqual([]);
  });

  it('values as the widget sends them: a box true or false, a number input a number, an empty control nothing', () => {
    const box: Seen = { name: 'b', type: 'checkbox', value: 'on', checked: false };
    expect(sentValue(box)).toBe(false);
    expect(sentValue({ ...box, checked: true })).toBe(true);
    expect(sentValue({ name: 'n', type: 'number', value: '12', checked: false })).toBe(12);
    expect(sentValue({ name: 't', type: 'text', value: '12', checked: false })).toBe('12');
    expect(sentValue({ name: 't', type: 'text', value: '', checked: false })).toBeUndefined();
    expect(sentValue({ name: 'r', type: 'radio', value: 'x', checked: false })).toBeUndefined();
    expect(sentValue({ name: 'r', type: 'radio', value: 'x', checked: true })).toBe('x');
    // Disabled by the page's author: never sent, so not there.
    expect(sentValue({ ...box, checked: true, disabled: true })).toBeUndefined();
    const count: Seen = { name: 'count', type: 'number', value: '2', checked: false };
    const more: Seen = {
      name: 'more',
      type: 'text',
      value: '',
      checked: false,
      when: '{"field":"count","equals":2}',
    };
    expect(hiddenNames([count, more]).size).toBe(0);
    expect(hiddenNames([{ ...count, value: '3' }, more]).has('more')).toBe(true);
  });

  it('a field may be named `__proto__`: a value like any other', () => {
    const proto: Seen = { name: '__proto__', type: 'text', value: 'x', checked: false };
    const next: Seen = {
      name: 'b',
      type: 'text',
      value: '',
      checked: false,
      when: '{"field":"__proto__","equals":"x"}',
    };
    expect(hiddenNames([proto, next]).size).toBe(0);
    expect(hiddenNames([{ ...proto, value: 'y' }, next]).has('b')).toBe(true);
  });

  it('a condition it cannot read hides nothing: the worker decides', () => {
    const a: Seen = { name: 'a', type: 'text', value: '', checked: false };
    for (const when of ['{not json', '{"field":"a"}', '{"all":7}', 'null']) {
      expect(hiddenNames([a, { name: 'b', type: 'text', value: '', checked: false, when }]).size, when).toBe(
        0,
      );
    }
  });
});

describe('C45: prefill from the page’s query', () => {
  const text: Fillable = { name: 'email', type: 'email', value: '', checked: false, shown: true };
  const query = new URLSearchParams('email=ada%40example.com&news=on&cv=x&secret=s&website=spam&topic=sales');

  it('fills a shown control of a field by its name; a box is checked by true, 1 or on, and only by them', () => {
    expect(fillOf(text, query, [])).toBe('ada@example.com');
    const box: Fillable = { name: 'news', type: 'checkbox', value: 'on', checked: false, shown: true };
    for (const [given, checked] of [
      ['true', true],
      ['1', true],
      ['on', true],
      ['ON', true],
      ['yes', false],
      ['0', false],
      ['false', false],
    ] as const) {
      expect(fillOf(box, new URLSearchParams({ news: given }), []), given).toBe(checked);
    }
    const radio: Fillable = { name: 'topic', type: 'radio', value: 'sales', checked: false, shown: true };
    expect(fillOf(radio, query, [])).toBe(true);
    expect(fillOf({ ...radio, value: 'support' }, query, [])).toBe(false);
  });

  it('never a file, a hidden input, a password, a control out of sight, one disabled, or one not asked for', () => {
    expect(fillOf({ ...text, name: 'cv', type: 'file' }, query, [])).toBeUndefined();
    expect(fillOf({ ...text, name: 'website', type: 'hidden' }, query, [])).toBeUndefined();
    expect(fillOf({ ...text, name: 'secret', type: 'password' }, query, [])).toBeUndefined();
    // The honeypot, shown to no one.
    expect(fillOf({ ...text, name: 'website', type: 'text', shown: false }, query, [])).toBeUndefined();
    expect(fillOf({ ...text, disabled: true }, query, [])).toBeUndefined();
    expect(fillOf({ ...text, name: 'phone' }, query, [])).toBeUndefined();
    // The form's list (the hosted page lists its fields): a name not in it is not filled.
    expect(fillOf(text, query, ['name', 'topic'])).toBeUndefined();
    expect(fillOf(text, query, ['email'])).toBe('ada@example.com');
  });

  it('keeps what the visitor typed before the script came', () => {
    expect(fillOf({ ...text, value: 'grace@example.com' }, query, [])).toBeUndefined();
  });
});

describe('C45: capture from the page’s address and referrer', () => {
  const query = new URLSearchParams('utm_source=newsletter&utm_medium=&ref=spring&utm_campaign=a%20b');

  it('a campaign’s parameter, a named parameter, the referrer; nothing when the page has none', () => {
    expect(capturedValue('utm_source', query, '')).toBe('newsletter');
    expect(capturedValue('utm_campaign', query, '')).toBe('a b');
    expect(capturedValue('query:ref', query, '')).toBe('spring');
    expect(capturedValue('referrer', query, 'https://news.example/p')).toBe('https://news.example/p');
    // Given empty, or not given: nothing, so the field is left out as any empty one.
    expect(capturedValue('utm_medium', query, 'https://news.example/p')).toBeUndefined();
    expect(capturedValue('utm_term', query, '')).toBeUndefined();
    expect(capturedValue('referrer', query, '')).toBeUndefined();
    // `query:ref` names `ref`, never a parameter called `query:ref`.
    expect(capturedValue('query:ref', new URLSearchParams('query%3Aref=x'), '')).toBeUndefined();
  });

  it('(property) at most CAPTURE_MAX characters, the start of what the page had', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 1200 }), (value) => {
        const got = capturedValue('query:v', new URLSearchParams({ v: value }), '');
        expect(got).toBe(value.slice(0, CAPTURE_MAX));
        expect(capturedValue('referrer', new URLSearchParams(), value)).toBe(got);
      }),
    );
  });
});
