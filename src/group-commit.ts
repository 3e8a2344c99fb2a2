// Issue 4: group commit. Submissions that arrive in one isolate while a write is in flight join the
// next D1 batch, so N concurrent submissions cost about one round trip instead of N. Each request
// still waits for the batch that holds its row; a failed batch fails every request in it, and D1's
// batch is a transaction, so nothing of it is stored.

export type Limits = { rows: number; bytes: number };

type Waiter<Row> = { row: Row; bytes: number; taken: boolean; done: PromiseWithResolvers<void> };

export class GroupCommit<Row> {
  readonly #write: (rows: Row[]) => Promise<void>;
  readonly #size: (row: Row) => number;
  readonly #limits: Limits;
  #queue: Waiter<Row>[] = [];
  #inFlight: Promise<void> | undefined;

  constructor(write: (rows: Row[]) => Promise<void>, size: (row: Row) => number, limits: Limits) {
    this.#write = write;
    this.#size = size;
    this.#limits = limits;
  }

  /**
   * Resolves once the row is stored. `keepAlive` receives each batch this request leads, so that a
   * client hanging up cannot cancel a write that other requests wait on (ctx.waitUntil).
   */
  async add(row: Row, keepAlive: (write: Promise<void>) => void): Promise<void> {
    const waiter: Waiter<Row> = { row, bytes: this.#size(row), taken: false, done: Promise.withResolvers() };
    this.#queue.push(waiter);
    while (!waiter.taken) {
      if (this.#inFlight) {
        // Resumed in this request's own context, which then leads the next batch.
        await this.#inFlight;
        continue;
      }
      this.#inFlight = this.#flush();
      keepAlive(this.#inFlight);
    }
    return waiter.done.promise;
  }

  /** Takes the oldest rows within the limits (always at least one) and writes them as one batch. */
  async #flush(): Promise<void> {
    let rows = 0;
    let bytes = 0;
    const batch: Waiter<Row>[] = [];
    for (const waiter of this.#queue) {
      if (batch.length > 0 && (rows + 1 > this.#limits.rows || bytes + waiter.bytes > this.#limits.bytes))
        break;
      batch.push(waiter);
      waiter.taken = true;
      rows += 1;
      bytes += waiter.bytes;
    }
    this.#queue = this.#queue.slice(batch.length);
    try {
      await this.#write(batch.map((w) => w.row));
      for (const w of batch) w.done.resolve();
    } catch (err) {
      for (const w of batch) w.done.reject(err);
    } finally {
      this.#inFlight = undefined;
    }
  }
}
