// `npm run mutate -- <files>` (docs/testing.md): a change's files, mutated by Stryker where its
// tests run in Node and by the hand-made mutants that name them; a file neither covers is named.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MUTANTS } from '../../scripts/mutants.ts';
import { runProcess } from './helpers.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('npm run mutate -- <files>', () => {
  it('names a changed file that no mutant covers, with the scores of none', async () => {
    const result = await runProcess(process.execPath, [join(ROOT, 'scripts/mutate.ts'), 'src/lib/hex.ts'], {
      cwd: ROOT,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("The change's files: src/lib/hex.ts");
    expect(result.stdout).toContain('Stryker: 0 of 0 killed (–)');
    expect(result.stdout).toContain('not mutated by either');
    expect(result.stdout).toContain('src/lib/hex.ts');
  });

  it('every hand-made mutant names a file and test files that exist, and a text found once in it', async () => {
    const { existsSync, readFileSync } = await import('node:fs');
    for (const m of ALL_MUTANTS) {
      const source = readFileSync(join(ROOT, m.file), 'utf8');
      expect(source.split(m.find).length - 1, `mutant ${m.n}`).toBe(1);
      for (const t of m.tests) expect(existsSync(join(ROOT, t)), `${m.n}: ${t}`).toBe(true);
    }
  });
});
