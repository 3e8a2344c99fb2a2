// `npm run bench`: the production bundle under Miniflare with a persisted local D1, side by side
// with a floor worker (a static envelope) in the same Miniflare, each on its own direct socket,
// driven by autocannon in a separate process. Prints the figures (in the form of bench/RESULTS.md)
// and writes bench/results.json. Settings: BENCH_SECONDS (about how long each run lasts, default 3),
// BENCH_REPETITIONS (3).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildBundle,
  buildHi,
  costByModule,
  interleavedStartups,
  LIMITER,
  load,
  measureStartup,
  median,
  type Run,
  type Scenario,
  scenarios,
  seed,
  start,
} from './harness.ts';
import { measurePage, pageLine } from './page.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 3);
const CONNECTIONS = [10, 50] as const;
const STARTUP_RUNS = 5;

const work = mkdtempSync(join(tmpdir(), 'forms-bench-'));
const outdir = join(work, 'dist');
const state = join(work, 'state');

// 1. The production build, minified, and its start-up: the median of STARTUP_RUNS runs of
// `wrangler check startup`, and where the time went, from the profiles of an unminified build.
const built = await buildBundle(outdir);
// Beside a worker that only answers "hi", run for run, interleaved: the machine's floor today.
const hi = buildHi(join(work, 'hi'));
const { service: startup, hi: hiStartup } = interleavedStartups({ service: built, hi }, STARTUP_RUNS);
const startupMs = median(startup.ms);
const plain = await buildBundle(join(work, 'plain'), undefined, false);
const costs = costByModule(plain, measureStartup(plain, STARTUP_RUNS).profiles).slice(0, 8);

// 2. A persisted local D1 with the real migrations, and a project with SPEC's five fields.
const { projectId, apiKey } = await seed(state);
const requests = scenarios(apiKey);

// 3. Service and floor in one Miniflare, each on its own socket.
const { mf, urls } = await start({ service: outdir }, state);
const url = (worker: string) => urls[worker] ?? '';

let created = 0;
type Figures = { ratio: number; rps: number; floorRps: number; p50Ms: number; p99Ms: number; non2xx: number };
const results: Record<Scenario, Record<string, Figures>> = { accepted: {}, typeError: {}, badKey: {} };
const scenarioNames = Object.keys(requests) as Scenario[];

// Warm both up (and the service's configuration cache), and size each run to about SECONDS.
const amounts = new Map<string, number>();
for (const scenario of scenarioNames) {
  for (const worker of Object.keys(urls)) {
    const warm = await load(url(worker), requests[scenario], 10, 2000);
    if (worker === 'service' && scenario === 'accepted') created += warm.ok;
    amounts.set(`${worker} ${scenario}`, Math.max(2000, Math.round((warm.rps * SECONDS) / 100) * 100));
  }
}
const amount = (worker: string, scenario: Scenario) => amounts.get(`${worker} ${scenario}`) ?? 2000;

for (const connections of CONNECTIONS) {
  for (const scenario of scenarioNames) {
    const service: Run[] = [];
    const floor: Run[] = [];
    for (let rep = 0; rep < REPETITIONS; rep++) {
      // Interleaved: floor, service, floor, service…
      floor.push(await load(url('floor'), requests[scenario], connections, amount('floor', scenario)));
      const run = await load(url('service'), requests[scenario], connections, amount('service', scenario));
      service.push(run);
      if (scenario === 'accepted') created += run.ok;
    }
    results[scenario][`c${connections}`] = {
      ratio: median(service.map((s, i) => s.rps / (floor[i]?.rps ?? 1))),
      rps: median(service.map((s) => s.rps)),
      floorRps: median(floor.map((s) => s.rps)),
      p50Ms: median(service.map((s) => s.p50)),
      p99Ms: median(service.map((s) => s.p99)),
      non2xx: service.reduce((n, s) => n + s.non2xx, 0),
    };
  }
}

const pageFigures = await measurePage(mf, url('service'), projectId);
const db = await mf.getD1Database('DB');
const stored = await db
  .prepare('select count(*) as n from submissions where project_id = ?')
  .bind(projectId)
  .first<{ n: number }>();
await mf.dispose();

const report = {
  ...results,
  bundle: { minifiedBytes: built.bytes, gzipBytes: built.gzipBytes, modules: built.files.length },
  startupMs,
  startupRunsMs: startup.ms,
  startupHiMs: median(hiStartup.ms),
  startupWindowMs: median(startup.windowMs),
  startupLargestSampleMs: startup.largestMs,
  startupHiWindowMs: median(hiStartup.windowMs),
  startupCostMs: Object.fromEntries(costs.map(([name, ms]) => [name, Number(ms.toFixed(2))])),
  storedEqualsCreated: stored?.n === created,
  page: pageFigures,
};
writeFileSync('bench/results.json', `${JSON.stringify(report, null, 2)}\n`);

const versions = {
  node: process.version,
  wrangler: JSON.parse(readFileSync('node_modules/wrangler/package.json', 'utf8')).version as string,
  miniflare: JSON.parse(readFileSync('node_modules/miniflare/package.json', 'utf8')).version as string,
};
const rows = (Object.keys(results) as Scenario[]).flatMap((scenario) =>
  CONNECTIONS.map((c) => {
    const f = results[scenario][`c${c}`];
    return `| ${scenario} | ${c} | ${f?.ratio.toFixed(3)} | ${f?.rps.toFixed(0)} | ${f?.floorRps.toFixed(0)} | ${f?.p50Ms} | ${f?.p99Ms} | ${f?.non2xx} |`;
  }),
);
const markdown = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${versions.node}, wrangler ${versions.wrangler}, Miniflare ${versions.miniflare}.`,
  `${REPETITIONS} interleaved repetitions (floor, service, floor, …) of about ${SECONDS} s each, sized in requests so that every reply is counted; figures are medians; ratio = service rps / floor rps.`,
  `Rate Limiting binding: ${LIMITER === 'memory' ? 'in-memory stand-in (as production keeps its counters; BENCH_LIMITER=miniflare for the simulator)' : "Miniflare's simulator (a Durable Object writing SQLite per call)"}.`,
  '',
  '| scenario | connections | ratio | rps | floor rps | p50 ms | p99 ms | non-2xx |',
  '|---|---|---|---|---|---|---|---|',
  ...rows,
  '',
  `Worker (minified): ${built.files.length} modules, ${report.bundle.minifiedBytes} bytes, ${report.bundle.gzipBytes} gzip (${(report.bundle.gzipBytes / 1024).toFixed(2)} KiB).`,
  `Startup (wrangler check startup, active CPU, ${STARTUP_RUNS} runs): median ${startupMs} ms, min ${Math.min(...startup.ms)}, max ${Math.max(...startup.ms)} (${startup.ms.join(', ')}); beside it, interleaved, a worker that only answers "hi": active median ${median(hiStartup.ms)} ms; the profiles' whole windows, runtime start included, median ${median(startup.windowMs)} ms for the worker and ${median(hiStartup.windowMs)} ms for "hi"; the largest single busy sample of each run (ms): ${startup.largestMs.join(', ')}.`,
  `Where it went (ms per run, from the profiles of an unminified build): ${costs.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join('; ')}.`,
  `Stored rows ${stored?.n} = 201 replies ${created}: ${report.storedEqualsCreated}.`,
  pageLine(pageFigures),
].join('\n');
console.log(`\n${markdown}\n`);
rmSync(work, { recursive: true, force: true });
