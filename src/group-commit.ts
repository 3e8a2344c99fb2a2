// Issue 4: group commit. Submissions that arrive in one isolate while a write is in flight join the
// next D1 batch, so N concurrent submissions cost about one round trip instead of N. Each request
// still waits for the batch that holds its row; a failed batch fails every request in it, and D1's
// batch is a transaction, so nothing of it is stored.
//
// Requests coordinate through plain shared state, never through each other's promises: in Workers a
// promise belongs to the request that made it, and one request awaiting (or resolving) another's
// promise hangs or fails when that request ends first. So every request waits on its own timer and
// reads the state of its row, and whoever finds no write in flight leads the next batch, doing the
// I/O in its own context.

export type Limits = { rows: number; bytes: number };

type Waiter<Row> = {
  row: Row;
  bytes: number;
  state: 'queued' | 'writing' | 'stored' | 'skipped' | { failed: unknown };
};

/** A write older than this is presumed lost with its request: its rows fail and a new one may start. */
const LOST_WRITE_MS = 30_000;

export class GroupCommit<Row> {
  readonly #write: (rows: Row[]) => Promise<boolean[]>;
  readonly #size: (row: Row) => number;
  readonly #limits: Limits;
  #queue: Waiter<Row>[] = [];
  #writing: { since: number; batch: Waiter<Row>[] } | undefined;
  #lastBatchRows = 0;

  /** `write` stores the rows all or none, and says row by row whether each was stored or skipped. */
  constructor(write: (rows: Row[]) => Promise<boolean[]>, size: (row: Row) => number, limits: Limits) {
    this.#write = write;
    this.#size = size;
    this.#limits = limits;
  }

  /**
   * Resolves once the row's batch is acknowledged (true: stored; false: skipped by the writer, an
   * Idempotency-Key already used), rejects if its batch failed. `keepAlive` receives each write
   * this request leads, so that a client hanging up cannot cancel it (ctx.waitUntil).
   */
  async add(row: Row, keepAlive: (write: Promise<void>) => void): Promise<boolean> {
    const waiter: Waiter<Row> = { row, bytes: this.#size(row), state: 'queued' };
    this.#queue.push(waiter);
    for (let polls = 0; ; polls++) {
      if (waiter.state === 'stored') return true;
      if (waiter.state === 'skipped') return false;
      if (typeof waiter.state === 'object') throw waiter.state.failed;
      this.#expireLostWrite();
      if (this.#writing === undefined) {
        const write = this.#lead();
        keepAlive(write);
        await write;
      } else {
        // 1 ms at first, then up to 4 ms: a D1 round trip is several milliseconds at best.
        await scheduler.wait(Math.min(4, 1 + (polls >> 3)));
      }
    }
  }

  /** Takes the oldest rows within the limits (always at least one) and writes them as one batch. */
  async #lead(): Promise<void> {
    const writing = { since: Date.now(), batch: [] as Waiter<Row>[] };
    this.#writing = writing;
    // Under load (the last batch had company), give the requests still on their way a millisecond
    // to join: fewer, larger batches (bench/RESULTS.md: 0.148 of the floor at c=10 with a bare
    // tick, 0.181 with 1 ms, 0.169 with 2 ms). A lone submission is written at once.
    if (this.#lastBatchRows > 1) await scheduler.wait(1);
    let bytes = 0;
    const batch: Waiter<Row>[] = [];
    for (const waiter of this.#queue) {
      if (
        batch.length > 0 &&
        (batch.length === this.#limits.rows || bytes + waiter.bytes > this.#limits.bytes)
      )
        break;
      batch.push(waiter);
      waiter.state = 'writing';
      bytes += waiter.bytes;
    }
    this.#queue = this.#queue.slice(batch.length);
    writing.batch = batch;
    this.#lastBatchRows = batch.length;
    let outcome: (i: number) => Waiter<Row>['state'];
    try {
      const stored = await this.#write(batch.map((w) => w.row));
      outcome = (i) => (stored[i] === false ? 'skipped' : 'stored');
    } catch (failed) {
      outcome = () => ({ failed });
    }
    if (this.#writing === writing) {
      batch.forEach((w, i) => {
        w.state = outcome(i);
      });
      this.#writing = undefined;
    }
  }

  #expireLostWrite(): void {
    const writing = this.#writing;
    if (writing && Date.now() - writing.since > LOST_WRITE_MS) {
      const failed = new Error('group commit: the write was lost with the request that led it');
      for (const w of writing.batch) w.state = { failed };
      this.#writing = undefined;
    }
  }
}
