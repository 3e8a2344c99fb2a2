// C41: a request's statements about one project, held to the place they are sent to. A key's
// project and place are cached in the isolate for seconds (C17), and a move may begin, switch or end
// meanwhile; the operator's request read the place a moment ago. So every write of such a request
// goes to D1 in one batch behind a fence row (schema/migrations/0018_project_fence.sql), which
// aborts the batch unless the project lives in this database and is not being moved: no write
// lands in a copy a move is reading or has left. A request whose place came from a cache also has
// its first read checked, by a look-up sent beside it (no added wait). No extra round trip.
import type { D1Database, D1DatabaseSession, D1PreparedStatement, D1Result } from '@cloudflare/workers-types';
import { NotFound, ProjectLeft, ProjectMoving } from '../lib/faults.ts';

export type FenceOptions = {
  projectId: string;
  /** The place's name, as the request believes it. */
  place: string;
  /** The place came from a key's cache: the request's first read is checked too, and a project gone is the key's fault. */
  keyed: boolean;
  /** Called when the project is found to have left (moved, or deleted): a key's cache forgets it. */
  left?: ((moved: boolean) => void) | undefined;
};

type Client = D1Database | D1DatabaseSession;

const REFUSED = 'project not settled in this place';
// What the store sends that only reads: Drizzle's selects and our own. Anything else is a write.
const READ = /^\s*\(?\s*select\b/i;

/** Why the fence refused: moving here, moved away, or gone (one query, on refusal only). */
async function refusal(client: Client, o: FenceOptions): Promise<Error> {
  const row = await client
    .prepare(
      `select exists (select 1 from projects where id = ?1) as here,
         (select moving_since from projects where id = ?1) as moving_since,
         (select place from directory where project_id = ?1 and lookup <> 'p:' || ?1 limit 1) as forwarded,
         (select place from directory where lookup = 'p:' || ?1) as listed,
         (select moving_to from directory where lookup = 'p:' || ?1) as moving_to`,
    )
    .bind(o.projectId)
    .first<{
      here: number;
      moving_since: string | null;
      forwarded: string | null;
      listed: string | null;
      moving_to: string | null;
    }>();
  // The place it left keeps forwarding entries to where it went; the default database names it.
  const moved = row !== null && (row.forwarded !== null || (row.listed !== null && row.listed !== o.place));
  if (moved) {
    o.left?.(true);
    return new ProjectLeft(o.projectId, true);
  }
  if (row?.here === 1) return new ProjectMoving(o.projectId, row.moving_to);
  o.left?.(false);
  return o.keyed ? new ProjectLeft(o.projectId, false) : new NotFound(`Unknown project '${o.projectId}'`);
}

const isRefusal = (error: unknown) => {
  let inner = error;
  while (inner instanceof Error && inner.cause !== undefined) inner = inner.cause;
  return (inner instanceof Error ? inner.message : String(inner)).includes(REFUSED);
};

class Fence {
  readonly client: Client;
  readonly options: FenceOptions;
  /** The project was found settled here during this request: later reads need no look-up. */
  private confirmed = false;
  constructor(client: Client, options: FenceOptions) {
    this.client = client;
    this.options = options;
  }

  private row(): D1PreparedStatement {
    return this.client
      .prepare('insert into project_fence (project_id) values (?)')
      .bind(this.options.projectId);
  }

  /** Statements sent as one batch behind the fence row: all of them, or none if it refuses. */
  async batch<T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    let results: D1Result<T>[];
    try {
      results = await this.client.batch<T>([this.row(), ...statements]);
    } catch (error) {
      if (isRefusal(error)) throw await refusal(this.client, this.options);
      throw error;
    }
    this.confirmed = true;
    return results.slice(1);
  }

  /** One statement: a write behind the fence; a read as it is, beside a check if none was made yet. */
  async one<T>(s: Statement, direct: () => Promise<T>, batched: (r: D1Result) => T): Promise<T> {
    if (!READ.test(s.sql)) {
      const [result] = await this.batch([s.inner]);
      return batched(result as D1Result);
    }
    if (this.confirmed || !this.options.keyed) return direct();
    const [, result] = await Promise.all([this.check(), direct()]);
    return result;
  }

  private checking: Promise<void> | undefined;
  /** One look-up for the reads a request sends before anything confirmed the project here. */
  private check(): Promise<void> {
    this.checking ??= (async () => {
      const found = await this.client
        .prepare('select 1 as settled from projects where id = ? and moving_since is null')
        .bind(this.options.projectId)
        .first();
      if (found === null) throw await refusal(this.client, this.options);
      this.confirmed = true;
    })();
    return this.checking;
  }
}

class Statement {
  readonly fence: Fence;
  readonly sql: string;
  readonly inner: D1PreparedStatement;
  constructor(fence: Fence, sql: string, inner: D1PreparedStatement) {
    this.fence = fence;
    this.sql = sql;
    this.inner = inner;
  }
  bind(...values: unknown[]): Statement {
    return new Statement(this.fence, this.sql, this.inner.bind(...values));
  }
  run<T>(): Promise<D1Result<T>> {
    return this.fence.one(
      this,
      () => this.inner.run<T>(),
      (r) => r as D1Result<T>,
    );
  }
  all<T>(): Promise<D1Result<T>> {
    return this.fence.one(
      this,
      () => this.inner.all<T>(),
      (r) => r as D1Result<T>,
    );
  }
  first<T>(column?: string): Promise<T | null> {
    return this.fence.one(
      this,
      () => (column === undefined ? this.inner.first<T>() : this.inner.first<T>(column)),
      (r) => {
        const row = (r.results[0] ?? null) as Record<string, unknown> | null;
        return (column === undefined || row === null ? row : (row[column] ?? null)) as T | null;
      },
    );
  }
  // A write's rows come back from a batch as objects: in their column order, as Drizzle reads a
  // batch (a write returns the columns of its own table, whose names are distinct).
  raw<T = unknown[]>(): Promise<T[]> {
    return this.fence.one(
      this,
      () => this.inner.raw<T>(),
      (r) => (r.results as Record<string, unknown>[]).map((row) => Object.values(row) as T),
    );
  }
}

/**
 * The binding (or D1 session) with every statement held to the fence: what Drizzle and the store
 * use of it (prepare, batch), with the same answers.
 */
export function fenced(client: Client, options: FenceOptions): D1Database {
  const fence = new Fence(client, options);
  const unwrap = (s: unknown) => (s instanceof Statement ? s.inner : (s as D1PreparedStatement));
  const wrapper = {
    prepare: (sql: string) => new Statement(fence, sql, client.prepare(sql)),
    batch: <T>(statements: unknown[]) => fence.batch<T>(statements.map(unwrap)),
    withSession: () => wrapper,
    exec: () => Promise.reject(new Error('exec is not used behind a fence')),
    dump: () => Promise.reject(new Error('dump is not used behind a fence')),
  };
  return wrapper as unknown as D1Database;
}
