// C45: `capture` as a field definition gives it (src/fields/capture.ts): one of the campaign's
// parameters, `referrer` or `query:<name>`, on a text field that is not required nor a list; its
// length at most CAPTURE_MAX. The API's and the tool's refusals are tested in workerd
// (test/conditions.test.ts); this is the rule itself, as the mutation tests run it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAPTURE_MAX, CAPTURE_SOURCES, parseCapture } from '../../src/fields/capture.ts';

const text = { type: 'string' as const };
const refusal = (value: unknown, of: Parameters<typeof parseCapture>[2] = text) => {
  try {
    parseCapture('source', value, of);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('C45: a field’s capture', () => {
  it('none when absent or null: the field is an ordinary one', () => {
    expect(parseCapture('source', undefined, text)).toBeUndefined();
    expect(parseCapture('source', null, text)).toBeUndefined();
  });

  it('each source, and a parameter of 1–100 letters, digits, _ . ~ -, gets maxLength 500 unless it says less', () => {
    for (const source of [...CAPTURE_SOURCES, 'query:ref', 'query:a.b~c-d_e', `query:${'x'.repeat(100)}`]) {
      expect(parseCapture('source', source, text)).toEqual({
        capture: source,
        rules: { maxLength: CAPTURE_MAX },
      });
    }
    expect(
      parseCapture('source', 'referrer', { type: 'string', rules: { maxLength: 80, minLength: 2 } }),
    ).toEqual({ capture: 'referrer', rules: { maxLength: 80, minLength: 2 } });
    expect(parseCapture('source', 'referrer', { type: 'string', rules: { maxLength: 500 } })?.rules).toEqual({
      maxLength: 500,
    });
    expect(CAPTURE_MAX).toBe(500);
  });

  it('refuses anything else, naming the field and what it takes', () => {
    const sources = 'utm_source, utm_medium, utm_campaign, utm_term, utm_content, referrer or query:<name>';
    for (const bad of [
      'utm_id',
      'query:',
      `query:${'x'.repeat(101)}`,
      'query:a b',
      'Referrer',
      'query:é',
      1,
      true,
      {},
    ]) {
      expect(refusal(bad)).toBe(`'capture' of field 'source' is ${sources}: not ${JSON.stringify(bad)}`);
    }
    expect(refusal('x query:ref')).toContain('not "x query:ref"');
    expect(refusal('query:ref ')).toContain('not "query:ref "');
  });

  it('only on a text field that is not a list, never required, never longer than 500', () => {
    expect(refusal('utm_source', { type: 'integer' })).toBe(
      "'capture' is for a text field: 'source' is not one",
    );
    expect(refusal('utm_source', { type: 'string', rules: { oneOf: ['a'] } })).toBe(
      "'capture' is for a text field: 'source' is not one",
    );
    expect(refusal('utm_source', { type: 'string', required: true })).toBe(
      "A captured field is never required: 'source' is",
    );
    expect(parseCapture('source', 'utm_source', { type: 'string', required: false })?.capture).toBe(
      'utm_source',
    );
    expect(refusal('utm_source', { type: 'string', rules: { maxLength: 501 } })).toBe(
      "A captured field holds at most 500 characters: 'source' has maxLength 501",
    );
  });

  it('(property) a parameter name is taken exactly when it is 1–100 of its characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 110 }), (name) => {
        const ok = /^[A-Za-z0-9_.~-]{1,100}$/.test(name);
        expect(refusal(`query:${name}`) === 'accepted').toBe(ok);
      }),
    );
  });
});
