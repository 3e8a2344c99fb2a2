// `npm run mutate [-- --since <commit> | <file>…]`: mutation testing of a change, before its author
// stops (docs/testing.md). Without arguments, Stryker on every module of stryker.config.json. With
// `--since <commit>` (the files of src/ changed since it, committed or not) or files named: Stryker
// on those of them whose tests run in Node (stryker.config.json's list), and the hand-made mutants
// (scripts/mutants.ts) of all of them, whose tests run wherever they run (workerd included). Prints
// each part's score and both together; a changed file that neither covers is named.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ALL_MUTANTS, runMutants } from './mutants.ts';

const REPORT = 'reports/mutation/mutation.json';

function changedSince(commit: string): string[] {
  const r = spawnSync('git', ['diff', '--name-only', commit, '--', 'src'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git diff ${commit}: ${r.stderr.trim()}`);
  return r.stdout
    .split('\n')
    .filter((f) => f.endsWith('.ts') && existsSync(f))
    .sort();
}

/** The files Stryker mutates (stryker.config.json), without their line ranges. */
function strykerFiles(): Map<string, string[]> {
  const config = JSON.parse(readFileSync('stryker.config.json', 'utf8')) as { mutate: string[] };
  const out = new Map<string, string[]>();
  for (const entry of config.mutate) {
    const file = entry.replace(/:\d+-\d+$/, '');
    out.set(file, [...(out.get(file) ?? []), entry]);
  }
  return out;
}

type Score = { killed: number; total: number };

/** Stryker's score from its JSON report: killed and timed out, of every mutant but those it could not run. */
function strykerScore(): Score {
  const report = JSON.parse(readFileSync(REPORT, 'utf8')) as {
    files: Record<string, { mutants: { status: string }[] }>;
  };
  let killed = 0;
  let total = 0;
  for (const file of Object.values(report.files))
    for (const m of file.mutants) {
      if (['Killed', 'Timeout'].includes(m.status)) killed++;
      if (['Killed', 'Timeout', 'Survived', 'NoCoverage'].includes(m.status)) total++;
    }
  return { killed, total };
}

const pct = (s: Score) => (s.total === 0 ? '–' : `${((100 * s.killed) / s.total).toFixed(1)}%`);

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { since: { type: 'string' } },
    allowPositionals: true,
  });
  if (values.since === undefined && positionals.length === 0) {
    const all = spawnSync('npx', ['stryker', 'run'], { stdio: 'inherit' });
    return all.status ?? 1;
  }
  const files = values.since === undefined ? positionals : changedSince(values.since);
  if (files.length === 0) {
    console.log('No file of src/ changed: nothing to mutate.');
    return 0;
  }
  console.log(`The change's files: ${files.join(', ')}`);
  const stryker = strykerFiles();
  const mutated = files.flatMap((f) => stryker.get(f) ?? []);
  let s: Score = { killed: 0, total: 0 };
  if (mutated.length > 0) {
    console.log(`\nStryker on ${mutated.join(', ')}…`);
    rmSync(REPORT, { force: true });
    spawnSync('npx', ['stryker', 'run', '--mutate', mutated.join(',')], { stdio: 'inherit' });
    if (existsSync(REPORT)) s = strykerScore();
  }
  const hand = ALL_MUTANTS.filter((m) => files.includes(m.file));
  let h: Score = { killed: 0, total: 0 };
  if (hand.length > 0) {
    console.log(`\nThe hand-made mutants of those files (${hand.length})…`);
    const result = runMutants(hand);
    if (result.stale !== undefined) {
      console.error(`✗ ${result.stale}`);
      return 2;
    }
    h = result;
    for (const line of result.survivors) console.log(`  survived: ${line}`);
  }
  const uncovered = files.filter((f) => !stryker.has(f) && !hand.some((m) => m.file === f));
  const both = { killed: s.killed + h.killed, total: s.total + h.total };
  console.log(`\nStryker: ${s.killed} of ${s.total} killed (${pct(s)})`);
  console.log(`hand-made: ${h.killed} of ${h.total} killed (${pct(h)})`);
  console.log(`the change's score: ${both.killed} of ${both.total} (${pct(both)}); the goal is 80%`);
  if (uncovered.length > 0)
    console.log(
      `not mutated by either (its tests run in workerd, and no hand-made mutant names it): ${uncovered.join(', ')}. Add a mutant to scripts/mutant-list.ts for each rule it holds.`,
    );
  return 0;
}

process.exitCode = main(process.argv.slice(2));
