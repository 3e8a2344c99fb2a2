// The one hot-path write (C17, C20): rows with and without Idempotency-Keys, in one statement
// or in a batch of several, all or none, each said to be stored or skipped.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/lib/ids.ts';
import { database } from '../src/store/db.ts';
import { insertSubmissions, type NewSubmission } from '../src/store/intake.ts';
import { DELETE_CHUNK, deleteReceivedBefore, eraseSubmissions } from '../src/store/submissions.ts';
import { seedProject, storedRows } from './helpers.ts';

const row = (projectId: string, i: number, idempotencyKey?: string): NewSubmission => ({
  id: uuidv7(),
  projectId,
  data: JSON.stringify({ name: `row ${i}` }),
  receivedAt: new Date().toISOString(),
  spam: i % 3 === 0,
  ...(idempotencyKey === undefined ? {} : { idempotencyKey, bodyHash: `hash ${i}` }),
});

describe('insertSubmissions', () => {
  it('C20: in one batch of several statements, rows without keys are stored, and of keyed rows those whose key is new', async () => {
    const p = await seedProject();
    const db = database(env.DB);
    expect(await insertSubmissions(db.$client, [row(p.projectId, 0, 'used')])).toEqual([true]);
    // 40 rows: three statements; the keyed ones spread over them, one key already used.
    const rows = Array.from({ length: 40 }, (_, i) =>
      row(p.projectId, i + 1, i % 7 === 0 ? (i === 14 ? 'used' : `key ${i}`) : undefined),
    );
    const stored = await insertSubmissions(db.$client, rows);
    expect(stored).toEqual(rows.map((r) => r.idempotencyKey !== 'used'));
    const inD1 = await storedRows(p.projectId);
    expect(inD1).toHaveLength(40);
    const byId = new Map(inD1.map((r) => [r.id, r]));
    for (const r of rows.filter((r) => r.idempotencyKey !== 'used')) {
      expect(byId.get(r.id)).toMatchObject({
        data: r.data,
        spam: r.spam,
        idempotencyKey: r.idempotencyKey ?? null,
      });
    }
  });

  it('a statement of rows without keys stores every one, spam as given and false when left out', async () => {
    const p = await seedProject();
    const { spam: _, ...leftOut } = row(p.projectId, 2);
    const rows = [row(p.projectId, 0), row(p.projectId, 1), leftOut];
    expect(await insertSubmissions(env.DB, rows)).toEqual([true, true, true]);
    const inD1 = await storedRows(p.projectId);
    expect(inD1.map((r) => r.spam).sort()).toEqual([false, false, true]);
  });
});

describe('C25: deletion in chunks', () => {
  it('C25: erasure takes every matching row, chunk after chunk; retention stops after its chunks, and the next run goes on', async () => {
    const p = await seedProject();
    const other = await seedProject();
    const db = database(env.DB);
    const old = new Date(Date.now() - 86_400_000).toISOString();
    const many = (projectId: string, n: number, data: object) =>
      Array.from({ length: n }, () => ({
        id: uuidv7(),
        projectId,
        data: JSON.stringify(data),
        receivedAt: old,
      }));
    const chunk = DELETE_CHUNK;
    await insertSubmissions(db.$client, many(p.projectId, chunk * 2 + 3, { email: 'erase@example.com' }));
    await insertSubmissions(db.$client, many(p.projectId, 4, { email: 'keep@example.com' }));
    await insertSubmissions(db.$client, many(other.projectId, 5, { email: 'erase@example.com' }));
    expect((await eraseSubmissions(db, p.projectId, 'email', 'erase@example.com')).submissions).toBe(
      chunk * 2 + 3,
    );
    expect(await storedRows(p.projectId)).toHaveLength(4);
    expect(await storedRows(other.projectId)).toHaveLength(5);

    await insertSubmissions(db.$client, many(p.projectId, chunk * 2, { email: 'old@example.com' }));
    const now = new Date().toISOString();
    // At most one chunk per call here: the rest is left for the next.
    expect(await deleteReceivedBefore(db, p.projectId, now, 1)).toBe(chunk);
    expect(await deleteReceivedBefore(db, p.projectId, now, 5)).toBe(chunk + 4);
    expect(await storedRows(p.projectId)).toEqual([]);
    expect(await storedRows(other.projectId)).toHaveLength(5);
  });
});
