// `npm run bench:cpu`: where the time of a request goes. Runs the floor and the service (as
// `npm run bench` does) at c=10 and reads from /proc (Linux) the CPU time of workerd's main thread
// (which runs the workers and the local D1 alike), its other threads, and the whole machine, to
// print the CPU per request and how busy the main thread was. Settings: BENCH_SCENARIO (accepted),
// BENCH_AMOUNT (requests per run, 10000). For a profile, run it under
// `MINIFLARE_WORKERD_V8_FLAGS="--perf-basic-prof" BENCH_MINIFY=false` and `perf record -p <workerd>`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundle, load, type Scenario, scenarios, seed, start } from './harness.ts';

const scenario = (process.env.BENCH_SCENARIO ?? 'accepted') as Scenario;
const amount = Number(process.env.BENCH_AMOUNT ?? 10_000);

const work = mkdtempSync(join(tmpdir(), 'forms-cpu-'));
await buildBundle(join(work, 'dist'));
const state = join(work, 'state');
const { apiKey } = await seed(state);
const request = scenarios(apiKey)[scenario];
const { mf, urls } = await start({ service: join(work, 'dist') }, state);
const [pid = ''] = execFileSync('pgrep', ['-f', 'bin/workerd'], { encoding: 'utf8' }).trim().split('\n');

/** utime + stime of a thread, in seconds. */
function threadSeconds(tid: string): number {
  const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
function threads(): Map<string, number> {
  return new Map(readdirSync(`/proc/${pid}/task`).map((tid) => [tid, threadSeconds(tid)]));
}
/** Busy and idle jiffies of the whole machine. */
function machine(): { busy: number; idle: number } {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/ +/).map(Number) ?? [];
  const at = (i: number) => f[i] ?? 0;
  return { busy: at(0) + at(1) + at(2) + at(5) + at(6), idle: at(3) + at(4) };
}

console.log(`\n${scenario} at c=10, ${amount} requests a run; workerd ${pid}`);
for (const worker of ['floor', 'service', 'floor', 'service']) {
  const url = urls[worker] ?? '';
  await load(url, request, 10, 2000); // warm
  const before = { threads: threads(), machine: machine(), at: performance.now() };
  const run = await load(url, request, 10, amount);
  const wall = (performance.now() - before.at) / 1000;
  const after = { threads: threads(), machine: machine() };
  const main = (after.threads.get(pid) ?? 0) - (before.threads.get(pid) ?? 0);
  let others = 0;
  for (const [tid, t] of after.threads) if (tid !== pid) others += t - (before.threads.get(tid) ?? 0);
  const busy = after.machine.busy - before.machine.busy;
  const total = busy + after.machine.idle - before.machine.idle;
  console.log(
    `${worker.padEnd(7)} ${run.rps.toFixed(0).padStart(5)} rps, p50 ${run.p50} ms; main thread ${((main / amount) * 1e6).toFixed(0)} µs CPU a request, busy ${((main / wall) * 100).toFixed(0)}%; other workerd threads ${((others / wall) * 100).toFixed(0)}%; machine ${((busy / total) * 100).toFixed(0)}% busy`,
  );
}
await mf.dispose();
rmSync(work, { recursive: true, force: true });
