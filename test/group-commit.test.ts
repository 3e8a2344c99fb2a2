// Group commit (C17, C18, C31), as a unit: a fake write that records its batches.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GroupCommit, writeSplitting } from '../src/lib/group-commit.ts';

function recorder(
  fail: (batch: number[]) => boolean = () => false,
  skip: (row: number) => boolean = () => false,
) {
  const batches: number[][] = [];
  const write = async (rows: number[]) => {
    batches.push(rows);
    await scheduler.wait(5); // a round trip
    if (fail(rows)) throw new Error('batch failed');
    return rows.map((r) => !skip(r));
  };
  return { batches, write };
}

const keepAlive = () => {};
const size = () => 1;

describe('GroupCommit', () => {
  it('K concurrent rows are written in fewer than K batches, each row once, in arrival order', async () => {
    const { batches, write } = recorder();
    const commit = new GroupCommit(write, size, { rows: 100, bytes: 1e6 });
    const rows = [...Array(20).keys()];
    await Promise.all(rows.map((r) => commit.add(r, keepAlive)));
    // The first row goes at once; the 19 that arrive during its write go together.
    expect(batches).toEqual([[0], rows.slice(1)]);
  });

  it('a lone row is written at once, with no waiting for company', async () => {
    const { batches, write } = recorder();
    const commit = new GroupCommit(write, size, { rows: 100, bytes: 1e6 });
    await commit.add(7, keepAlive);
    await commit.add(8, keepAlive);
    expect(batches).toEqual([[7], [8]]);
  });

  it('a failed batch rejects every row in it and no other', async () => {
    const { batches, write } = recorder((rows) => rows.includes(3));
    const commit = new GroupCommit(write, size, { rows: 100, bytes: 1e6 });
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map((r) => commit.add(r, keepAlive)));
    expect(batches).toEqual([[0], [1, 2, 3, 4]]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
    ]);
    // The committer recovers: the next row is written normally.
    await commit.add(5, keepAlive);
    expect(batches.at(-1)).toEqual([5]);
  });

  it('tells each row whether the writer stored it or skipped it (C20: a used Idempotency-Key)', async () => {
    const { write } = recorder(undefined, (r) => r % 2 === 1);
    const commit = new GroupCommit(write, size, { rows: 100, bytes: 1e6 });
    const results = await Promise.all([0, 1, 2, 3, 4].map((r) => commit.add(r, keepAlive)));
    expect(results).toEqual([true, false, true, false, true]);
  });

  it('batches respect the row limit', async () => {
    const { batches, write } = recorder();
    const commit = new GroupCommit(write, size, { rows: 5, bytes: 1e6 });
    await Promise.all([...Array(13).keys()].map((r) => commit.add(r, keepAlive)));
    expect(batches.map((b) => b.length)).toEqual([1, 5, 5, 2]);
    expect(batches.flat()).toEqual([...Array(13).keys()]);
  });

  it('batches respect the byte limit, but a single large row still goes', async () => {
    const { batches, write } = recorder();
    const commit = new GroupCommit(write, (r: number) => r, { rows: 100, bytes: 10 });
    await Promise.all([1, 4, 4, 4, 50, 2].map((r) => commit.add(r, keepAlive)));
    expect(batches).toEqual([[1], [4, 4], [4], [50], [2]]);
  });

  it('hands every batch it leads to keepAlive (ctx.waitUntil)', async () => {
    const { write } = recorder();
    const commit = new GroupCommit(write, size, { rows: 100, bytes: 1e6 });
    const kept: Promise<void>[] = [];
    await Promise.all([1, 2, 3].map((r) => commit.add(r, (p) => kept.push(p))));
    expect(kept).toHaveLength(2);
  });

  it('a waiting row is woken as soon as its batch is written, not by its backstop timer', async () => {
    const { batches, write } = recorder();
    // A ten-minute backstop: only the wake-up can finish these within the test's time limit.
    const commit = new GroupCommit(
      write,
      size,
      { rows: 100, bytes: 1e6 },
      { gatherMs: 2, backstopMs: 600_000 },
    );
    await Promise.all([...Array(10).keys()].map((r) => commit.add(r, keepAlive)));
    expect(batches).toEqual([[0], [1, 2, 3, 4, 5, 6, 7, 8, 9]]);
  });

  it('the end of a write wakes the rows still queued too, and the oldest leads the next batch', async () => {
    const { batches, write } = recorder();
    // Row limit 5 and a ten-minute backstop: rows left over from a batch go on only if woken.
    const commit = new GroupCommit(
      write,
      size,
      { rows: 5, bytes: 1e6 },
      { gatherMs: 2, backstopMs: 600_000 },
    );
    await Promise.all([...Array(13).keys()].map((r) => commit.add(r, keepAlive)));
    expect(batches).toEqual([[0], [1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12]]);
  });

  it('under load, a batch waits for as many rows as the last one saw in flight', async () => {
    const { batches, write } = recorder();
    const commit = new GroupCommit(
      write,
      size,
      { rows: 100, bytes: 1e6 },
      { gatherMs: 600_000, backstopMs: 600_000 },
    );
    // 0 goes alone; 1–3 arrive during its write: four rows were in flight at once.
    const first = [0, 1, 2, 3].map((r) => commit.add(r, keepAlive));
    await scheduler.wait(30);
    // The batch of 1–3 is still gathering (expecting four), and takes 4 when it comes.
    expect(batches).toEqual([[0]]);
    await Promise.all([...first, commit.add(4, keepAlive)]);
    expect(batches).toEqual([[0], [1, 2, 3, 4]]);
  });

  it('a gathering batch goes without the rows it expected once gatherMs has passed', async () => {
    const { batches, write } = recorder();
    const commit = new GroupCommit(
      write,
      size,
      { rows: 100, bytes: 1e6 },
      { gatherMs: 10, backstopMs: 600_000 },
    );
    await Promise.all([0, 1, 2, 3].map((r) => commit.add(r, keepAlive)));
    expect(batches).toEqual([[0], [1, 2, 3]]);
  });

  it('C31: a batch that fails for one row is split: the other rows are stored, the bad row alone fails', async () => {
    // A write fails whenever the batch holds row 3, as D1 fails a batch with one bad row.
    const { batches, write } = recorder((rows) => rows.includes(3));
    const commit = new GroupCommit(write, size, { rows: 100, bytes: 1e6 }, { split: () => true });
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((r) => commit.add(r, keepAlive)));
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    // [1..5] failed, then its halves [1,2,3] and [4,5], then [1,2] and [3].
    expect(batches).toEqual([[0], [1, 2, 3, 4, 5], [1, 2, 3], [1, 2], [3], [4, 5]]);
  });

  it('C18: an outage (split says no) fails the batch once, without splitting', async () => {
    const { batches, write } = recorder(() => true);
    const commit = new GroupCommit(write, size, { rows: 100, bytes: 1e6 }, { split: () => false });
    const results = await Promise.allSettled([0, 1, 2, 3].map((r) => commit.add(r, keepAlive)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(batches).toEqual([[0], [1, 2, 3]]);
  });

  it('C18: the rows of a write presumed lost fail with the error the owner chose', async () => {
    const lostError = new Error('lost: answer 503');
    let calls = 0;
    // The second write never ends (its request was cancelled); the others do.
    const write = (rows: number[]) =>
      ++calls === 2 ? new Promise<boolean[]>(() => {}) : Promise.resolve(rows.map(() => true));
    const commit = new GroupCommit(
      write,
      size,
      { rows: 100, bytes: 1e6 },
      { lostWriteMs: 20, backstopMs: 5, lost: () => lostError },
    );
    // 0 is written alone; 1 and 2 arrive meanwhile and share the write that never ends, led by 1.
    const rows = [0, 1, 2].map((r) => commit.add(r, keepAlive));
    await expect(rows[0]).resolves.toBe(true);
    // 2 waits for that write, and fails with the owner's error once it is presumed lost.
    await expect(rows[2]).rejects.toBe(lostError);
    await expect(commit.add(3, keepAlive)).resolves.toBe(true);
  });

  it('C31 (property): any mix of good and bad rows: each good row stored exactly once, each bad row refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), async (bad) => {
        const stored: number[] = [];
        // All or none, as D1's batch: one bad row fails the write, and nothing of it is kept.
        const write = async (rows: number[]) => {
          if (rows.some((r) => bad[r])) throw new Error('constraint');
          stored.push(...rows);
          return rows.map(() => true);
        };
        const rows = bad.map((_, i) => i);
        const outcomes = await writeSplitting(write, rows, () => true);
        expect(outcomes.map((o) => o === 'stored')).toEqual(bad.map((b) => !b));
        expect(outcomes.filter((o) => typeof o === 'object')).toHaveLength(bad.filter(Boolean).length);
        expect([...stored].sort((a, b) => a - b)).toEqual(rows.filter((r) => !bad[r]));
      }),
      { numRuns: 300 },
    );
  });
});
