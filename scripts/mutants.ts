// `npm run mutate:hand`: small, realistic bugs, put one at a time into the code and followed by the
// test files that cover it; each must make them fail. Most of these rules are tested inside
// workerd (@cloudflare/vitest-plugin), which Stryker's vitest runner cannot drive
// (docs/testing.md), so they are kept here by hand: each was once a mutation no test caught, or a
// fault a review found. The file is restored after each, whatever happens.
//
//   npm run mutate:hand                 every mutant
//   npm run mutate:hand -- --only 3 9   those numbers
//   npm run mutate:hand -- --list       what each one breaks
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MUTANTS, type Mutant } from './mutant-list.ts';
import { ROUND_FIVE } from './mutants-round-five.ts';

/** Runs the test files; true when they fail (the mutant is caught). */
function caught(tests: string[]): boolean {
  const run = spawnSync('npm', ['run', '-s', 'test:unit', '--', '--reporter=dot', ...tests], {
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  });
  return run.status !== 0;
}

/** Every hand-made mutant, numbered as `--list` shows them. */
export const ALL_MUTANTS = [...MUTANTS, ...ROUND_FIVE].map((m, i) => ({ ...m, n: i + 1 }));

export type HandResult = { killed: number; total: number; survivors: string[]; stale?: string };

/** Runs the mutants given, one at a time, each file restored after it; prints a line for each. */
export function runMutants(chosen: readonly (Mutant & { n: number })[]): HandResult {
  const survivors: string[] = [];
  for (const m of chosen) {
    const original = readFileSync(m.file, 'utf8');
    const at = original.indexOf(m.find);
    if (at < 0 || original.indexOf(m.find, at + 1) >= 0)
      return {
        killed: 0,
        total: chosen.length,
        survivors,
        stale: `mutant ${m.n} no longer applies to ${m.file} (its text is not there once): update scripts/mutants.ts`,
      };
    let killed: boolean;
    try {
      writeFileSync(m.file, original.slice(0, at) + m.replace + original.slice(at + m.find.length));
      killed = caught(m.tests);
    } finally {
      writeFileSync(m.file, original);
    }
    console.log(`${killed ? 'killed  ' : 'SURVIVED'} ${String(m.n).padStart(2)}. ${m.rule}`);
    if (!killed) survivors.push(`${m.n}. ${m.rule}`);
  }
  return { killed: chosen.length - survivors.length, total: chosen.length, survivors };
}

export function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { only: { type: 'string', multiple: true }, list: { type: 'boolean' } },
    allowPositionals: true,
  });
  // `--only 3 9`: the numbers after the first are positionals.
  const only = values.only === undefined ? undefined : [...values.only, ...positionals].map(Number);
  const chosen = ALL_MUTANTS.filter((m) => only === undefined || only.includes(m.n));
  if (values.list) {
    for (const m of chosen) console.log(`${String(m.n).padStart(2)}. ${m.rule}  (${m.file})`);
    return 0;
  }
  const result = runMutants(chosen);
  if (result.stale !== undefined) {
    console.error(`✗ ${result.stale}`);
    return 2;
  }
  console.log(
    `\nhand-made mutants: ${result.killed} of ${result.total} killed (${((100 * result.killed) / result.total).toFixed(1)}%)`,
  );
  for (const s of result.survivors) console.log(`  survived: ${s}`);
  return result.survivors.length === 0 ? 0 : 1;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));
