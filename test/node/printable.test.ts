// C19: the tool's output never carries a control character from outside.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeCell, safeJson, safeText, shown } from '../../src/lib/printable.ts';

const CONTROL = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const hostile = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0x2070 }).map((c) => String.fromCharCode(c)),
    fc.constantFrom('\u001b', '\u009b', '\u2028', '\u202e', '\n', '\r', '\t'),
  ),
});

describe('C19: printable text', () => {
  it('C19 (property): a value shown holds no control character, and reads back as the value', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const out = shown(text);
        expect(out).not.toMatch(CONTROL);
        // Nothing is dropped: every escape names its character.
        const back = out.replace(/\\(x[0-9a-f]{2}|u[0-9a-f]{4}|[nrt])/g, (_, e: string) =>
          e === 'n'
            ? '\n'
            : e === 'r'
              ? '\r'
              : e === 't'
                ? '\t'
                : String.fromCharCode(Number.parseInt(e.slice(1), 16)),
        );
        if (!/\\(x[0-9a-f]{2}|u[0-9a-f]{4}|[nrt])/.test(text)) expect(back).toBe(text);
      }),
    );
  });

  it('C19 (property): whole outputs keep their own line breaks; CSV cells their breaks and tabs; JSON stays the same JSON', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(safeText(text).replace(/\n/g, '')).not.toMatch(CONTROL);
        expect(safeCell(text).replace(/[\n\r\t]/g, '')).not.toMatch(CONTROL);
        const json = safeJson(JSON.stringify({ text }));
        expect(json).not.toMatch(CONTROL);
        expect(JSON.parse(json)).toEqual({ text });
      }),
    );
  });
});
