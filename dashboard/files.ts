// C33: a submission's file, said plainly: its size in the unit a person reads at a glance, and
// whether a PDF looks like one the browser's viewer can show, judged by its bytes before it is
// framed (a frame of a damaged PDF shows only the viewer's own "Failed to load PDF document").

/** `1 byte`, `15 bytes`, `1.5 kB`, `420 kB`, `2.3 MB`, `12 MB`: decimal units, as the rules' `maxSize`. */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  // 999,500 bytes and more would round to 1000 kB: in MB.
  const [value, unit] = bytes < 999_500 ? [bytes / 1000, 'kB'] : [bytes / 1_000_000, 'MB'];
  const shown = value < 10 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${shown} ${unit}`;
}

const latin1 = new TextDecoder('latin1');

/**
 * A PDF a viewer can open: its header (`%PDF-`) within its first 1024 bytes, where viewers look for
 * it, and a document catalog to start from: the `/Root` entry of its trailer or its cross-reference
 * stream's dictionary (never compressed), or a `/Catalog` object a viewer finds when it repairs a
 * file whose trailer is lost. A file that passes may still fail in the viewer; one that does not
 * has nothing a viewer could show.
 */
export function pdfLooksRenderable(bytes: Uint8Array): boolean {
  const text = latin1.decode(bytes);
  if (!text.slice(0, 1024).includes('%PDF-')) return false;
  return /\/Root\s*\d+\s+\d+\s+R/.test(text) || /\/Type\s*\/Catalog\b/.test(text);
}
