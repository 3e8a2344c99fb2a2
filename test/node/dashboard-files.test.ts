// C33: the dashboard says a submission's file plainly: its size in bytes, kB or MB, and whether a
// PDF looks like one a viewer can show, judged by its bytes before it is framed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pdfLooksRenderable, sizeText } from '../../dashboard/files.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('C33: a file’s size', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [15, '15 bytes'],
    [999, '999 bytes'],
    [1000, '1 kB'],
    [1500, '1.5 kB'],
    [9_949, '9.9 kB'],
    [9_960, '10 kB'],
    [420_400, '420 kB'],
    [999_499, '999 kB'],
    [999_500, '1 MB'],
    [2_340_000, '2.3 MB'],
    [12_400_000, '12 MB'],
  ])('%i bytes: %s', (size, shown) => {
    expect(sizeText(size)).toBe(shown);
  });
});

describe('C33: a PDF a viewer can show', () => {
  it('a real PDF (the browser tests’ fixture) can', () => {
    const pdf = readFileSync(join(import.meta.dirname, '../e2e/fixtures/cv.pdf'));
    expect(pdfLooksRenderable(new Uint8Array(pdf))).toBe(true);
  });

  it('one whose catalog is named by a cross-reference stream, or found by a repair, can', () => {
    const stream = '%PDF-1.7\n5 0 obj\n<< /Type /XRef /Size 6 /Root 1 0 R /W [1 2 1] >>\nstream\n…';
    expect(pdfLooksRenderable(bytes(stream))).toBe(true);
    expect(pdfLooksRenderable(bytes('%PDF-1.4\n1 0 obj\n<< /Type/Catalog /Pages 2 0 R >>\nendobj\n'))).toBe(
      true,
    );
    // Viewers find the header within the first 1024 bytes.
    expect(pdfLooksRenderable(bytes(`${' '.repeat(500)}%PDF-1.4\ntrailer << /Root 1 0 R >>`))).toBe(true);
  });

  it('the README’s two-line file, an empty one, or one with no header cannot', () => {
    expect(pdfLooksRenderable(bytes('%PDF-1.7\n%EOF\n'))).toBe(false);
    expect(pdfLooksRenderable(new Uint8Array())).toBe(false);
    expect(pdfLooksRenderable(bytes('trailer << /Root 1 0 R >>'))).toBe(false);
    expect(pdfLooksRenderable(bytes(`${' '.repeat(1024)}%PDF-1.4\ntrailer << /Root 1 0 R >>`))).toBe(false);
    // A root that names no object is no root.
    expect(pdfLooksRenderable(bytes('%PDF-1.4\ntrailer << /Root >>\n%%EOF'))).toBe(false);
  });
});
