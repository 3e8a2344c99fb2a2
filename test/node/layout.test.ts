// The layout of src/: each folder imports only the folders below it, so there is no import cycle
// and each capability can be read and tested on its own.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
// Lowest first: `config.ts` (every setting) below everything; `index.ts` (the root) may import any.
const ROOT_FILES = ['config'];
const LAYERS = [
  ...ROOT_FILES,
  'lib',
  'fields',
  'spam',
  'store',
  'projects',
  'analytics',
  'http',
  'auth',
  'delivery',
  'files',
  'accept',
  'jobs',
  'ops',
  'api',
];
const layerOf = (part: string) => (part === '.' ? LAYERS.length : LAYERS.indexOf(part));
/** The layer of a file: its folder under src/, or for a file at the root its own name (`index`: `.`). */
function partOf(file: string): string {
  const [first = '.', ...rest] = file.split(sep);
  if (rest.length > 0) return first;
  const name = first.replace(/\.ts$/, '');
  return ROOT_FILES.includes(name) ? name : '.';
}

function imports(): { from: string; to: string }[] {
  const edges: { from: string; to: string }[] = [];
  for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const [, target = ''] of text.matchAll(/from '(\.[^']+)'/g)) {
      const resolved = relative(SRC, normalize(join(SRC, dirname(file), target)));
      if (resolved.startsWith('..')) continue; // schema/, outside src
      edges.push({ from: partOf(file), to: partOf(resolved) });
    }
  }
  return edges;
}

describe('src/ layout', () => {
  it('every folder of src/ is a known layer', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(folders.sort()).toEqual(LAYERS.filter((l) => !ROOT_FILES.includes(l)).sort());
  });

  it('a folder imports only itself and the folders below it (no cycles)', () => {
    const edges = imports();
    expect(edges.length).toBeGreaterThan(20);
    expect(edges).toContainEqual({ from: 'auth', to: 'config' });
    const upward = edges.filter(({ from, to }) => from !== to && layerOf(to) >= layerOf(from));
    expect(upward).toEqual([]);
  });

  it('each HTTP surface under api/ stands alone: none imports another', () => {
    const crossing: string[] = [];
    const API = join(SRC, 'api');
    for (const file of readdirSync(API, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue;
      const surface = file.split(sep)[0];
      const text = readFileSync(join(API, file), 'utf8');
      for (const [, target = ''] of text.matchAll(/from '(\.[^']+)'/g)) {
        const resolved = relative(API, normalize(join(API, dirname(file), target)));
        const other = resolved.split(sep)[0];
        if (!resolved.startsWith('..') && other !== surface) crossing.push(`api/${file} → api/${resolved}`);
      }
    }
    expect(readdirSync(API).sort()).toEqual(['events', 'html-form', 'manage', 'submissions', 'submit']);
    expect(crossing).toEqual([]);
  });

  it('no file imports itself through others (no cycle between files, types included)', () => {
    const ROOT = join(SRC, '..');
    const graph = new Map<string, string[]>();
    for (const dir of ['src', 'cli', 'dashboard', 'scripts', 'schema', 'widget']) {
      for (const file of readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })) {
        if (!/\.tsx?$/.test(file) || file.includes('node_modules')) continue;
        const from = join(dir, file);
        const text = readFileSync(join(ROOT, from), 'utf8');
        graph.set(
          from,
          [...text.matchAll(/from '(\.[^']+)'/g)].map(([, target = '']) =>
            normalize(join(dirname(from), target)),
          ),
        );
      }
    }
    expect(graph.size).toBeGreaterThan(100);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
