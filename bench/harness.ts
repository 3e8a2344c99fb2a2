// The pieces of `npm run bench`, shared with `npm run bench:compare`: the production bundle, a
// persisted local D1 with the real migrations and a seeded project, the workers in one Miniflare
// (each on its own direct socket), and the load generator in its own process.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { unstable_readConfig } from 'wrangler';
import { buildAssets } from '../scripts/build-assets.ts';
import { createProjectFromSpecs } from '../src/ops/projects.ts';
import { displayPrefix, generateKey, hashKey, KIND_PREFIXES } from '../src/projects/keys.ts';
import { insertKey } from '../src/store/projects.ts';
import { openDatabase } from '../toolkit/database.ts';

// The Rate Limiting binding (C21). In production its counters are kept in memory on the machine
// that runs the worker and synchronised in the background, so a limit() call waits on no network.
// Miniflare simulates it with a Durable Object that writes SQLite on every call, on the worker's own
// thread: as costly here as a D1 write. `memory` (default) stands in an in-memory limiter with the
// same interface and fixed windows; `miniflare` measures the simulator.
export type Limiter = 'memory' | 'miniflare';
export const LIMITER: Limiter = process.env.BENCH_LIMITER === 'miniflare' ? 'miniflare' : 'memory';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * In-memory limiters with the Rate Limiting binding's interface and fixed windows, as module
 * source for a bench's entry (see LIMITER): every limit wide open, the check itself on the path.
 */
export const LIMITERS = `const windows = new Map();
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
  EVENT_RATE_LIMIT: limiter('event', 1e9, 10),
};`;

/**
 * The entry the bench runs: the production build, untouched, handed in-memory limiters; with
 * `countD1`, its D1 binding wrapped to count round trips (and those that write), which
 * `GET /__bench/d1` answers (C40: D1 writes per event).
 */
function benchEntry(entry: string, countD1: boolean): string {
  return `import worker from './${entry}';
${LIMITERS}
${
  countD1
    ? `const d1 = { roundTrips: 0, writes: 0 };
const WRITE = /^\\s*(insert|update|delete|replace)/i;
const inner = new WeakMap(), sqlOf = new WeakMap();
const statement = (stmt, sql) => {
  const proxy = new Proxy(stmt, { get(t, k) {
    if (k === 'bind') return (...v) => statement(t.bind(...v), sql);
    if (k === 'run' || k === 'all' || k === 'first' || k === 'raw')
      return (...a) => { d1.roundTrips++; if (WRITE.test(sql)) d1.writes++; return t[k](...a); };
    const v = Reflect.get(t, k, t);
    return typeof v === 'function' ? v.bind(t) : v;
  } });
  inner.set(proxy, stmt); sqlOf.set(proxy, sql);
  return proxy;
};
let counted;
const counting = (db) => (counted ??= new Proxy(db, { get(t, k) {
  if (k === 'prepare') return (sql) => statement(t.prepare(sql), sql);
  if (k === 'batch') return (list) => {
    d1.roundTrips++;
    if (list.some((s) => WRITE.test(sqlOf.get(s) ?? ''))) d1.writes++;
    return t.batch(list.map((s) => inner.get(s) ?? s));
  };
  const v = Reflect.get(t, k, t);
  return typeof v === 'function' ? v.bind(t) : v;
} }));
export default { fetch: (request, env, ctx) =>
  new URL(request.url).pathname === '/__bench/d1'
    ? Response.json(d1)
    : worker.fetch(request, { ...env, ...limiters, DB: counting(env.DB) }, ctx) };`
    : 'export default { fetch: (request, env, ctx) => worker.fetch(request, { ...env, ...limiters }, ctx) };'
}
`;
}

/** A built worker: its module files in `outdir` (the entry first) and their size. */
export type Built = {
  outdir: string;
  files: string[];
  bytes: number;
  gzipBytes: number;
  split: boolean;
  /** esbuild's account of the split build: which sources each module holds. */
  metafile?: import('esbuild').Metafile;
};

/**
 * The production build, minified, into `outdir`, with the entry that hands it in-memory limiters;
 * of the checkout in `cwd` (another worktree, for `bench:compare`) when given. A checkout with
 * scripts/build-worker.ts is built by it (the entry and its chunks); an older one by wrangler.
 */
