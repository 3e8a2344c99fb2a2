// C28, C30: a field given as a spec (the tool) and as JSON (the management API) is checked by one
// grammar: both are taken, alike, or both refused, for the same reason.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_TYPES } from '../../schema/tables.ts';
import { fieldFromJson, parseFieldSpec } from '../../src/fields/spec.ts';

/** A rule and a value for it, good or bad, in the JSON form and in the spec's text. */
const ruleEntry = fc.oneof(
  fc.tuple(fc.constant('format'), fc.constantFrom('email', 'url', 'date', 'phone')),
  fc.tuple(
    fc.constantFrom('minLength', 'maxLength'),
    fc.oneof(fc.nat(2_000_000), fc.integer({ min: -5, max: -1 })),
  ),
  fc.tuple(
    fc.constantFrom('min', 'max'),
    fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(0.5, -2.25)),
  ),
  fc.tuple(
    fc.constant('oneOf'),
    fc.array(fc.constantFrom('a', 'b', 'c', 'sales'), { minLength: 1, maxLength: 4 }),
  ),
  fc.tuple(fc.constant('maxSize'), fc.constantFrom('5MB', '500kB', '1.5MiB', '0', 'lots')),
  fc.tuple(
    fc.constant('accept'),
    fc.constantFrom('application/pdf', 'image/*', 'text/plain,image/png', 'pdf'),
  ),
  fc.tuple(fc.constant('pattern'), fc.constantFrom('^[A-Z]{3}$', '(?=x)', 'a:b')),
  fc.tuple(fc.constant('nope'), fc.constant('1')),
);

const asText = (value: unknown) => (Array.isArray(value) ? value.join('|') : String(value));

describe('C28: one grammar for field definitions', () => {
  it('C28 (property): a spec and its JSON are both taken, as the same definition, or both refused alike', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FIELD_TYPES),
        fc.boolean(),
        fc.uniqueArray(ruleEntry, { selector: ([rule]) => rule, maxLength: 4 }),
        (type, required, entries) => {
          // A pattern takes the rest of a spec: it comes last.
          const ordered = [
            ...entries.filter(([r]) => r !== 'pattern'),
            ...entries.filter(([r]) => r === 'pattern'),
          ];
          const spec = [
            'f',
            type,
            ...(required ? ['required'] : []),
            ...ordered.map(([r, v]) => `${r}=${asText(v)}`),
          ].join(':');
          const json = { type, required, rules: Object.fromEntries(ordered) };
          const outcome = (make: () => unknown) => {
            try {
              return { ok: make() };
            } catch (error) {
              return { refused: (error as Error).message.replace(/ in '[^']*'| in field 'f'/, '') };
            }
          };
          const fromSpec = outcome(() => parseFieldSpec(spec));
          const fromJson = outcome(() => fieldFromJson('f', json));
          expect(fromJson).toEqual(fromSpec);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('C28: the API’s own forms: accept as a list, maxSize in bytes; unknown members and bad types refused', () => {
    expect(
      fieldFromJson('cv', { type: 'file', rules: { accept: ['application/pdf', 'image/*'], maxSize: 1000 } }),
    ).toEqual({
      name: 'cv',
      type: 'file',
      required: false,
      rules: { accept: ['application/pdf', 'image/*'], maxSize: 1000 },
    });
    expect(() => fieldFromJson('x', { type: 'string', size: 3 })).toThrow(/Unknown member 'size'/);
    expect(() => fieldFromJson('x', { type: 'string', required: 'yes' })).toThrow(
      /'required' is true or false/,
    );
    expect(() => fieldFromJson('x', { type: 'string', rules: [] })).toThrow(/'rules' is an object/);
    expect(() => fieldFromJson('x', 'string')).toThrow(/A field is/);
    expect(() => fieldFromJson('cf-turnstile-response', { type: 'string' })).toThrow(/reserved/);
    expect(() => fieldFromJson('has space', { type: 'string' })).toThrow(/Invalid field name/);
  });
});
