// The layout of src/: each folder imports only the folders below it, so there is no import cycle
// and each capability can be read and tested on its own. The tables (schema/, beside src/) are a
// layer too: typed by the field catalogue and the spam settings, read by the store. What leaves
// them for a folder beside them is a short list, each with its reason (OUT_OF_SRC).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Edge, importsUnder, ROOT, topOf } from './imports.ts';

const SRC = join(ROOT, 'src');
// Lowest first: `config.ts` (every setting) below everything; `index.ts` (the root) may import any.
const ROOT_FILES = ['config'];
/** Layers that are a folder of the repository beside src/, not under it. */
const BESIDE_SRC = ['schema'];
const LAYERS = [
  ...ROOT_FILES,
  'lib',
  'fields',
  'spam',
  'schema',
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
  'pages',
  'api',
];
const layerOf = (part: string) => (part === '.' ? LAYERS.length : LAYERS.indexOf(part));
/**
 * The layer of a file (its path from the repository's root): its folder under src/, or for a file
 * at the root of src/ its own name (`index`: `.`); a folder beside src/ (schema/) is its own layer.
 */
function partOf(file: string): string {
  const [top = '', ...path] = file.split(sep);
  if (BESIDE_SRC.includes(top)) return top;
  const [first = '.', ...rest] = path;
  if (rest.length > 0) return first;
  const name = first.replace(/\.ts$/, '');
  return ROOT_FILES.includes(name) ? name : '.';
}

/** The worker's sources: src/ and the layers beside it. */
const WORKER = ['src', ...BESIDE_SRC];
const inWorker = (path: string) => WORKER.includes(topOf(path));

/** The imports between the layers (dynamic ones too); those leaving the worker are OUT_OF_SRC's. */
function imports(): { from: string; to: string }[] {
  return importsUnder(WORKER)
    .filter(({ to }) => inWorker(to))
    .map(({ from, to }) => ({ from: partOf(from), to: partOf(to) }));
}

/**
 * The only imports from the worker's sources into a folder beside them, each with its reason. Any
 * other would put a tool's, a page's or a test's code in the worker's bundle unseen by the layers.
 */
const OUT_OF_SRC: readonly (Edge & { why: string })[] = [
  {
    from: 'src/pages/replies.ts',
    to: 'client/src/word.ts',
    why: "the client's own wording of a failure from a language's catalogue (C43, C44), shared so that the hosted page and the widget say the same",
  },
  {
    from: 'src/document.ts',
    to: 'package.json',
    why: "the project's version, which the OpenAPI document names as its releases do (C42)",
  },
];

/** Each import that leaves the worker and is not in the list; and each entry of it no longer made. */
function leaving(edges: readonly Edge[], allowed: readonly Edge[]): { unlisted: string[]; unused: string[] } {
  const same = (a: Edge) => (b: Edge) => a.from === b.from && a.to === b.to;
  const out = edges.filter(({ to }) => !inWorker(to));
  return {
    unlisted: out.filter((edge) => !allowed.some(same(edge))).map(({ from, to }) => `${from} → ${to}`),
    unused: allowed.filter((entry) => !out.some(same(entry))).map(({ from, to }) => `${from} → ${to}`),
  };
}

describe('src/ layout', () => {
  it('every folder of src/ is a known layer', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(folders.sort()).toEqual(
      LAYERS.filter((l) => !ROOT_FILES.includes(l) && !BESIDE_SRC.includes(l)).sort(),
    );
  });

  it('a folder imports only itself and the folders below it (no cycles)', () => {
    const edges = imports();
    expect(edges.length).toBeGreaterThan(20);
    expect(edges).toContainEqual({ from: 'auth', to: 'config' });
    const upward = edges.filter(({ from, to }) => from !== to && layerOf(to) >= layerOf(from));
    expect(upward).toEqual([]);
  });

  it('an import leaving src/ or schema/ for a folder beside them is one of the list, each with its reason', () => {
    const edges = importsUnder(WORKER);
    expect(edges.length).toBeGreaterThan(500);
    expect(leaving(edges, OUT_OF_SRC)).toEqual({ unlisted: [], unused: [] });
  });

  it('a planted import out of src/ is reported, and so is an entry of the list no longer imported', () => {
    const edges: Edge[] = [
      { from: 'src/pages/replies.ts', to: 'client/src/word.ts' },
      { from: 'src/store/db.ts', to: 'schema/tables.ts' },
      { from: 'schema/tables.ts', to: 'src/fields/catalogue.ts' },
      { from: 'src/ops/projects.ts', to: 'scripts/database.ts' },
      { from: 'src/http/pages.ts', to: 'widget/i18n.ts' },
      { from: 'schema/places.ts', to: 'dashboard/server-types.ts' },
    ];
    expect(leaving(edges, OUT_OF_SRC)).toEqual({
      unlisted: [
        'src/ops/projects.ts → scripts/database.ts',
        'src/http/pages.ts → widget/i18n.ts',
        'schema/places.ts → dashboard/server-types.ts',
      ],
      unused: ['src/document.ts → package.json'],
    });
  });

  it('schema/ sits between spam/ and store/: it imports config, lib, fields and spam only, and none of those imports it', () => {
    const edges = imports();
    expect(edges).toContainEqual({ from: 'schema', to: 'fields' });
    expect(edges).toContainEqual({ from: 'store', to: 'schema' });
    const below = new Set(['schema', ...LAYERS.slice(0, LAYERS.indexOf('schema'))]);
    expect(edges.filter(({ from, to }) => from === 'schema' && !below.has(to))).toEqual([]);
    expect(edges.filter(({ from, to }) => to === 'schema' && below.has(from) && from !== 'schema')).toEqual(
      [],
    );
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
    for (const dir of ['src', 'cli', 'dashboard', 'scripts', 'schema', 'widget', 'toolkit', 'bench']) {
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

  it('no source file over 350 lines, no test file over 500: a file that grows is split where its job splits', () => {
    const ROOT = join(SRC, '..');
    const lines = (path: string) => readFileSync(join(ROOT, path), 'utf8').split('\n').length - 1;
    const files = (dir: string, pattern: RegExp) =>
      readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => pattern.test(file) && !file.includes('node_modules') && !file.startsWith('.'))
        .map((file) => join(dir, file));
    const sources = ['src', 'cli', 'dashboard', 'schema', 'widget', 'toolkit'].flatMap((dir) =>
      files(dir, /\.tsx?$/),
    );
    const tests = files('test', /\.test\.ts$/);
    expect(sources.length).toBeGreaterThan(100);
    expect(tests.length).toBeGreaterThan(50);
    expect(sources.filter((f) => lines(f) > 350).map((f) => `${f}: ${lines(f)}`)).toEqual([]);
    expect(tests.filter((f) => lines(f) > 500).map((f) => `${f}: ${lines(f)}`)).toEqual([]);
  });

  it("src/'s top is a few small doors: its files at most 600 lines in all, the rest in the layers", () => {
    const top = readdirSync(SRC).filter((file) => /\.tsx?$/.test(file));
    const total = top.reduce(
      (n, file) => n + readFileSync(join(SRC, file), 'utf8').split('\n').length - 1,
      0,
    );
    expect(top.length).toBeGreaterThan(3);
    expect(total).toBeLessThanOrEqual(600);
  });
});
