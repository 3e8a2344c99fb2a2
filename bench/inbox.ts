// `npm run bench:inbox`: the inbox (C34) on a local D1 holding 100,000 submissions of one project,
// through the production bundle under Miniflare: a page of 50, a page of unread ones (half are
// read), a search for a word in 1% of them, one for a word in 0.01% (a page that cannot fill), and
// one for a prefix that begins words of about 40% of them (the most terms to gather). Each is asked BENCH_REQUESTS times (200) one after
// another; p50 and p99 of the time to the whole reply, on a loopback socket, beside the floor (a
// worker that answers a static reply at once: what the socket and HTTP cost).

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../toolkit/database.ts';
import { buildBundle, seed, start } from './harness.ts';
import { seedInbox } from './inbox-data.ts';

const COUNT = Number(process.env.BENCH_ROWS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const TOKEN = randomBytes(32).toString('base64url');

const work = mkdtempSync(join(tmpdir(), 'forms-bench-inbox-'));
const outdir = join(work, 'dist');
const state = join(work, 'state');

await buildBundle(outdir);
const { projectId } = await seed(state);

console.log(`Seeding ${COUNT.toLocaleString('en')} submissions and their search terms…`);
const seeded = await openDatabase({ remote: false, persistTo: state });
const terms = await seedInbox(seeded.db, projectId, COUNT);
await seeded.close();
console.log(`${terms.toLocaleString('en')} search terms.`);

const { mf, urls } = await start({ service: outdir }, state, { ADMIN_TOKEN: TOKEN });
const base = (urls.service ?? '').replace(/api\/v1\/submit$/, '');
const floor = urls.floor ?? '';

async function timed(url: string, headers: Record<string, string>): Promise<{ ms: number; rows: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  const body = (await res.json()) as { data: { submissions?: unknown[] } };
  const ms = performance.now() - t0;
  if (res.status >= 300 && url !== floor) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, rows: body.data.submissions?.length ?? 0 };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

const auth = { Authorization: `Bearer ${TOKEN}` };
const list = `${base}api/v1/projects/${projectId}/submissions`;
const cases: [string, string, Record<string, string>][] = [
  ['floor (static reply)', floor, {}],
  ['a page of 50, newest first', `${list}?limit=50`, auth],
  ['a page of 50 unread', `${list}?limit=50&read=false`, auth],
  ['search: a word in 1%', `${list}?limit=50&q=zephyr`, auth],
  ['search: a word in 0.01%', `${list}?limit=50&q=quokka`, auth],
  ['search: a prefix of words in ~40%', `${list}?limit=50&q=ka`, auth],
];
const results = [];
for (const [name, url, headers] of cases) {
  for (let i = 0; i < 10; i++) await timed(url, headers); // warm
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const r = await timed(url, headers);
    times.push(r.ms);
    rows = r.rows;
  }
  results.push({
    query: name,
    rows,
    p50Ms: +percentile(times, 50).toFixed(2),
    p99Ms: +percentile(times, 99).toFixed(2),
  });
}
console.log(`\n${COUNT.toLocaleString('en')} submissions, ${REQUESTS} requests each, one at a time:`);
console.table(results);
await mf.dispose();
rmSync(work, { recursive: true, force: true });
