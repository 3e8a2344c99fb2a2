// What the store needs of D1 itself, without Drizzle: the bound on a statement's parameters, and
// the one way a D1 failure is raised (C18). The submission path's statements (intake.ts) use it
// on the binding directly.
import { NotFound, QueryRefused, StorageError, UnavailableError } from '../lib/faults.ts';

/** D1 binds at most 100 parameters to a statement. */
export const MAX_PARAMETERS = 100;

// What SQLite says when a statement breaks a constraint (D1 passes its message on).
const CONSTRAINT = /constraint failed|SQLITE_CONSTRAINT/i;

/**
 * C18: a failure to reach or use D1 becomes a StorageError, answered 503; a statement that D1
 * refused for a constraint is a QueryRefused, which names what it is and is never an outage.
 */
export async function storage<T>(query: () => Promise<T>): Promise<T> {
  try {
    return await query();
  } catch (cause) {
    let inner = cause;
    while (inner instanceof Error && inner.cause !== undefined) {
      // A fault already named (C41: the fence found the project elsewhere), however Drizzle
      // wrapped it, is passed on as it is.
      if (inner instanceof UnavailableError || inner instanceof NotFound) throw inner;
      inner = inner.cause;
    }
    if (inner instanceof UnavailableError || inner instanceof NotFound) throw inner;
    throw CONSTRAINT.test(inner instanceof Error ? inner.message : String(inner))
      ? new QueryRefused(cause)
      : new StorageError(cause);
  }
}
