// The one hot-path write (C17, C20): rows with and without Idempotency-Keys, in one statement
// or in a batch of several, all or none, each said to be stored or skipped.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/lib/ids.ts';
import { database } from '../src/store/db.ts';
import { insertSubmissions, type NewSubmission } from '../src/store/submissions.ts';
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
    expect(await insertSubmissions(db, [row(p.projectId, 0, 'used')])).toEqual([true]);
    // 40 rows: three statements; the keyed ones spread over them, one key already used.
    const rows = Array.from({ length: 40 }, (_, i) =>
      row(p.projectId, i + 1, i % 7 === 0 ? (i === 14 ? 'used' : `key ${i}`) : undefined),
    );
    const stored = await insertSubmissions(db, rows);
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
    expect(await insertSubmissions(database(env.DB), rows)).toEqual([true, true, true]);
    const inD1 = await storedRows(p.projectId);
    expect(inD1.map((r) => r.spam).sort()).toEqual([false, false, true]);
  });
});
