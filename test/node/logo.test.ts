// C44: a hosted page's logo: PNG, JPEG, WebP or GIF, its bytes of the type it is sent as, at most
// 256 KiB; never SVG. The same check (and sentence) for the tool and the management API.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkLogo, LOGO_TYPES, logoKey, MAX_LOGO_BYTES } from '../../src/files/logo.ts';
import { LOGOS, SVG } from '../logos.ts';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

const refusal = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('taken');
};

describe('C44: a logo', () => {
  it('is one of four raster types, whose bytes say what its type says; what the project keeps of it', async () => {
    expect(LOGO_TYPES).toEqual(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
    for (const [type, logo] of Object.entries(LOGOS)) {
      expect(await checkLogo(logo, `${type.toUpperCase()}; charset=binary`)).toEqual({
        type,
        size: logo.length,
        sha256: createHash('sha256').update(logo).digest('hex'),
      });
    }
    expect(await checkLogo(bytes('GIF87a', [1, 0]), 'image/gif')).toMatchObject({ type: 'image/gif' });
    expect(logoKey('p_abcdefghijkl')).toBe('p_abcdefghijkl/page/logo');
  });

  it('never SVG (it can carry script), nor any other type', async () => {
    expect(await refusal(checkLogo(SVG, 'image/svg+xml'))).toBe(
      "A logo is a PNG, JPEG, WebP or GIF image (image/png, image/jpeg, image/webp, image/gif), not 'image/svg+xml': an SVG image can carry script",
    );
    expect(await refusal(checkLogo(LOGOS['image/png'], 'application/octet-stream'))).toBe(
      "A logo is a PNG, JPEG, WebP or GIF image (image/png, image/jpeg, image/webp, image/gif), not 'application/octet-stream'",
    );
  });

  it('whose bytes are of another type, or none, is refused', async () => {
    expect(await refusal(checkLogo(LOGOS['image/jpeg'], 'image/png'))).toBe(
      "The logo's bytes are not a PNG image, as its type image/png says: send the type its bytes are",
    );
    expect(await refusal(checkLogo(bytes('<svg/>'), 'image/webp'))).toBe(
      "The logo's bytes are not a WebP image, as its type image/webp says: send the type its bytes are",
    );
    // Other RIFF files (a WAV, an AVI) begin as a WebP does: its form type is what tells them apart.
    for (const form of ['WAVE', 'AVI '])
      expect(
        await refusal(checkLogo(bytes(`RIFF\u0024\u0000\u0000\u0000${form}fmt data`), 'image/webp')),
      ).toBe(
        "The logo's bytes are not a WebP image, as its type image/webp says: send the type its bytes are",
      );
    expect(await refusal(checkLogo(new Uint8Array(0), 'image/gif'))).toContain(
      "The logo's bytes are not a GIF image",
    );
  });

  it('is at most 256 KiB', async () => {
    const at = (n: number) => {
      const b = new Uint8Array(n);
      b.set(LOGOS['image/png']);
      return b;
    };
    expect(MAX_LOGO_BYTES).toBe(262_144);
    expect((await checkLogo(at(MAX_LOGO_BYTES), 'image/png')).size).toBe(MAX_LOGO_BYTES);
    expect(await refusal(checkLogo(at(MAX_LOGO_BYTES + 1), 'image/png'))).toBe(
      'A logo is at most 262144 bytes (256 KiB): make it smaller, or save it at a lower quality',
    );
  });
});
