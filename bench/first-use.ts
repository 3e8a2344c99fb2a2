// `npm run bench:first-use`: what the lazy boundary (docs/layout.md) moves from every cold start to
// the first request for another surface. A fresh isolate answers a form post's preflight first, as
// a deployment's would, then the management API twice: the first request loads, compiles and
// evaluates the surfaces' chunk, the second finds it loaded. Wall time through Miniflare, one
// fresh isolate a repetition. Settings: BENCH_REPETITIONS (5).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildBundle, median, seed, start } from './harness.ts';

const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 5);

const work = mkdtempSync(join(tmpdir(), 'forms-first-use-'));
const built = await buildBundle(join(work, 'dist'));
const first: number[] = [];
const second: number[] = [];
for (let run = 0; run < REPETITIONS; run++) {
  const state = join(work, `state-${run}`);
  await seed(state);
  const { mf, urls } = await start({ service: built.outdir }, state);
  const base = (urls.service ?? '').replace('/api/v1/submit', '');
  const timed = async (): Promise<number> => {
    const started = performance.now();
    const reply = await fetch(`${base}/api/v1/projects`);
    await reply.arrayBuffer();
    return performance.now() - started;
  };
  await (await fetch(`${base}/api/v1/submit`, { method: 'OPTIONS' })).arrayBuffer();
  first.push(await timed());
  second.push(await timed());
  await mf.dispose();
}
rmSync(work, { recursive: true, force: true });

const shown = (ms: number[]) => ms.map((m) => m.toFixed(1)).join(', ');
console.log(`management API after a form post, ${REPETITIONS} fresh isolates (ms, wall time):`);
console.log(`first request:  median ${median(first).toFixed(1)} (${shown(first)})`);
console.log(`second request: median ${median(second).toFixed(1)} (${shown(second)})`);
console.log(`paid once per isolate: ${(median(first) - median(second)).toFixed(1)} ms`);
