// The tools' layers (docs/layout.md): the folders beside src/ that run in Node import one another
// one way only, so that each can be read, changed and run without the ones above it, and no loop
// ties a benchmark to `npm run deploy`. What they share is toolkit/, which imports no tool.
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Edge, importsOf, importsUnder, ROOT, topOf } from './imports.ts';

/**
 * Lowest first. A folder imports itself and the layers below its own; never a folder of its own
 * layer (cli/ and scripts/ stand apart: the tool is not a build, a build is not the tool), never
 * one above (nothing imports bench/).
 */
const TOOL_LAYERS: readonly (readonly string[])[] = [['toolkit'], ['cli', 'scripts'], ['bench']];
/** Below every layer: the worker's sources, which the tools drive, build and measure. */
const WORKER = ['src', 'schema'];
/** Beyond those, each with its reason. */
const ALSO: readonly { from: string; to: string; why: string }[] = [
  {
    from: 'scripts',
    to: 'client/src',
    why: "the builds: build-client.ts builds the client package, build-assets.ts ships its messages as the widget's catalogues",
  },
];

const layerOf = (folder: string) => TOOL_LAYERS.findIndex((layer) => layer.includes(folder));

/** Each import of a tool that breaks the layers, with what is wrong with it. */
function broken(edges: readonly Edge[]): string[] {
  const found: string[] = [];
  for (const { from, to } of edges) {
    const [source, target] = [topOf(from), topOf(to)];
    const [own, other] = [layerOf(source), layerOf(target)];
    if (own < 0 || source === target) continue;
    if (other < 0 && WORKER.includes(target)) continue;
    if (ALSO.some((also) => also.from === source && to.startsWith(`${also.to}${sep}`))) continue;
    const why =
      other < 0 ? 'not below the tools' : other === own ? 'beside it' : other > own ? 'above it' : undefined;
    if (why !== undefined) found.push(`${from} → ${to}: ${target}/ is ${why}`);
  }
  return found;
}

const TOOLS = TOOL_LAYERS.flat();

describe("the tools' layers", () => {
  it('every folder of the layers exists', () => {
    expect(TOOLS.filter((folder) => !existsSync(join(ROOT, folder)))).toEqual([]);
  });

  it('a tool imports only its own folder, the layers below its own and the worker (no loop between folders)', () => {
    const edges = importsUnder(TOOLS);
    expect(edges.length).toBeGreaterThan(100);
    expect(broken(edges)).toEqual([]);
    // The shared place is used from each layer above it.
    for (const folder of ['cli', 'scripts', 'bench']) {
      expect(edges.some(({ from, to }) => topOf(from) === folder && topOf(to) === 'toolkit')).toBe(true);
    }
  });

  it('a planted import against the layers is reported, with what is wrong with it', () => {
    const edges: Edge[] = [
      { from: 'cli/index.ts', to: 'toolkit/database.ts' },
      { from: 'bench/spam.ts', to: 'scripts/spam-prior.ts' },
      { from: 'scripts/build-client.ts', to: 'client/src/messages.ts' },
      { from: 'toolkit/database.ts', to: 'src/store/db.ts' },
      { from: 'toolkit/database.ts', to: 'scripts/migrate.ts' },
      { from: 'scripts/deploy.ts', to: 'cli/deployment.ts' },
      { from: 'scripts/spam-prior.ts', to: 'bench/form-corpus.ts' },
      { from: 'cli/index.ts', to: 'client/src/messages.ts' },
      { from: 'bench/dashboard.ts', to: 'dashboard/api.ts' },
    ];
    expect(broken(edges)).toEqual([
      'toolkit/database.ts → scripts/migrate.ts: scripts/ is above it',
      'scripts/deploy.ts → cli/deployment.ts: cli/ is beside it',
      'scripts/spam-prior.ts → bench/form-corpus.ts: bench/ is above it',
      'cli/index.ts → client/src/messages.ts: client/ is not below the tools',
      'bench/dashboard.ts → dashboard/api.ts: dashboard/ is not below the tools',
    ]);
  });

  it('an import is seen however it is written: by type, re-exported, dynamic, over several lines', () => {
    const text = [
      "import type { Db } from '../src/store/db.ts';",
      "export { shuffled } from './form-corpus.ts';",
      "const { buildWorker } = (await import('../scripts/build-worker.ts')) as typeof import('../scripts/build-worker.ts');",
      'import {',
      '  openDatabase,',
      "} from '../toolkit/database.ts';",
      "import 'node:fs';",
      "import { word } from 'hono';",
    ].join('\n');
    expect(importsOf('bench/x.ts', text).map(({ to }) => to)).toEqual([
      'src/store/db.ts',
      'bench/form-corpus.ts',
      'scripts/build-worker.ts',
      'scripts/build-worker.ts',
      'toolkit/database.ts',
    ]);
  });

  it('every npm script that runs a file names one that exists', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const files = Object.values(scripts).flatMap((command) =>
      [...command.matchAll(/\bnode (\S+\.ts)\b/g)].map(([, file = '']) => file),
    );
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
  });
});
