// A real D1 binding, wrapped: counts round trips and, when asked, fails some of them.

type Fail = (sql: string) => boolean;

export type D1Spy = {
  db: D1Database;
  /** One entry per round trip to D1: the SQL of a statement, or `batch: <n>` and the SQL of each, one per line. */
  readonly trips: string[];
};

const EXECUTE = new Set(['all', 'run', 'raw', 'first']);

/**
 * What happens once D1 has done a round trip of this SQL: its answer is held back this many
 * milliseconds (D1 acknowledges late), or `'fail'`: the connection is lost after D1 committed (an
 * outcome the worker cannot know).
 */
export type AfterCommit = (sql: string) => number | 'fail' | undefined;

/** `delay`: milliseconds a round trip of this SQL is held back before it reaches D1. */
export function spyD1(
  real: D1Database,
  fail: Fail = () => false,
  delay: (sql: string) => number = () => 0,
  afterCommit: AfterCommit = () => undefined,
): D1Spy {
  const trips: string[] = [];
  const unwrap = new WeakMap<object, D1PreparedStatement>();
  const sqlOf = new WeakMap<object, string>();
  const batchText = (statements: D1PreparedStatement[]) =>
    [`batch: ${statements.length}`, ...statements.map((st) => sqlOf.get(st) ?? '?')].join('\n');

  /** Runs the round trip, then what `afterCommit` says of it. */
  const answer = async <T>(sql: string, run: () => Promise<T>): Promise<T> => {
    const result = await run();
    const after = afterCommit(sql);
    if (after === 'fail') {
      throw new Error(`D1_ERROR: Network connection lost (injected after commit, for: ${sql})`);
    }
    if (after !== undefined && after > 0) await scheduler.wait(after);
    return result;
  };

  const trip = async (sql: string) => {
    trips.push(sql);
    const ms = delay(sql);
    if (ms > 0) await scheduler.wait(ms);
    if (fail(sql)) {
      await scheduler.wait(2); // a failure takes a round trip too
      throw new Error(`D1_ERROR: Network connection lost (injected outage, for: ${sql})`);
    }
  };

  const wrapStatement = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === 'bind') {
          return (...values: unknown[]) => wrapStatement(target.bind(...values), sql);
        }
        if (typeof prop === 'string' && EXECUTE.has(prop)) {
          return async (...args: unknown[]) => {
            await trip(sql);
            const method = Reflect.get(target, prop) as (...a: unknown[]) => Promise<unknown>;
            return answer(sql, () => method.apply(target, args));
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    unwrap.set(proxy, stmt);
    sqlOf.set(proxy, sql);
    return proxy;
  };

  const db = new Proxy(real, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => wrapStatement(target.prepare(sql), sql);
      // A D1 session (C24) makes its round trips through the same spy.
      if (prop === 'withSession') {
        return (start?: string) => {
          const session = target.withSession(start);
          return new Proxy(session, {
            get(s, sp) {
              if (sp === 'prepare') return (sql: string) => wrapStatement(s.prepare(sql), sql);
              if (sp === 'batch') {
                return async (statements: D1PreparedStatement[]) => {
                  await trip(batchText(statements));
                  return s.batch(statements.map((st) => unwrap.get(st) ?? st));
                };
              }
              const value = Reflect.get(s, sp, s);
              return typeof value === 'function' ? value.bind(s) : value;
            },
          });
        };
      }
      if (prop === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          const sql = batchText(statements);
          await trip(sql);
          return answer(sql, () => target.batch(statements.map((s) => unwrap.get(s) ?? s)));
        };
      }
      if (prop === 'exec') {
        return async (sql: string) => {
          await trip(sql);
          return target.exec(sql);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db, trips };
}

export const isWrite = (sql: string) => /^\s*(insert|update|delete|batch)/i.test(sql);
