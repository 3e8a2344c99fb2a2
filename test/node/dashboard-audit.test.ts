// C33: the audit log's Detail column reads as text, never raw JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detailText } from '../../dashboard/audit-detail.ts';

describe('C33: an audit entry’s detail', () => {
  it('names each member with its value, lists joined, nested members by their path', () => {
    expect(detailText({ name: 'Contact', fields: ['name', 'email'], origins: [] })).toBe(
      'name: Contact · fields: name, email · origins: none',
    );
    expect(detailText({ page: { enabled: true, title: { en: 'Write to us' } } })).toBe(
      'page.enabled: true · page.title.en: Write to us',
    );
    expect(detailText({ prefix: 'edgeform_pk_abcd', kind: 'publishable' })).toBe(
      'prefix: edgeform_pk_abcd · kind: publishable',
    );
    // Settings kept as JSON text read as their values.
    expect(
      detailText({ spamCountries: '["DE"]', spamBlock: '[{"kind":"phrase","value":"guest post"}]' }),
    ).toBe('spamCountries: DE · spamBlock: (kind: phrase, value: guest post)');
    expect(detailText({ note: '[not json' })).toBe('note: [not json');
    expect(detailText(null)).toBe('');
    expect(detailText({ reason: null })).toBe('reason: —');
  });

  it('whatever the detail holds: a string, never JSON braces for an object, at most 300 characters', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = detailText(value);
        expect(typeof text).toBe('string');
        expect(text.length).toBeLessThanOrEqual(300);
      }),
    );
    expect(detailText({ a: { b: { c: 1 } } })).not.toContain('{');
    expect(detailText({ fields: [{ name: 'age', type: 'integer' }] })).toBe(
      'fields: (name: age, type: integer)',
    );
  });
});
