// `npm run bench:places` (C41): the same write-bound load on one database and on two, side by side
// in one run, on the production bundle under Miniflare (bench/harness.ts), with each D1 binding
// wrapped in a MODEL of D1 in production: every round trip takes BENCH_D1_LATENCY_MS (default 15),
// and each database has one writer, which writes BENCH_D1_ROW_MS per row (default 4: 250 rows a
// second) one write at a time. Local D1 answers in microseconds and has no such writer, so without
// the model a second database could show nothing. Two projects share the load, half the
// connections each: both in the default place, then one of them in `eu`. Prints accepted requests
// per second and p99 of each, and the ratio. Settings: BENCH_PLACES_REQUESTS (per run, default
// 6,000), BENCH_PLACES_CONNECTIONS (default 64), BENCH_REPETITIONS (default 3).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFieldSpecs } from '../src/fields/spec.ts';
import { createProject, createProjectFromSpecs } from '../src/ops/projects.ts';
import { openDatabase } from '../toolkit/database.ts';
import { buildBundle, LIMITERS, load, median, type Run, scenarios, seed, start } from './harness.ts';

const LATENCY_MS = Number(process.env.BENCH_D1_LATENCY_MS ?? 15);
const ROW_MS = Number(process.env.BENCH_D1_ROW_MS ?? 4);
const REQUESTS = Number(process.env.BENCH_PLACES_REQUESTS ?? 6000);
const CONNECTIONS = Number(process.env.BENCH_PLACES_CONNECTIONS ?? 64);
const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 3);

/**
 * The entry of the bench: the production build, bench/harness.ts's in-memory limiters, and
 * every D1 binding wrapped in the model: a round trip waits the latency; a write (a statement or a
 * batch that inserts, updates or deletes) also waits for its database's one writer, which takes
 * ROW_MS per row it writes (an insert's rows are its `(?` tuples; any other statement one row).
 */
function modelEntry(entry: string): string {
  return `import worker from './${entry}';
const LATENCY = ${LATENCY_MS}, ROW = ${ROW_MS};
${LIMITERS}
const WRITE = /^\\s*(insert|update|delete|replace)/i;
const rowsOf = (sql) => (WRITE.test(sql) ? (/^\\s*insert/i.test(sql) ? Math.max(1, (sql.match(/\\(\\?/g) ?? []).length) : 1) : 0);
const wait = (ms) => (ms > 0 ? scheduler.wait(ms) : Promise.resolve());
const model = (db) => {
  let writer = Promise.resolve();
  const trip = async (rows, run) => {
    await wait(LATENCY / 2);
    if (rows > 0) {
      const turn = writer.then(() => wait(rows * ROW));
      writer = turn.catch(() => {});
      await turn;
    }
    const result = await run();
    await wait(LATENCY / 2);
    return result;
  };
  const inner = new WeakMap(), sqlOf = new WeakMap();
  const statement = (stmt, sql) => {
    const proxy = new Proxy(stmt, { get(t, k) {
      if (k === 'bind') return (...v) => statement(t.bind(...v), sql);
      if (k === 'run' || k === 'all' || k === 'first' || k === 'raw') return (...a) => trip(rowsOf(sql), () => t[k](...a));
      const v = Reflect.get(t, k, t);
      return typeof v === 'function' ? v.bind(t) : v;
    } });
    inner.set(proxy, stmt); sqlOf.set(proxy, sql);
    return proxy;
  };
  return new Proxy(db, { get(t, k) {
    if (k === 'prepare') return (sql) => statement(t.prepare(sql), sql);
    if (k === 'batch') return (list) => trip(list.reduce((n, s) => n + rowsOf(sqlOf.get(s) ?? ''), 0), () => t.batch(list.map((s) => inner.get(s) ?? s)));
    if (k === 'withSession') return () => model(t);
    const v = Reflect.get(t, k, t);
    return typeof v === 'function' ? v.bind(t) : v;
  } });
};
let modelled;
export default { fetch: (request, env, ctx) => {
  modelled ??= Object.fromEntries(Object.entries(env).filter(([k]) => k === 'DB' || k.startsWith('DB_')).map(([k, v]) => [k, model(v)]));
  return worker.fetch(request, { ...env, ...limiters, ...modelled }, ctx);
} };
`;
}

const work = mkdtempSync(join(tmpdir(), 'forms-bench-places-'));
const outdir = join(work, 'dist');
const state = join(work, 'state');
const built = await buildBundle(outdir);
writeFileSync(join(outdir, 'bench-entry.js'), modelEntry(built.files[0] ?? ''));
const { apiKey: first } = await seed(state);
// The second project: in the default place (one database), and its twin in eu (two).
const opened = await openDatabase({ remote: false, persistTo: state });
const fields = ['name:string', 'email:string', 'phone:integer', 'enquiry:boolean', 'message:string'];
const sameDb = await createProjectFromSpecs(opened.db, { name: 'Bench 2', fields });
const otherDb = await createProject(
  { db: opened.db, places: opened.places, actor: { kind: 'tool' } },
  { name: 'Bench 2 (eu)', fields: parseFieldSpecs(fields), region: 'eu' },
);
await opened.close();
const { mf, urls } = await start({ service: outdir }, state);
const url = urls.service ?? '';

const accepted = (key: string) => scenarios(key).accepted;
/** Both projects at once, half the connections and requests each: the total and the worse p99. */
async function pair(second: string): Promise<Run> {
  const [a, b] = await Promise.all([
    load(url, accepted(first), CONNECTIONS / 2, REQUESTS / 2),
    load(url, accepted(second), CONNECTIONS / 2, REQUESTS / 2),
  ]);
  const seconds = Math.max(a.ok / a.rps, b.ok / b.rps);
  return {
    rps: (a.ok + b.ok) / seconds,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    ok: a.ok + b.ok,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
    timeouts: a.timeouts + b.timeouts,
  };
}

// Warm up both (the configuration cache, the lazy parts), then the runs interleaved.
await pair(sameDb.apiKey);
await pair(otherDb.apiKey);
const one: Run[] = [];
const two: Run[] = [];
for (let r = 0; r < REPETITIONS; r++) {
  one.push(await pair(sameDb.apiKey));
  two.push(await pair(otherDb.apiKey));
}
await mf.dispose();
rmSync(work, { recursive: true, force: true });

const row = (name: string, runs: Run[]) =>
  `| ${name} | ${median(runs.map((r) => r.rps)).toFixed(0)} | ${median(runs.map((r) => r.p99))} | ${runs.reduce((n, r) => n + r.non2xx + r.errors, 0)} |`;
const ratio = median(two.map((r) => r.rps)) / median(one.map((r) => r.rps));
console.log(
  [
    `THIS IS A MODEL, not D1: each round trip ${LATENCY_MS} ms, one writer per database at ${ROW_MS} ms per row written (BENCH_D1_LATENCY_MS, BENCH_D1_ROW_MS).`,
    `${REQUESTS} accepted submissions per run over ${CONNECTIONS} connections, two projects (half each); median of ${REPETITIONS}.`,
    '',
    '| databases | accepted/s | p99 (ms) | refused or failed |',
    '| --- | --- | --- | --- |',
    row('one (both projects in default)', one),
    row('two (one project in eu)', two),
    '',
    `two ÷ one: ${ratio.toFixed(2)}× (goal ≥ 1.8×)`,
  ].join('\n'),
);