export async function buildBundle(
  outdir: string,
  cwd?: string,
  minify = true,
  countD1 = false,
): Promise<Built> {
  const root = cwd ?? process.cwd();
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' };
  if (cwd === undefined) await buildAssets();
  else execFileSync('npm', ['run', '--silent', 'build:assets'], { cwd, env, stdio: ['ignore', 2, 2] });
  let built: Built;
  if (existsSync(join(root, 'scripts/build-worker.ts'))) {
    const script = join(root, 'scripts/build-worker.ts');
    const { buildWorker } = (await import(script)) as typeof import('../scripts/build-worker.ts');
    built = { outdir, split: true, ...(await buildWorker(outdir, minify)) };
  } else {
    execFileSync(
      'wrangler',
      ['deploy', '--dry-run', minify ? '--minify' : '--minify=false', '--outdir', outdir],
      {
        cwd: root,
        env,
        stdio: ['ignore', 2, 2],
      },
    );
    const bundle = readFileSync(join(outdir, 'index.js'));
    built = {
      outdir,
      split: false,
      files: ['index.js'],
      bytes: bundle.length,
      gzipBytes: gzipSync(bundle).length,
    };
  }
  // The production build, untouched, behind an entry that hands it in-memory limiters.
  writeFileSync(join(outdir, 'bench-entry.js'), benchEntry(built.files[0] ?? '', countD1));
  writeFileSync(join(outdir, 'bench-modules.json'), JSON.stringify(built.files));
  // What `wrangler check startup` profiles: the upload, as `wrangler deploy` would make it.
  const upload = built.split
    ? ['deploy', join(outdir, built.files[0] ?? ''), '--no-bundle', '-c', join(root, 'wrangler.toml')]
    : ['deploy', '--minify'];
  execFileSync('wrangler', [...upload, '--dry-run', '--outfile', join(outdir, 'upload.bundle')], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 2],
  });
  return built;
}

/**
 * A worker that only answers "hi", uploaded as `wrangler deploy` would (the project's compatibility
 * date and flags): the floor of `wrangler check startup` on this machine today, measured beside
 * the worker, since its absolute figure moves with the machine's load.
 */
export function buildHi(outdir: string): Built {
  mkdirSync(outdir, { recursive: true });
  const config = unstable_readConfig({ config: 'wrangler.toml' });
  writeFileSync(join(outdir, 'hi.mjs'), "export default { fetch: () => new Response('hi') };\n");
  writeFileSync(
    join(outdir, 'wrangler.json'),
    JSON.stringify({
      name: 'hi',
      main: 'hi.mjs',
      compatibility_date: config.compatibility_date,
      compatibility_flags: config.compatibility_flags,
    }),
  );
  execFileSync(
    'wrangler',
    ['deploy', '--dry-run', '-c', join(outdir, 'wrangler.json'), '--outfile', join(outdir, 'upload.bundle')],
    { cwd: outdir, env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, stdio: ['ignore', 'ignore', 2] },
  );
  return { outdir, files: ['hi.mjs'], bytes: 0, gzipBytes: 0, split: false };
}

