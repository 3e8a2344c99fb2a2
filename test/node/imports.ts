// The relative imports of the repository's TypeScript, file to file, as the layering tests read
// them (layout.test.ts, tool-layout.test.ts): static, re-exported, side-effect, dynamic and by type
// alike, since each ties the importing file to the one it names. Paths are from the root.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

export type Edge = { from: string; to: string };

const IMPORT = /(?:\bfrom|\bimport\s*\(?)\s*'(\.{1,2}\/[^']+)'/g;

/** The relative imports of one file's text, `file` being its path from the root. */
export function importsOf(file: string, text: string): Edge[] {
  return [...text.matchAll(IMPORT)].map(([, target = '']) => ({
    from: file,
    to: normalize(join(dirname(file), target)),
  }));
}

/** Every relative import of the TypeScript files under the given folders of the root. */
export function importsUnder(dirs: readonly string[], root = ROOT): Edge[] {
  return dirs
    .filter((dir) => existsSync(join(root, dir)))
    .flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.tsx?$/.test(file) && !file.split(sep).includes('node_modules'))
        .flatMap((file) => importsOf(join(dir, file), readFileSync(join(root, dir, file), 'utf8'))),
    );
}

/** The folder of the root a path is in (its first part). */
export const topOf = (path: string): string => path.split(sep)[0] ?? '';
