// Group commit. Submissions that arrive in one isolate while a write is in flight join the next D1
// batch, so N concurrent submissions cost about one round trip instead of N. Each request still
// waits for the batch that holds its row. D1's batch is a transaction: when it fails, nothing of it
// is stored. A batch that failed because of what one of its rows holds (the writer's `split` says
// so) is split in halves and written again, down to single rows, so that every row gets its own
// outcome and a bad row never fails the rows it shared a write with; a failure of the store
// itself (an outage) fails the batch, once.
//
// Requests coordinate through shared state. Waiting requests sleep on timers of their own
// (`scheduler.wait`), all tied to one AbortSignal, the bell; whoever finishes a write aborts it,
// which wakes the requests of that batch and those queued (the oldest of which leads the next).
// workerd delivers the abort as each sleeper's own I/O, so it resumes in its own context. Resolving
// a promise that another request awaits would not do: workerd runs the continuation in the
// resolver's context, where the woken request's own I/O is then refused ("Cannot perform I/O on
// behalf of a different request"; tried: the worker suite's concurrent tests fail at once). The
// timer backs every sleep up, should the request that was to ring be gone; whoever finds no write
// in flight leads the next batch, doing the I/O in its own context.

export type Limits = { rows: number; bytes: number };

export type Options<Row = unknown> = {
  /** The longest a leader waits for the rows it expects (see #gather). */
  gatherMs: number;
  /** How long a waiter sleeps when nobody wakes it (its waker gone): then it looks for itself. */
  backstopMs: number;
  /** A write older than this is presumed lost with its request: its rows fail, a new one may start. */
  lostWriteMs: number;
  /** Whether a failed batch may owe its failure to one of its rows (then it is split). */
  split: (error: unknown) => boolean;
  /** The error of the rows of a write presumed lost. */
  lost: () => unknown;
  /**
   * Called by the leader once per batch with the rows it stored, after their requests are woken
   * (kept alive with the leader's request, never awaited by them): work that follows a write, done
   * once per batch instead of once per row.
   */
  afterWrite?: (stored: Row[]) => Promise<void>;
};

type Outcome = 'stored' | 'skipped' | { failed: unknown };

type Waiter<Row> = {
  row: Row;
  bytes: number;
  state: 'queued' | 'writing' | Outcome;
};

// bench/RESULTS.md: a 1 ms gather measured worse than 2 ms at c=10, 4 ms no better.
const DEFAULTS: Omit<Options, 'afterWrite'> = {
  gatherMs: 2,
  backstopMs: 50,
  lostWriteMs: 30_000,
  split: () => false,
  lost: () => new Error('group commit: the write was lost with the request that led it'),
};

/**
 * Writes the rows as one batch; if the batch fails and `split` blames its rows, each half again, down
 * to single rows. Returns each row's outcome. A batch of n rows with one bad row costs about
 * 2·log2(n) more writes; every good row is stored exactly once (a failed batch stored nothing).
 */
export async function writeSplitting<Row>(
  write: (rows: Row[]) => Promise<boolean[]>,
  rows: Row[],
  split: (error: unknown) => boolean,
): Promise<Outcome[]> {
  try {
    const stored = await write(rows);
    return rows.map((_, i) => (stored[i] === false ? 'skipped' : 'stored'));
  } catch (failed) {
    if (rows.length === 1 || !split(failed)) return rows.map(() => ({ failed }));
    const half = Math.ceil(rows.length / 2);
    const first = await writeSplitting(write, rows.slice(0, half), split);
    const second = await writeSplitting(write, rows.slice(half), split);
    return [...first, ...second];
  }
}

const WOKEN = Symbol('woken'); // an abort reason that costs no DOMException and its stack

