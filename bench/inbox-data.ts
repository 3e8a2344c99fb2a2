// The inbox the benchmarks read: `count` submissions of one project, one a second up to now, with
// three values each (8 words of a made-up 2,000-word vocabulary in the message; `zephyr` in 1% of
// them, `quokka` in 0.01%), half of them read, indexed for search as the queue would.
import { sql } from 'drizzle-orm';
import { uuidv7 } from '../src/lib/ids.ts';
import type { Db } from '../src/store/db.ts';
import { indexSubmissions, pendingOf } from '../src/store/search.ts';

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

/** Fills the project; returns how many search terms it has. */
export async function seedInbox(db: Db, projectId: string, count: number): Promise<number> {
  let state = 42;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const pick = () => WORDS[Math.floor(random() * WORDS.length)];
  const started = Date.now() - count * 1000;
  const CHUNK = 2000;
  for (let i = 0; i < count; i += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, count - i) }, (_, j) => {
      const n = i + j;
      const at = started + n * 1000;
      const words = Array.from({ length: 8 }, pick);
      if (n % 100 === 50) words.push('zephyr');
      if (n % 10_000 === 7) words.push('quokka');
      const data = { name: `${pick()} ${pick()}`, email: `user${n}@example.com`, message: words.join(' ') };
      const read = n % 2 === 0 ? new Date(at).toISOString() : null;
      return [uuidv7(at), JSON.stringify(data), new Date(at).toISOString(), read];
    });
    await db.run(sql`
      insert into submissions (id, project_id, data, received_at, spam, starred, search_pending, read_at)
      select value ->> 0, ${projectId}, value ->> 1, value ->> 2, 0, 0, 1, value ->> 3 from json_each(${JSON.stringify(rows)})`);
  }
  for (;;) {
    const ids = await pendingOf(db, projectId, 1000);
    if (ids.length === 0) break;
    await indexSubmissions(db, ids);
  }
  const terms = await db.get<{ n: number }>(
    sql`select count(*) as n from search_terms where project_id = ${projectId}`,
  );
  return terms?.n ?? 0;
}
