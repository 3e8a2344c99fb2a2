// Why D1 refused a submission's write (C18, C31, C41, C45): an outage (retried later, the whole
// batch failing) or a fault of one row's, which the group commit isolates by splitting the batch
// (src/accept/commit.ts answers each); and, for a row refused for a unique value, which field.
import type { D1Database } from '@cloudflare/workers-types';
import { storage } from './d1.ts';

/**
 * C45: which of a row's claimed values another submission of its project holds: the fields, in the
 * row's order (asked only once a row is refused for one).
 */
export async function takenFields(d1: D1Database, projectId: string, uniqueKeys: string): Promise<string[]> {
  const rows = await storage(() =>
    d1
      .prepare(
        `select json_extract(k.value, '$[0]') as field from json_each(?2) as k
         where exists (select 1 from "unique_values" as u where u."project_id" = ?1
           and u."field" = json_extract(k.value, '$[0]') and u."value" = json_extract(k.value, '$[1]'))
         order by k.key`,
      )
      .bind(projectId, uniqueKeys)
      .all<{ field: string }>(),
  );
  return rows.results.map((r) => r.field);
}

/**
 * Why D1 refused a write (C18, C31). `undefined`: an outage, D1 unreachable or failing for its own
 * reasons (retrying later may succeed; the whole batch fails). Otherwise the refusal may be owed to
 * what a row holds, so a batch is split until the row at fault is alone: `project-gone` (its
 * project was deleted since its key was cached: the foreign key), `project-moving` (C41: its
 * project is being copied to another place), `too-large` (over D1's row or
 * string size), or `refused` (any other statement error).
 */
export type RowFault = 'project-gone' | 'project-moving' | 'too-large' | 'unique' | 'full' | 'refused';

// The messages of D1's transient failures, as Cloudflare's D1 documentation lists them.
const OUTAGE =
  /network connection lost|connection (?:was )?(?:lost|reset|refused)|object to be reset|was reset|overloaded|transient|internal error|timed? ?out|unavailable|exceeded its (?:memory|cpu)|fetch failed/i;

export function rowFault(error: unknown): RowFault | undefined {
  let inner = error;
  while (inner instanceof Error && inner.cause !== undefined) inner = inner.cause;
  const message = inner instanceof Error ? inner.message : String(inner);
  if (OUTAGE.test(message)) return undefined;
  if (/FOREIGN KEY constraint/i.test(message)) return 'project-gone';
  // C41: the trigger of a project being moved to another place (schema/migrations/0017_places.sql).
  if (/project moving to another place/.test(message)) return 'project-moving';
  if (/TOOBIG|too big|too large/i.test(message)) return 'too-large';
  // C45: the triggers of a value another submission of the project holds (0028_unique_values.sql)
  // and of a form that has all the submissions it takes (0029_form_limits.sql).
  if (/unique value taken/.test(message)) return 'unique';
  if (/form full/.test(message)) return 'full';
  return 'refused';
}
