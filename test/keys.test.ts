// Unit tests of the pure key functions (C6, C7).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  displayPrefix,
  generateKey,
  hashKey,
  KEY_PREFIX,
  looksLikeKey,
  parseBearer,
} from '../src/projects/keys.ts';

describe('C7: generateKey', () => {
  it('C7 + C23: a key has the recognisable prefix of its kind and 32 base62 characters (≥128 random bits)', () => {
    const key = generateKey();
    expect(key).toMatch(/^edgeform_pk_[0-9A-Za-z]{32}$/);
    expect(generateKey('secret')).toMatch(/^edgeform_sk_[0-9A-Za-z]{32}$/);
    expect(looksLikeKey(generateKey('secret'))).toBe(true);
    // Keys made before there were two kinds still look like keys (publishable ones, C23).
    expect(looksLikeKey('edgeform_0123456789abcdefghijABCDEFGHIJ01')).toBe(true);
    expect(looksLikeKey('edgeform_XX_0123456789abcdefghijABCDEFGHIJ01')).toBe(false);
    expect(KEY_PREFIX).toBe('edgeform_');
    // 32 × log2(62) ≈ 190.5 bits.
    expect(32 * Math.log2(62)).toBeGreaterThanOrEqual(128);
    expect(looksLikeKey(key)).toBe(true);
  });

  it('C7: keys do not repeat, and every character of the alphabet is used about evenly', () => {
    const keys = Array.from({ length: 2000 }, () => generateKey());
    expect(new Set(keys).size).toBe(keys.length);
    const counts = new Map<string, number>();
    for (const key of keys)
      for (const ch of key.slice('edgeform_pk_'.length)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 64,000 characters over 62 symbols: about 1,032 each; a modulo bias would skew the first ones.
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(850);
      expect(n).toBeLessThan(1230);
    }
  });

  it('C7: the display prefix reveals only the start of a key: its kind and 8 of its 32 characters', () => {
    const key = generateKey();
    expect(displayPrefix(key)).toBe(key.slice(0, 'edgeform_pk_'.length + 8));
    const old = 'edgeform_0123456789abcdefghijABCDEFGHIJ01';
    expect(displayPrefix(old)).toBe('edgeform_01234567');
  });
});

describe('C7: hashKey', () => {
  it('C7: is the hex SHA-256 of the key', async () => {
    // SHA-256("abc"), FIPS 180-2 test vector.
    expect(await hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('C6: parseBearer', () => {
  it('C6: accepts the scheme in any case and any run of spaces before the token', () => {
    for (const header of [
      'Bearer abc',
      'bearer abc',
      'BEARER abc',
      'Bearer    abc',
      'Bearer\tabc',
      ' Bearer abc ',
    ]) {
      expect(parseBearer(header)).toEqual({ ok: true, token: 'abc' });
    }
  });

  it('C6: accepts every b64token character (RFC 6750)', () => {
    expect(parseBearer('Bearer aZ09-._~+/==')).toEqual({ ok: true, token: 'aZ09-._~+/==' });
  });

  it('C6: any header parses to a token or a problem, never throws (property)', () => {
    fc.assert(
      fc.property(fc.option(fc.string({ unit: 'binary' }), { nil: undefined }), (header) => {
        const result = parseBearer(header);
        if (result.ok) {
          expect(result.token).toMatch(/^[A-Za-z0-9\-._~+/]+=*$/);
          expect(header?.trim().toLowerCase().startsWith('bearer')).toBe(true);
        } else {
          expect(result.problem).toContain("'Authorization: Bearer <API_KEY>'");
        }
      }),
      { numRuns: 1000 },
    );
  });
});
