// `npm run bench`: the production bundle under Miniflare with a persisted local D1, side by side
// with a floor worker (a static envelope) in the same Miniflare, each on its own direct socket,
// driven by autocannon in a separate process. Prints the figures (in the form of bench/RESULTS.md)
// and writes bench/results.json. Settings: BENCH_SECONDS (about how long each run lasts, default 3),
// BENCH_REPETITIONS (3).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { unstable_readConfig } from 'wrangler';
import { buildAssets } from '../scripts/build-assets.ts';
import { openDatabase, persistArgs, wrangler } from '../scripts/database.ts';
import { createProjectFromInput } from '../scripts/forms.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 3);
// The Rate Limiting binding (C21). In production its counters are kept in memory on the machine
// that runs the worker and synchronised in the background, so a limit() call waits on no network.
// Miniflare simulates it with a Durable Object that writes SQLite on every call, on the worker's own
// thread: as costly here as a D1 write. `memory` (default) stands in an in-memory limiter with the
// same interface and fixed windows; `miniflare` measures the simulator.
const LIMITER = process.env.BENCH_LIMITER === 'miniflare' ? 'miniflare' : 'memory';
const CONNECTIONS = [10, 50] as const;

const work = mkdtempSync(join(tmpdir(), 'forms-bench-'));
const outdir = join(work, 'dist');
const state = join(work, 'state');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

// 1. The production bundle, minified, and its startup profile (the static assets it names, first).
await buildAssets();
wrangler(['deploy', '--dry-run', '--minify', '--outdir', outdir]);
const bundle = readFileSync(join(outdir, 'index.js'));
const startup = execFileSync(
  'wrangler',
  ['check', 'startup', '--outfile', join(work, 'startup.cpuprofile')],
  {
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
const startupMs = Number(/Active: ([\d.]+) ms/.exec(startup)?.[1] ?? Number.NaN);

// The production bundle, untouched, behind an entry that hands it in-memory limiters.
writeFileSync(
  join(outdir, 'bench-entry.js'),
  `import worker from './index.js';
const windows = new Map();
const limiter = (name, limit, period) => ({
  async limit({ key }) {
    const id = name + ' ' + key, epoch = Math.floor(Date.now() / (period * 1000));
    let w = windows.get(id);
    if (w === undefined || w.epoch !== epoch) windows.set(id, (w = { epoch, count: 0 }));
    return { success: ++w.count <= limit };
  },
});
const limiters = {
  KEY_RATE_LIMIT: limiter('key', 1e9, 10),
  ADDRESS_RATE_LIMIT: limiter('address', 1e9, 10),
};
export default { fetch: (request, env, ctx) => worker.fetch(request, { ...env, ...limiters }, ctx) };
`,
);

// 2. A persisted local D1 with the real migrations, and a project with SPEC's five fields.
wrangler(['d1', 'migrations', 'apply', 'DB', '--local', ...persistArgs(state)]);
const seeded = await openDatabase({ remote: false, persistTo: state });
const { projectId, apiKey } = await createProjectFromInput(seeded.db, {
  name: 'Bench',
  fields: ['name:string', 'email:string', 'phone:integer', 'enquiry:boolean', 'message:string'],
});
await seeded.close();

// 3. Service and floor in one Miniflare, each on its own socket.
const config = unstable_readConfig({ config: 'wrangler.toml' });
const [d1] = config.d1_databases;
const floorBody = JSON.stringify({
  data: { message: 'Submission received' },
  status: { code: 201, message: 'Created' },
});
// Miniflare 5 takes a new shape of options; the classic one converts exactly.
const mf = new Miniflare(
  convertV4MiniflareOptions({
    resourcePersistencePath: join(state, 'v3'),
    workers: [
      {
        name: 'service',
        modules: (LIMITER === 'memory' ? ['bench-entry.js', 'index.js'] : ['index.js']).map((name) => ({
          type: 'ESModule' as const,
          path: join(outdir, name),
        })),
        modulesRoot: outdir,
        compatibilityDate: config.compatibility_date,
        d1Databases: { DB: d1?.database_id ?? '' },
        bindings: config.vars as Record<string, string | number>,
        // The limiters of wrangler.toml, widened so that the load is measured, never refused: the
        // check itself stays on the path.
        ratelimits:
          LIMITER === 'memory'
            ? {}
            : Object.fromEntries(
                config.ratelimits.map(
                  (r: { name: string; namespace_id: string; simple: { period: 10 | 60 } }) => [
                    r.name,
                    { namespace_id: r.namespace_id, simple: { limit: 1e9, period: r.simple.period } },
                  ],
                ),
              ),
        unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
      },
      {
        name: 'floor',
        modules: true,
        script: `const body = ${JSON.stringify(floorBody)};
export default { fetch: () => new Response(body, { status: 201, headers: { 'Content-Type': 'application/json; charset=utf-8' } }) };`,
        compatibilityDate: config.compatibility_date,
        unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
      },
    ],
  }),
);
await mf.ready;
const urls = {
  service: `${await mf.unsafeGetDirectURL('service')}api/v1/submit`,
  floor: `${await mf.unsafeGetDirectURL('floor')}api/v1/submit`,
};

const scenarios = {
  accepted: {
    key: apiKey,
    body: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: 2025550123,
      enquiry: true,
      message: 'Hello!',
    },
  },
  typeError: {
    key: apiKey,
    body: { name: 42, email: 'ada@example.com', phone: '2025550123', enquiry: 'yes' },
  },
  badKey: { key: 'edgeform_00000000000000000000000000000000', body: { name: 'Ada' } },
} as const;
type Scenario = keyof typeof scenarios;

type Run = {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
};

/** One run of exactly `amount` requests, by bench/load.ts (autocannon) in its own process. */
function load(url: string, scenario: Scenario, connections: number, amount: number): Promise<Run> {
  const { key, body } = scenarios[scenario];
  const options = {
    url,
    connections,
    amount,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bench/load.ts', JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as Run) : reject(new Error(`load: exit ${code}`)),
    );
  });
}

