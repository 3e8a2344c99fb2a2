// `npm run bench:events` (C40): form analytics' event endpoint beside the submit endpoint, in one
// run, on the production bundle under Miniflare with a persisted local D1 (bench/harness.ts), its
// D1 binding wrapped to count round trips. Prints each endpoint's requests per second, p50 and p99
// at 10 and 50 connections, and the D1 writes per 1,000 events: every event from a new visitor
// (the worst case), and visitors coming back (a reload is one visitor). Settings: BENCH_EVENTS
// (events per run, default 20,000).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundle, load, type Run, scenarios, seed, start } from './harness.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const CONNECTIONS = [10, 50] as const;

const work = mkdtempSync(join(tmpdir(), 'forms-bench-events-'));
const outdir = join(work, 'dist');
const state = join(work, 'state');
await buildBundle(outdir, undefined, true, true);
const { projectId, apiKey } = await seed(state);
const { mf, urls } = await start({ service: outdir }, state);
const submitUrl = urls.service ?? '';
const base = new URL(submitUrl).origin;
const eventsUrl = `${base}/api/v1/events`;
const FLUSH_MS = 2000;

const d1 = async () =>
  (await (await fetch(`${base}/__bench/d1`)).json()) as { roundTrips: number; writes: number };
const settle = () => new Promise((r) => setTimeout(r, FLUSH_MS + 1000));
const db = await mf.getD1Database('DB');
const visitorRows = async () =>
  (await db
    .prepare('select count(*) as n, sum(viewed) as views from analytics_visitors where project_id = ?')
    .bind(projectId)
    .first<{ n: number; views: number | null }>()) ?? { n: 0, views: 0 };

const view = (visitors: number) => ({ key: '', body: { key: apiKey, type: 'view' }, visitors });
const submit = scenarios(apiKey).accepted;
const line = (name: string, c: number, r: Run) =>
  `| ${name} | ${c} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} |`;

// Warm up both (the configuration cache, the day's salt, the lazy parts).
await load(submitUrl, submit, 10, 500);
await load(eventsUrl, view(1_000_000), 10, 500);
await settle();

const rows: string[] = [];
for (const c of CONNECTIONS) {
  rows.push(line('submit (accepted)', c, await load(submitUrl, submit, c, EVENTS / 4)));
  rows.push(line('event (a new visitor each)', c, await load(eventsUrl, view(1_000_000), c, EVENTS)));
}

// D1 writes per 1,000 events: every event a new visitor, then 50 visitors per connection coming back.
type Writes = { events: number; writes: number; rowsBefore: number; rowsAfter: number; viewsAfter: number };
async function writesOf(visitors: number): Promise<Writes> {
  await settle();
  const before = await d1();
  const rowsBefore = (await visitorRows()).n;
  const run = await load(eventsUrl, view(visitors), 50, EVENTS);
  await settle();
  const after = await d1();
  const counted = await visitorRows();
  return {
    events: run.ok,
    writes: after.writes - before.writes,
    rowsBefore,
    rowsAfter: counted.n,
    viewsAfter: counted.views ?? 0,
  };
}
const fresh = await writesOf(1_000_000);
const back = await writesOf(50);
await mf.dispose();
rmSync(work, { recursive: true, force: true });

const per1000 = (w: Writes) => ((w.writes / w.events) * 1000).toFixed(1);
console.log(`Form analytics' events beside submissions (C40): production bundle under Miniflare, local D1.
${EVENTS} events per run (${EVENTS / 4} submissions); ANALYTICS_FLUSH_MS ${FLUSH_MS}.

| endpoint | connections | rps | p50 ms | p99 ms | non-2xx |
|---|---|---|---|---|---|
${rows.join('\n')}

D1 writes (round trips that write) per 1,000 events, at 50 connections:
  every event a new visitor: ${per1000(fresh)} (${fresh.writes} writes for ${fresh.events} events; ${fresh.events / Math.max(fresh.writes, 1) >= 10 ? 'at least' : 'LESS than'} 10x fewer writes than events); visitors' rows ${fresh.rowsAfter - fresh.rowsBefore} for ${fresh.events} events: ${fresh.rowsAfter - fresh.rowsBefore === fresh.events ? 'none lost' : 'SOME LOST'}
  50 visitors per connection coming back: ${per1000(back)} (${back.writes} writes for ${back.events} events); new visitors' rows ${back.rowsAfter - back.rowsBefore} (50 connections x 50 visitors = 2500 at most)`);
