// The layout of src/: each folder imports only the folders below it, so there is no import cycle
// and each capability can be read and tested on its own.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
// Lowest first. `index.ts` (the root) may import any of them.
const LAYERS = [
  'lib',
  'fields',
  'store',
  'projects',
  'http',
  'auth',
  'delivery',
  'files',
  'submit',
  'read',
  'form',
];
const layerOf = (folder: string) => (folder === '.' ? LAYERS.length : LAYERS.indexOf(folder));

function imports(): { from: string; to: string }[] {
  const edges: { from: string; to: string }[] = [];
  for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const [, target = ''] of text.matchAll(/from '(\.[^']+)'/g)) {
      const resolved = relative(SRC, normalize(join(SRC, dirname(file), target)));
      if (resolved.startsWith('..')) continue; // schema/, outside src
      edges.push({ from: dirname(file).split(sep)[0] ?? '.', to: dirname(resolved).split(sep)[0] ?? '.' });
    }
  }
  return edges;
}

describe('src/ layout', () => {
  it('every folder of src/ is a known layer', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(folders.sort()).toEqual([...LAYERS].sort());
  });

  it('a folder imports only itself and the folders below it (no cycles)', () => {
    const edges = imports();
    expect(edges.length).toBeGreaterThan(20);
    const upward = edges.filter(({ from, to }) => from !== to && layerOf(to) >= layerOf(from));
    expect(upward).toEqual([]);
  });
});
