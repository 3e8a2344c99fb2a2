// C34: full-text search over the values. What a search finds is exactly what a plain reference
// filter finds (property-based), once the queue consumer has indexed the submissions; and the
// index keeps in step with deletion, erasure, retention and the project's deletion.
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scheduled } from '../../src/cron.ts';
import { uuidv7 } from '../../src/lib/ids.ts';
import { wordsOf } from '../../src/lib/words.ts';
import { insertSubmissions } from '../../src/store/intake.ts';
import { submit } from '../helpers.ts';
import { consumeOutbox } from '../queue.ts';
import { api, newProject, ok } from './helpers.ts';

const found = async (projectId: string, q: string) =>
  (
    await ok<{ submissions: { id: string }[] }>(
      await api(
        'GET',
        `/projects/${projectId}/submissions?limit=500&spam=include&q=${encodeURIComponent(q)}`,
      ),
    )
  ).submissions
    .map((s) => s.id)
    .sort();

const termsCount = async (projectId: string) =>
  (
    await env.DB.prepare('select count(*) as n from search_terms where project_id = ?')
      .bind(projectId)
      .first<{ n: number }>()
  )?.n;

// Words with case, diacritics and shared beginnings, so that prefixes and normalisation matter.
const WORD = fc.constantFrom(
  'Zoë',
  'zoe',
  'Ada',
  'adam',
  'café',
  'CAFE',
  'cab',
  'naïve',
  'quote',
  'q',
  'Ünïcode',
  'lovelace',
  '42',
  '4200',
  'x-ray',
);
const VALUE = fc.oneof(
  fc.array(WORD, { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
  fc.integer({ min: 0, max: 5000 }),
);

/** The reference: every word of the query begins some word of some value. */
function matches(data: Record<string, unknown>, q: string): boolean {
  const words = wordsOf(Object.values(data).map(String).join('\n'));
  return wordsOf(q, 8).every((term) => words.some((w) => w.startsWith(term)));
}

describe('C34: search', () => {
  it('C34 (property): a search finds exactly the submissions whose words begin with each word of the query', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ note: VALUE, email: VALUE }), { minLength: 1, maxLength: 12 }),
        fc.array(WORD, { minLength: 1, maxLength: 3 }),
        async (rows, query) => {
          const p = await newProject([
            { name: 'note', type: 'string' },
            { name: 'email', type: 'string' },
          ]);
          const made = rows.map((data, i) => ({
            id: uuidv7(Date.now() + i),
            projectId: p.projectId,
            data: JSON.stringify(data),
            receivedAt: new Date().toISOString(),
          }));
          await insertSubmissions(env.DB, made);
          await consumeOutbox(made.map((r) => r.id));
          // Each word alone, a query's prefix, and the words together.
          for (const q of [...query, query.join(' '), (query[0] ?? '').slice(0, 2)]) {
            const expected = made
              .filter((r) => matches(JSON.parse(r.data), q))
              .map((r) => r.id)
              .sort();
            const all = made.map((r) => r.id).sort();
            expect(await found(p.projectId, q)).toEqual(wordsOf(q).length === 0 ? all : expected);
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('C34: a submission is found within its queue message, stored and indexed after its 201', async () => {
    const p = await newProject();
    expect(
      (await submit({ key: p.apiKey, json: { email: 'grace@example.com', message: 'Compilers, please' } }))
        .status,
    ).toBe(201);
    const [id] = (
      await ok<{ submissions: { id: string }[] }>(await api('GET', `/projects/${p.projectId}/submissions`))
    ).submissions.map((s) => s.id);
    expect(await found(p.projectId, 'compil')).toEqual([]);
    await consumeOutbox([id ?? '']);
    expect(await found(p.projectId, 'compil')).toEqual([id]);
    expect(await found(p.projectId, 'GRACE example')).toEqual([id]);
    expect(await found(p.projectId, 'grace nothing')).toEqual([]);
  });

  it('C34: the minute’s sweep indexes what no message brought (a lost message, rows stored before search), hundreds at a time', async () => {
    const p = await newProject();
    const at = Date.now() - 10 * 60_000;
    const rows = Array.from({ length: 250 }, (_, i) => ({
      id: uuidv7(at + i),
      projectId: p.projectId,
      data: JSON.stringify({ message: i === 0 ? 'sweeping' : `row ${i}` }),
      receivedAt: new Date(at + i).toISOString(),
    }));
    await insertSubmissions(env.DB, rows);
    expect(await found(p.projectId, 'sweep')).toEqual([]);
    await scheduled({ cron: '* * * * *', scheduledTime: Date.now() } as ScheduledController, env);
    expect(await found(p.projectId, 'sweep')).toEqual([rows[0]?.id]);
    expect(await found(p.projectId, 'row')).toHaveLength(249);
  });

  it('C34: the index keeps in step: deletion, erasure, the project’s deletion leave no term behind', async () => {
    const p = await newProject();
    const rows = ['alpha@example.com', 'beta@example.com', 'gamma@example.com'].map((email, i) => ({
      id: uuidv7(Date.now() + i),
      projectId: p.projectId,
      data: JSON.stringify({ email }),
      receivedAt: new Date().toISOString(),
    }));
    await insertSubmissions(env.DB, rows);
    await consumeOutbox(rows.map((r) => r.id));
    const before = (await termsCount(p.projectId)) ?? 0;
    expect(before).toBeGreaterThan(0);
    await ok(await api('DELETE', `/projects/${p.projectId}/submissions/${rows[0]?.id}`));
    expect(await found(p.projectId, 'alpha')).toEqual([]);
    await ok(
      await api('POST', `/projects/${p.projectId}/submissions/erase`, {
        body: { field: 'email', value: 'beta@example.com' },
      }),
    );
    expect(await found(p.projectId, 'beta')).toEqual([]);
    expect(await termsCount(p.projectId)).toBeLessThan(before);
    const rebuilt = await ok<{ marked: number; indexed: number }>(
      await api('POST', `/projects/${p.projectId}/search/rebuild`),
    );
    expect(rebuilt).toMatchObject({ marked: 1, indexed: 1 });
    expect(await found(p.projectId, 'gamma')).toEqual([rows[2]?.id]);
    await ok(await api('DELETE', `/projects/${p.projectId}`));
    expect(await termsCount(p.projectId)).toBe(0);
  });

  it('C25 + C34: retention takes a submission’s terms with it', async () => {
    const p = await newProject();
    await ok(await api('PATCH', `/projects/${p.projectId}`, { body: { retentionDays: 1 } }));
    const old = Date.now() - 3 * 86_400_000;
    const id = uuidv7(old);
    await insertSubmissions(env.DB, [
      { id, projectId: p.projectId, data: '{"message":"ancient"}', receivedAt: new Date(old).toISOString() },
    ]);
    await consumeOutbox([id]);
    expect(await found(p.projectId, 'ancient')).toEqual([id]);
    await scheduled({ cron: '7 * * * *', scheduledTime: Date.now() } as ScheduledController, env);
    expect(await found(p.projectId, 'ancient')).toEqual([]);
    expect(await termsCount(p.projectId)).toBe(0);
  });
});