type Profile = {
  nodes: { id: number; callFrame: { functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
};

/** The longest time (ms) any one sample that is not idle stands for in a profile. */
function largestBusySample(path: string): number {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  let largest = 0;
  profile.samples.forEach((id, i) => {
    if (!idle.has(id)) largest = Math.max(largest, profile.timeDeltas[i] ?? 0);
  });
  return Number((largest / 1000).toFixed(1));
}

/** `wrangler check startup` of a build, `runs` times: each run's active CPU time (ms) and profile. */
export function measureStartup(
  built: Built,
  runs: number,
): { ms: number[]; windowMs: number[]; largestMs: number[]; profiles: string[] } {
  const ms: number[] = [];
  // The longest gap a single busy sample carries: the profiler takes about one sample a
  // millisecond, and the first busy one after the runtime loads the modules can carry 10 ms and
  // more, so that one sample may be most of a run's active time.
  const largestMs: number[] = [];
  // The profile's whole window: the runtime's own start as well as the worker's, which a worker
  // that does next to nothing (one that answers "hi") shows where its active time is 0.
  const windowMs: number[] = [];
  const profiles: string[] = [];
  for (let run = 0; run < runs; run++) {
    const profile = join(built.outdir, `startup-${run}.cpuprofile`);
    const output = execFileSync(
      'wrangler',
      ['check', 'startup', '--worker', join(built.outdir, 'upload.bundle'), '--outfile', profile],
      {
        encoding: 'utf8',
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    ms.push(Number(/Active: ([\d.]+) ms/.exec(output)?.[1] ?? Number.NaN));
    windowMs.push(Number(/Profile window: ([\d.]+) ms/.exec(output)?.[1] ?? Number.NaN));
    largestMs.push(largestBusySample(profile));
    profiles.push(profile);
  }
  return { ms, windowMs, largestMs, profiles };
}

/** Each build's start-up runs: active time, whole window and largest busy sample (ms), as above. */
export type Startups = { ms: number[]; windowMs: number[]; largestMs: number[] };

/**
 * `wrangler check startup` of several builds, `runs` times each, run for run interleaved and in
 * alternating order (a, b, b, a, …), so that the machine's drift falls on each alike.
 */
export function interleavedStartups<K extends string>(
  builds: Record<K, Built>,
  runs: number,
): Record<K, Startups> {
  const names = Object.keys(builds) as K[];
  const out = {} as Record<K, Startups>;
  for (const name of names) out[name] = { ms: [], windowMs: [], largestMs: [] };
  for (let run = 0; run < runs; run++) {
    for (const name of run % 2 ? [...names].reverse() : names) {
      const { ms, windowMs, largestMs } = measureStartup(builds[name], 1);
      out[name].ms.push(...ms);
      out[name].windowMs.push(...windowMs);
      out[name].largestMs.push(...largestMs);
    }
  }
  return out;
}

/**
 * A persisted local D1 with the real migrations, and a project with SPEC's five fields. `views`:
 * `old=new` pairs, a view by a table's old name over its new one, so that an older commit that
 * reads the table by its old name runs beside the tree (bench:compare across a rename).
 */
export async function seed(
  state: string,
  views: string[] = [],
  logic = false,
): Promise<{ projectId: string; apiKey: string }> {
  // C41: every place's database migrated on opening, as `npm run dev` migrates them.
  const seeded = await openDatabase({ remote: false, persistTo: state });
  try {
    for (const pair of views) {
      const [old, now] = pair.split('=');
      if (!/^\w+$/.test(old ?? '') || !/^\w+$/.test(now ?? ''))
        throw new Error(`a view is old=new: '${pair}'`);
      await seeded.db.run(sql.raw(`create view if not exists "${old}" as select * from "${now}"`));
    }
    // C45 (`logic`): one registration per email, and a form that takes at most ten million.
    const { projectId } = await createProjectFromSpecs(seeded.db, {
      name: 'Bench',
      fields: [
        'name:string',
        logic ? 'email:string:unique' : 'email:string',
        'phone:integer',
        'enquiry:boolean',
        'message:string',
      ],
    });
    if (logic) {
      await seeded.db.run(sql`update projects set max_submissions = 10000000 where id = ${projectId}`);
    }
    // A key of the form every version accepts (`edgeform_` and 32, from before there were two
    // kinds of key, C23), so that bench:compare can drive an older commit with the same key.
    const apiKey = `edgeform_${generateKey().slice(KIND_PREFIXES.publishable.length)}`;
    await insertKey(seeded.db, projectId, {
      keyHash: await hashKey(apiKey),
      displayPrefix: displayPrefix(apiKey),
      kind: 'publishable',
    });
    return { projectId, apiKey };
  } finally {
    await seeded.close();
  }
}

export const FLOOR_BODY = JSON.stringify({
  data: { message: 'Submission received' },
  status: { code: 201, message: 'Created' },
});

/**
 * The services (name → the outdir of a bundle) and the floor in one Miniflare sharing one D1, each
 * on its own socket. Returns the submit URL of each.
 */
export async function start(
  services: Record<string, string>,
  state: string,
  secrets: Record<string, string> = {},
): Promise<{ mf: Miniflare; urls: Record<string, string> }> {
  const config = unstable_readConfig({ config: 'wrangler.toml' });
  const service = (name: string, outdir: string) => ({
    name,
    modules: [
      ...(LIMITER === 'memory' ? ['bench-entry.js'] : []),
      ...(JSON.parse(readFileSync(join(outdir, 'bench-modules.json'), 'utf8')) as string[]),
    ].map((file) => ({
      type: 'ESModule' as const,
      path: join(outdir, file),
    })),
    modulesRoot: outdir,
    compatibilityDate: config.compatibility_date,
    // The local databases wrangler migrated: wrangler names each by its id, or (C42: wrangler.toml
    // holds none) by its binding. C41: every place's.
    d1Databases: Object.fromEntries(
      config.d1_databases.map((d: { binding: string; database_id?: string }) => [
        d.binding,
        d.database_id ?? d.binding,
      ]),
    ),
    bindings: { ...(config.vars as Record<string, string | number>), ...secrets },
    // C26: deliveries are sent to a queue nobody consumes here: the send is measured, not delivery.
    ...(process.env.BENCH_NO_QUEUE
      ? {}
      : { queueProducers: { DELIVERIES: 'bench-deliveries', DELIVERIES_DLQ: 'bench-deliveries-dlq' } }),
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
  });
  // Miniflare 5 takes a new shape of options; the classic one converts exactly.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: join(state, 'v3'),
      workers: [
        ...Object.entries(services).map(([name, outdir]) => service(name, outdir)),
        {
          name: 'floor',
          modules: true,
          script: `const body = ${JSON.stringify(FLOOR_BODY)};
export default { fetch: () => new Response(body, { status: 201, headers: { 'Content-Type': 'application/json; charset=utf-8' } }) };`,
          compatibilityDate: config.compatibility_date,
          unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
        },
      ],
    }),
  );
  await mf.ready;
  const urls: Record<string, string> = {};
  for (const name of [...Object.keys(services), 'floor']) {
    urls[name] = `${await mf.unsafeGetDirectURL(name)}api/v1/submit`;
  }
  return { mf, urls };
}

export function scenarios(apiKey: string) {
  return {
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
}

/**
 * C45: the accepted post on a project seeded with `logic` (a unique email, a limit): each request
 * a new address, as a unique field takes each value once.
 */
export const logicRequest = (apiKey: string): Request => ({
  ...scenarios(apiKey).accepted,
  distinct: 'email',
});
export type Scenario = keyof ReturnType<typeof scenarios>;
/** A request of a run: a key (sent as a bearer, unless empty: C40's events carry it in the body) and a body. */
export type Request = { key: string; body: object; visitors?: number; distinct?: string };

export type Run = {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
};

/** One run of exactly `amount` requests, by bench/load.ts (autocannon) in its own process. */
export function load(url: string, request: Request, connections: number, amount: number): Promise<Run> {
  const options = {
    url,
    connections,
    amount,
    headers: request.key
      ? { Authorization: `Bearer ${request.key}`, 'Content-Type': 'application/json' }
      : { 'Content-Type': 'text/plain' },
    body: JSON.stringify(request.body),
    ...(request.visitors === undefined ? {} : { visitors: request.visitors }),
    ...(request.distinct === undefined ? {} : { distinct: request.distinct }),
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

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  positionTicks?: { line: number; ticks: number }[];
};

/**
 * Where the start-up's CPU time went, by source module: each sample of the profiles of an
 * unminified build (whose output marks each module's first line with `// <path>`) is charged to
 * the module of the line it was taken on. Time on no line of ours (compiling a module, the
 * runtime) is charged to `(compile: <file>)` or the runtime's own name. Milliseconds per run.
 */
export function costByModule(built: Built, profiles: readonly string[]): [string, number][] {
  const outdir = built.outdir;
  // A chunk is named by the three sources that make most of it: what its compilation costs for.
  const contents = new Map<string, string>();
  for (const [path, output] of Object.entries(built.metafile?.outputs ?? {})) {
    const bySource = new Map<string, number>();
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const source = input.replace(/^node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, '$1');
      bySource.set(source, (bySource.get(source) ?? 0) + bytesInOutput);
    }
    const largest = [...bySource]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([source]) => source);
    contents.set(
      path
        .split('/')
        .slice(-2)
        .join('/')
        .replace(/^[^/]*\/(index\.mjs)$/, '$1'),
      largest.join(', '),
    );
  }
  const marks = new Map<string, [number, string][]>();
  const marksOf = (url: string) => {
    const file = url
      .split('/')
      .slice(-2)
      .join('/')
      .replace(/^[^/]*\/(index\.m?js)$/, '$1');
    let found = marks.get(file);
    if (found === undefined) {
      found = [];
      const path = join(outdir, file);
      if (existsSync(path)) {
        for (const [i, line] of readFileSync(path, 'utf8').split('\n').entries()) {
          const m = /^\/\/ ((?:node_modules|src|schema)\/\S+)$/.exec(line);
          if (m?.[1]) found.push([i, m[1]]);
        }
      }
      marks.set(file, found);
    }
    return { file, found };
  };
  const moduleOf = (url: string, line: number) => {
    const { file, found } = marksOf(url);
    if (line < 0) return `(compile: ${file}${contents.has(file) ? `: ${contents.get(file)}` : ''})`;
    let name = `(top of ${file}${contents.has(file) ? `: ${contents.get(file)}` : ''})`;
    for (const [start, path] of found) {
      if (start > line) break;
      name = path;
    }
    // A package by its name: its files are one cause.
    return name.replace(/^node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, '$1');
  };
  const totals = new Map<string, number>();
  for (const path of profiles) {
    const profile = JSON.parse(readFileSync(path, 'utf8')) as {
      nodes: ProfileNode[];
      samples: number[];
      timeDeltas: number[];
    };
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const node = nodes.get(id);
      if (node === undefined || node.callFrame.functionName === '(idle)') return;
      const frame = node.callFrame;
      const line = node.positionTicks?.[0] ? node.positionTicks[0].line - 1 : frame.lineNumber;
      const name = frame.url === '' ? frame.functionName || '(runtime)' : moduleOf(frame.url, line);
      // As wrangler counts Active: each sample is charged the time since the one before it.
      totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000 / profiles.length);
    });
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}
