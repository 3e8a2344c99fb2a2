// `npm run bench:compare -- <git ref>`: the working tree against another commit, side by side in
// one Miniflare, one D1 and one floor, so that a change is judged by ratios measured in the same
// run (absolute figures drift by tens of percent between runs on this machine). Runs are
// interleaved (floor, ref, tree, floor, tree, ref, …); prints each one's ratio to the floor, then
// each one's start-up (median of five `wrangler check startup`, interleaved) and size.
// Settings: BENCH_SCENARIO (accepted; `logic`: C45's unique email and limit), BENCH_CONNECTIONS (10), BENCH_SECONDS (2), BENCH_REPETITIONS (5);
// BENCH_REF_VIEWS (`webhooks=targets`, comma-separated): views by a table's old name, for a ref
// from before a rename (the D1 is migrated as the tree is).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  buildBundle,
  interleavedStartups,
  load,
  logicRequest,
  median,
  type Run,
  type Scenario,
  scenarios,
  seed,
  start,
} from './harness.ts';

const ref = process.argv[2] ?? 'HEAD';
const scenario = (process.env.BENCH_SCENARIO ?? 'accepted') as Scenario | 'logic';
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 5);
const STARTUP_RUNS = 5;

const work = mkdtempSync(join(tmpdir(), 'forms-compare-'));
const checkout = join(work, 'ref');
execFileSync('git', ['worktree', 'add', '--detach', checkout, ref], { stdio: ['ignore', 2, 2] });
try {
  symlinkSync(resolve('node_modules'), join(checkout, 'node_modules'));
  const builds = {
    ref: await buildBundle(join(work, 'ref-dist'), checkout),
    tree: await buildBundle(join(work, 'tree-dist')),
  };
  // Start-up, interleaved (ref, tree, tree, ref, …): STARTUP_RUNS runs of each.
  const startups = interleavedStartups(builds, STARTUP_RUNS);
  const state = join(work, 'state');
  const views = (process.env.BENCH_REF_VIEWS ?? '').split(',').filter((pair) => pair !== '');
  const { apiKey } = await seed(state, views, scenario === 'logic');
  const request = scenario === 'logic' ? logicRequest(apiKey) : scenarios(apiKey)[scenario];
  const { mf, urls } = await start({ ref: join(work, 'ref-dist'), tree: join(work, 'tree-dist') }, state);
  const workers = ['floor', 'ref', 'tree'] as const;
  const amounts = new Map<string, number>();
  for (const worker of workers) {
    const warm = await load(urls[worker] ?? '', request, connections, 2000);
    amounts.set(worker, Math.max(2000, Math.round((warm.rps * SECONDS) / 100) * 100));
  }
  const runs: Record<string, Run[]> = { floor: [], ref: [], tree: [] };
  for (let rep = 0; rep < REPETITIONS; rep++) {
    // The floor first, then the two in alternating order, so neither always follows the floor.
    const order = rep % 2 ? (['floor', 'tree', 'ref'] as const) : (['floor', 'ref', 'tree'] as const);
    for (const worker of order) {
      runs[worker]?.push(await load(urls[worker] ?? '', request, connections, amounts.get(worker) ?? 2000));
    }
  }
  await mf.dispose();
  const floor = runs.floor ?? [];
  console.log(
    `\n${scenario} at c=${connections}, ${REPETITIONS} × ~${SECONDS} s; ratio = rps / floor rps of the same repetition`,
  );
  for (const worker of ['ref', 'tree'] as const) {
    const mine = runs[worker] ?? [];
    const ratios = mine.map((r, i) => r.rps / (floor[i]?.rps ?? 1));
    console.log(
      `${worker === 'ref' ? ref : 'working tree'}: ratio ${median(ratios).toFixed(3)} (${ratios.map((r) => r.toFixed(3)).join(' ')}), rps ${median(mine.map((r) => r.rps)).toFixed(0)}, p50 ${median(mine.map((r) => r.p50))} ms, non-2xx ${mine.reduce((n, r) => n + r.non2xx, 0)}`,
    );
  }
  console.log(`floor: rps ${median(floor.map((r) => r.rps)).toFixed(0)}`);
  console.log(
    `\nstart-up (wrangler check startup, active CPU, ${STARTUP_RUNS} runs each, interleaved) and size`,
  );
  for (const worker of ['ref', 'tree'] as const) {
    const { ms } = startups[worker];
    const built = builds[worker];
    console.log(
      `${worker === 'ref' ? ref : 'working tree'}: startup median ${median(ms)} ms (min ${Math.min(...ms)}, max ${Math.max(...ms)}), ${built.files.length} module(s), ${(built.gzipBytes / 1024).toFixed(1)} KiB gzip`,
    );
  }
} finally {
  execFileSync('git', ['worktree', 'remove', '--force', checkout]);
  rmSync(work, { recursive: true, force: true });
}