/** Sleeps up to `ms`, or until `signal` is aborted, from any request. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return scheduler.wait(ms, { signal }).catch(() => {});
}

export class GroupCommit<Row> {
  readonly #write: (rows: Row[]) => Promise<boolean[]>;
  readonly #size: (row: Row) => number;
  readonly #limits: Limits;
  readonly #options: Options<Row>;
  #queue: Waiter<Row>[] = [];
  #writing: { since: number; batch: Waiter<Row>[] } | undefined;
  /** The most rows seen queued or being written at once since the last batch began. */
  #seen = 0;
  /** The leader gathering a batch: how many rows it waits for, and its alarm. */
  #gathering: { target: number; alarm: AbortController } | undefined;
  #bell: AbortController | undefined;

  /** `write` stores the rows all or none, and says row by row whether each was stored or skipped. */
  constructor(
    write: (rows: Row[]) => Promise<boolean[]>,
    size: (row: Row) => number,
    limits: Limits,
    options: Partial<Options<Row>> = {},
  ) {
    this.#write = write;
    this.#size = size;
    this.#limits = limits;
    this.#options = { ...DEFAULTS, ...options };
  }

  /**
   * Resolves once the row's batch is acknowledged (true: stored; false: skipped by the writer, an
   * Idempotency-Key already used), rejects if its batch failed. `keepAlive` receives each write
   * this request leads, so that a client hanging up cannot cancel it (ctx.waitUntil). `bytes`: the
   * row's size, when the caller has it already.
   */
  async add(
    row: Row,
    keepAlive: (write: Promise<void>) => void,
    bytes: number = this.#size(row),
  ): Promise<boolean> {
    const waiter: Waiter<Row> = { row, bytes, state: 'queued' };
    this.#queue.push(waiter);
    this.#seen = Math.max(this.#seen, this.#queue.length + (this.#writing?.batch.length ?? 0));
    if (this.#gathering && this.#queue.length >= this.#gathering.target) this.#gathering.alarm.abort(WOKEN);
    for (;;) {
      if (waiter.state === 'stored') return true;
      if (waiter.state === 'skipped') return false;
      if (typeof waiter.state === 'object') throw waiter.state.failed;
      this.#expireLostWrite();
      if (this.#writing === undefined) {
        const write = this.#lead(keepAlive);
        keepAlive(write);
        await write;
      } else {
        await this.#sleep();
      }
    }
  }

  /** Until the waiter is woken (its batch written, or its turn to lead), or the backstop fires. */
  async #sleep(): Promise<void> {
    // One alarm for every sleeper until the next write ends: one abort wakes them all.
    this.#bell ??= new AbortController();
    await sleep(this.#options.backstopMs, this.#bell.signal);
  }

  /** Wakes every sleeper: those of the batch just written, and those queued, one of which leads. */
  #ring(): void {
    const bell = this.#bell;
    this.#bell = undefined;
    bell?.abort(WOKEN);
  }

  /**
   * Waits, up to gatherMs, until as many rows are queued as were seen in the system during the last
   * batch: under a steady load the requests whose rows were just written come back with the next
   * ones, so each batch carries every request then in flight, not those that happened to be early.
   */
  async #gather(target: number): Promise<void> {
    const gathering = { target, alarm: new AbortController() };
    this.#gathering = gathering;
    await sleep(this.#options.gatherMs, gathering.alarm.signal);
    this.#gathering = undefined;
  }

  /** Takes the oldest rows within the limits (always at least one) and writes them as one batch. */
  async #lead(keepAlive: (work: Promise<void>) => void): Promise<void> {
    const writing = { since: Date.now(), batch: [] as Waiter<Row>[] };
    this.#writing = writing;
    // Under load, wait for as many rows as the system held during the last batch: fewer, larger
    // batches (bench/RESULTS.md). A lone submission is written at once.
    const target = Math.min(this.#seen, this.#limits.rows);
    this.#seen = this.#queue.length;
    if (this.#queue.length < target) await this.#gather(target);
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
    const outcomes = await writeSplitting(
      this.#write,
      batch.map((w) => w.row),
      this.#options.split,
    );
    if (this.#writing === writing) {
      batch.forEach((w, i) => {
        w.state = outcomes[i] ?? { failed: this.#options.lost() };
      });
      this.#writing = undefined;
      this.#ring();
      const stored = batch.filter((w) => w.state === 'stored').map((w) => w.row);
      if (this.#options.afterWrite && stored.length > 0)
        keepAlive(this.#options.afterWrite(stored).catch(() => {}));
    }
  }

  #expireLostWrite(): void {
    const writing = this.#writing;
    if (writing && Date.now() - writing.since > this.#options.lostWriteMs) {
      const failed = this.#options.lost();
      for (const w of writing.batch) w.state = { failed };
      this.#ring();
      this.#writing = undefined;
    }
  }
}
