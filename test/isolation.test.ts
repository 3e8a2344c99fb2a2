// C31: no project's bad row fails another project's submissions. A batch that D1 refuses because
// of one of its rows is split until that row is alone; an outage still fails the batch (C18).
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { commitRow, lostWrite } from '../src/accept/commit.ts';
import { StorageError } from '../src/lib/faults.ts';
import { writeSplitting } from '../src/lib/group-commit.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { hashKey } from '../src/projects/keys.ts';
import { database } from '../src/store/db.ts';
import { insertSubmissions, MAX_STORED_BYTES, type NewSubmission } from '../src/store/intake.ts';
import { deleteProject } from '../src/store/projects.ts';
import { rowFault } from '../src/store/refusals.ts';
import { isWrite, spyD1 } from './d1-spy.ts';
import {
  expectEnvelope,
  seedProject,
  storedData,
  storedRows,
  submit,
  submitWithEnv,
  VALID_BODY,
} from './helpers.ts';

const row = (projectId: string, i: number): NewSubmission => ({
  id: uuidv7(),
  projectId,
  data: JSON.stringify({ name: `row ${i}` }),
  receivedAt: new Date().toISOString(),
});

describe("C31: one project's bad row", () => {
  it('C31: a deleted project whose key is still cached fails only its own requests (30 × 201 for the other)', async () => {
    const a = await seedProject({ name: 'A' });
    const b = await seedProject({ name: 'B' });
    // B's key is cached, then B is deleted: its rows now break the foreign key.
    await expectEnvelope(await submit({ key: b.apiKey, json: VALID_BODY }), 201);
    await deleteProject(database(env.DB), b.projectId);
    const outcomes = { a: [] as number[], b: [] as number[] };
    for (let round = 0; round < 3; round++) {
      // Ten of each at once, interleaved, so that they share group-commit batches.
      const sent = Array.from({ length: 20 }, (_, i) => {
        const who = i % 2 === 0 ? 'a' : 'b';
        const key = who === 'a' ? a.apiKey : b.apiKey;
        return submit({ key, json: { ...VALID_BODY, message: `${round}-${i}` } }).then(async (res) => {
          outcomes[who].push(res.status);
          if (who === 'b') {
            await expectEnvelope(res, 401, {
              message: 'Authentication failed',
              error: { message: 'Invalid API key' },
            });
          }
        });
      });
      await Promise.all(sent);
    }
    expect(outcomes.a).toEqual(Array(30).fill(201));
    expect(outcomes.b).toEqual(Array(30).fill(401));
    expect(await storedRows(a.projectId)).toHaveLength(30);
    expect(await storedRows(b.projectId)).toEqual([]);
  });

  it('C31: once D1 has said the project is gone, its key answers 401 from the cache, with no D1 query', async () => {
    const b = await seedProject();
    const spy = spyD1(env.DB);
    const spied = { ...env, DB: spy.db };
    await expectEnvelope(await submitWithEnv(spied, { key: b.apiKey, json: VALID_BODY }), 201);
    await deleteProject(database(env.DB), b.projectId);
    // Still cached: the write is refused by the foreign key, and the key is forgotten.
    await expectEnvelope(await submitWithEnv(spied, { key: b.apiKey, json: VALID_BODY }), 401);
    const before = spy.trips.length;
    expect(spy.trips.filter(isWrite)).toHaveLength(2);
    await expectEnvelope(await submitWithEnv(spied, { key: b.apiKey, json: VALID_BODY }), 401);
    expect(spy.trips.length).toBe(before);
  });

  it("C18: D1 names a broken foreign key as the row's fault, an outage as no row's", async () => {
    const p = await seedProject();
    const error = await insertSubmissions(env.DB, [row('p_nonexistent', 0)]).catch((e: unknown) => e);
    expect(rowFault(error)).toBe('project-gone');
    expect(rowFault(new Error('D1_ERROR: Network connection lost.'))).toBeUndefined();
    expect(rowFault(new Error('D1 DB is overloaded. Too many requests queued.'))).toBeUndefined();
    expect(rowFault(new Error('D1_ERROR: string or blob too big: SQLITE_TOOBIG'))).toBe('too-large');
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C31 (property): random mixes of good and poison rows in one batch store every good row exactly once and refuse every poison row', async () => {
    const p = await seedProject();
    const db = database(env.DB);
    const write = (rows: NewSubmission[]) => insertSubmissions(db.$client, rows);
    const split = (e: unknown) => rowFault(e) !== undefined;
    const expected: string[] = [];
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }), async (poison) => {
        const rows = poison.map((bad) => row(bad ? 'p_deleted' : p.projectId, n++));
        const outcomes = await writeSplitting(write, rows, split);
        outcomes.forEach((outcome, i) => {
          if (poison[i]) {
            expect(typeof outcome).toBe('object');
            expect(rowFault((outcome as { failed: unknown }).failed)).toBe('project-gone');
          } else {
            expect(outcome).toBe('stored');
          }
        });
        expected.push(...rows.filter((_, i) => !poison[i]).map((r) => r.id));
        const stored = (await storedRows(p.projectId)).map((r) => r.id);
        expect(stored).toEqual([...expected].sort());
      }),
      { numRuns: 60 },
    );
  });

  it('C18: an outage still fails the whole batch: 503 for every request, nothing stored, no split', async () => {
    const p = await seedProject();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const spy = spyD1(env.DB, isWrite);
    const failing = { ...env, DB: spy.db };
    const all = await Promise.all(
      Array.from({ length: 8 }, () => submitWithEnv(failing, { key: p.apiKey, json: VALID_BODY })),
    );
    for (const res of all) await expectEnvelope(res, 503);
    // One write per batch: the first alone, the seven that came meanwhile together; no halves.
    expect(spy.trips.filter(isWrite).length).toBeLessThanOrEqual(2);
    expect(await storedRows(p.projectId)).toEqual([]);
    vi.restoreAllMocks();
  });

  it('C10 + C18: a row over what D1 can hold is 413 for its own request, before any write', async () => {
    const p = await seedProject();
    const big = {
      ...row(p.projectId, 0),
      data: JSON.stringify({ message: 'é'.repeat(MAX_STORED_BYTES / 2) }),
    };
    // Under a million UTF-16 units, over a million UTF-8 bytes: the bytes count.
    expect(big.data.length).toBeLessThan(MAX_STORED_BYTES + 20);
    const error = await commitRow(env.DB, big, await hashKey(p.apiKey), () => {}).catch((e) => e);
    expect(error).toMatchObject({ status: 413 });
    expect(await storedData(p.projectId)).toEqual([]);
  });

  it('C18: the rows of a write presumed lost fail as a storage failure (answered 503 with Retry-After, as D1 faults are)', () => {
    // The group commit fails such rows with the error its owner gives (test/group-commit.test.ts).
    expect(lostWrite()).toBeInstanceOf(StorageError);
  });
});
