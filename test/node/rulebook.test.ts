// The rules live in the repository: every rule the code and the tests cite is in docs/behaviour.md,
// and nothing points outside the repository (a clone has nothing beside it) or at an issue
// tracker a reader does not have.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
// data/spam-prior.json is the public corpus's words and their counts (C39), not text of ours.
const SKIP = new Set(['node_modules', '.git', 'dist', 'assets', '.wrangler', 'artifacts', 'spam-prior.json']);

function files(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.(ts|md|toml|json|html|sh)$/.test(entry.name) || entry.name === 'run' ? [path] : [];
  });
}

const RULE_BOOK = readFileSync(join(ROOT, 'docs/behaviour.md'), 'utf8');
const defined = new Set([...RULE_BOOK.matchAll(/\*\*(C\d+)\.\*\*/g)].map((m) => m[1]));

describe('the rule book', () => {
  it('defines C1 to C37 and each later rule as it is built, each once, in order', () => {
    const all = [...RULE_BOOK.matchAll(/\*\*(C\d+)\.\*\*/g)].map((m) => Number(m[1]?.slice(1)));
    expect(all.slice(0, 37)).toEqual(Array.from({ length: 37 }, (_, i) => i + 1));
    expect(all).toEqual([...new Set(all)].sort((a, b) => a - b));
    expect(all).toContain(42);
  });

  it('every rule cited in the code, the tests and the docs is defined in it', () => {
    const code = files().filter((f) => !f.endsWith('package-lock.json'));
    expect(code.length).toBeGreaterThan(50);
    const cited = new Map<string, string>();
    for (const file of code) {
      for (const [, rule = ''] of readFileSync(file, 'utf8').matchAll(/\b(C\d{1,2})\b/g)) {
        cited.set(rule, relative(ROOT, file));
      }
    }
    expect(cited.size).toBeGreaterThan(20);
    const missing = [...cited].filter(([rule]) => !defined.has(rule));
    expect(missing).toEqual([]);
  });

  it('no file links outside the repository or cites an issue number', () => {
    const offenders: string[] = [];
    for (const file of files()) {
      if (file === import.meta.filename) continue;
      const text = readFileSync(file, 'utf8');
      if (/\.\.\/shared|\bissues? #?\d+\b/i.test(text)) offenders.push(relative(ROOT, file));
    }
    expect(offenders).toEqual([]);
  });
});
