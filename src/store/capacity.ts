// C41: how full each place's database is: its size as D1 reports it (`meta.size_after`, in
// bytes) and the rows of its largest tables, for the operator's stats.
import type { D1Database } from '@cloudflare/workers-types';
import { storage } from './d1.ts';

/** The tables counted: what grows with submissions, and the projects themselves. */
export const COUNTED_TABLES = [
  'projects',
  'submissions',
  'deliveries',
  'delivery_attempts',
  'search_terms',
  'audit_log',
  'analytics_visitors',
] as const;

export type Capacity = { bytes: number | null; rows: Record<(typeof COUNTED_TABLES)[number], number> };

/** The database's size and its tables' rows, in one round trip (a batch of counts). */
export async function capacityOf(d1: D1Database): Promise<Capacity> {
  const results = await storage(() =>
    d1.batch<{ n: number }>(COUNTED_TABLES.map((t) => d1.prepare(`select count(*) as n from "${t}"`))),
  );
  const rows = Object.fromEntries(
    COUNTED_TABLES.map((t, i) => [t, results[i]?.results[0]?.n ?? 0]),
  ) as Capacity['rows'];
  const size = results.at(-1)?.meta.size_after;
  return { bytes: typeof size === 'number' && size > 0 ? size : null, rows };
}
