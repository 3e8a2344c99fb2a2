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
import { sql } from 'drizzle-orm';
import { openDatabase } from '../scripts/database.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { indexSubmissions, pendingOf } from '../src/store/search.ts';
import { buildBundle, seed, start } from './harness.ts';

const COUNT = Number(process.env.BENCH_ROWS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const TOKEN = randomBytes(32).toString('base64url');

const work = mkdtempSync(join(tmpdir(), 'forms-bench-inbox-'));
const outdir = join(work, 'dist');
const state = join(work, 'state');

await buildBundle(outdir);
const { projectId } = await seed(state);

// A vocabulary of 2,000 made-up words; each message takes 8 of them, so a word is in about 0.4%
// of the submissions. `zephyr` is in exactly 1%; `quokka` in 0.01%.
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'ti',
  'vo',
  'be',
  'da',
  'fi',
  'go',
  'hu',
  'jo',
  'pe',
  'xi',
];
const WORDS = Array.from({ length: 2000 }, (_, i) =>
  [i % 16, (i >> 4) % 16, (i >> 8) % 16].map((s) => SYLLABLES[s]).join(''),
);
let seedState = 42;
const random = () => {
  seedState = (seedState * 1_103_515_245 + 12_345) % 2 ** 31;
  return seedState / 2 ** 31;
};
const pick = () => WORDS[Math.floor(random() * WORDS.length)];

console.log(`Seeding ${COUNT.toLocaleString('en')} submissions and their search terms…`);
const seeded = await openDatabase({ remote: false, persistTo: state });
const started = Date.now() - COUNT * 1000;
const CHUNK = 2000;
for (let i = 0; i < COUNT; i += CHUNK) {
  const rows = Array.from({ length: Math.min(CHUNK, COUNT - i) }, (_, j) => {
    const n = i + j;
    const at = started + n * 1000;
    const words = Array.from({ length: 8 }, pick);
    if (n % 100 === 50) words.push('zephyr');
    if (n % 10_000 === 7) words.push('quokka');
    const data = { name: `${pick()} ${pick()}`, email: `user${n}@example.com`, message: words.join(' ') };
    return [
      uuidv7(at),
      JSON.stringify(data),
      new Date(at).toISOString(),
      n % 2 === 0 ? new Date(at).toISOString() : null,
    ];
  });
  await seeded.db.run(sql`
    insert into submissions (id, project_id, data, received_at, spam, starred, search_pending, read_at)
    select value ->> 0, ${projectId}, value ->> 1, value ->> 2, 0, 0, 1, value ->> 3 from json_each(${JSON.stringify(rows)})`);
}
for (;;) {
  const ids = await pendingOf(seeded.db, projectId, 1000);
  if (ids.length === 0) break;
  await indexSubmissions(seeded.db, ids);
}
const terms = await seeded.db.get<{ n: number }>(sql`select count(*) as n from search_terms`);
await seeded.close();
console.log(`${terms?.n.toLocaleString('en')} search terms.`);

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
