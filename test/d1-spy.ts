// A real D1 binding, wrapped: counts round trips and, when asked, fails some of them.

type Fail = (sql: string) => boolean;

export type D1Spy = {
  db: D1Database;
  /** One entry per round trip to D1: the SQL of a statement, or `batch:` and the SQL of each. */
  readonly trips: string[];
};

const EXECUTE = new Set(['all', 'run', 'raw', 'first']);

/** `delay`: milliseconds a round trip of this SQL is held back before it reaches D1. */
export function spyD1(
  real: D1Database,
  fail: Fail = () => false,
  delay: (sql: string) => number = () => 0,
): D1Spy {
  const trips: string[] = [];
  const unwrap = new WeakMap<object, D1PreparedStatement>();

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
            return method.apply(target, args);
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    unwrap.set(proxy, stmt);
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
                  await trip(`batch: ${statements.length}`);
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
          await trip(`batch: ${statements.length}`);
          return target.batch(statements.map((s) => unwrap.get(s) ?? s));
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
