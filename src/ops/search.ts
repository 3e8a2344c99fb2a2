// C34: a project's search index built again. The tool and the management API both call this.
import { indexSubmissions, markForIndexing, pendingOf } from '../store/search.ts';
import { type Manager, projectIdOf, recordChange } from './context.ts';

/**
 * C34: indexes the project's submissions again: every one is marked, then indexed here, `chunk`
 * at a time, up to `max` (the rest by the minute's sweep). Returns how many were marked and how
 * many indexed now.
 */
export async function rebuildSearch(m: Manager, projectId: string, max = Number.POSITIVE_INFINITY) {
  const p = await projectIdOf(m, projectId);
  const marked = await markForIndexing(m.db, p);
  let indexed = 0;
  const chunk = 200;
  while (indexed < max) {
    const ids = await pendingOf(m.db, p, chunk);
    if (ids.length === 0) break;
    indexed += await indexSubmissions(m.db, ids);
  }
  await recordChange(m, p, 'search.rebuild', { marked, indexed });
  return { projectId: p, marked, indexed };
}