let created = 0;
type Figures = { ratio: number; rps: number; floorRps: number; p50Ms: number; p99Ms: number; non2xx: number };
const results: Record<Scenario, Record<string, Figures>> = { accepted: {}, typeError: {}, badKey: {} };

// Warm both up (and the service's configuration cache), and size each run to about SECONDS.
const amounts = new Map<string, number>();
for (const scenario of Object.keys(scenarios) as Scenario[]) {
  for (const [worker, url] of Object.entries(urls)) {
    const warm = await load(url, scenario, 10, 2000);
    if (worker === 'service' && scenario === 'accepted') created += warm.ok;
    amounts.set(`${worker} ${scenario}`, Math.max(2000, Math.round((warm.rps * SECONDS) / 100) * 100));
  }
}
const amount = (worker: string, scenario: Scenario) => amounts.get(`${worker} ${scenario}`) ?? 2000;

for (const connections of CONNECTIONS) {
  for (const scenario of Object.keys(scenarios) as Scenario[]) {
    const service: Run[] = [];
    const floor: Run[] = [];
    for (let rep = 0; rep < REPETITIONS; rep++) {
      // Interleaved: floor, service, floor, service…
      floor.push(await load(urls.floor, scenario, connections, amount('floor', scenario)));
      const run = await load(urls.service, scenario, connections, amount('service', scenario));
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

const db = await mf.getD1Database('DB');
const stored = await db
  .prepare('select count(*) as n from submissions where project_id = ?')
  .bind(projectId)
  .first<{ n: number }>();
await mf.dispose();

const report = {
  ...results,
  bundle: { minifiedBytes: bundle.length, gzipBytes: gzipSync(bundle).length },
  startupMs,
  storedEqualsCreated: stored?.n === created,
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
  `Bundle (minified): ${report.bundle.minifiedBytes} bytes, ${report.bundle.gzipBytes} gzip (${(report.bundle.gzipBytes / 1024).toFixed(2)} KiB). Startup (wrangler check startup, active CPU): ${startupMs} ms.`,
  `Stored rows ${stored?.n} = 201 replies ${created}: ${report.storedEqualsCreated}.`,
].join('\n');
console.log(`\n${markdown}\n`);
rmSync(work, { recursive: true, force: true });
