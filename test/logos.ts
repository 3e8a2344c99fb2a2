// C44: the smallest files that start as each type a hosted page's logo may be, for the tests.
const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

export const LOGOS = {
  'image/png': bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR'),
  'image/jpeg': bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'),
  'image/webp': bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '),
  'image/gif': bytes('GIF89a', [1, 0, 1, 0]),
};

export const SVG = bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
