// C39: the spam filter's verdicts, a job of the queue consumer (and the sweep) before a submission's
// deliveries are written: the submissions just stored are judged by spam/judge.ts with what D1
// holds of their project (its settings, lists, own words and copies). The form post itself costs
// nothing more: one D1 round trip.
import { sha256Text } from '../lib/hex.ts';
import { features } from '../spam/features.ts';
import { comparedText, judge, layers } from '../spam/judge.ts';
import { type Assets, loadModel } from '../spam/model.ts';
import type { Db } from '../store/db.ts';
import { DUPLICATE_WINDOW_MS, filtersOf, type Judged, unjudged, writeVerdicts } from '../store/spam.ts';

export const valuesOf = (data: string) => JSON.parse(data) as Record<string, unknown>;

/** Judges the submissions among `ids` still unjudged, and writes their verdicts (one read batch, one write batch). */
export async function judgeSubmissions(
  db: Db,
  assets: Assets,
  ids: readonly string[],
  now: number,
): Promise<void> {
  const rows = await unjudged(db, ids);
  if (rows.length === 0) return;
  const model = await loadModel(assets);
  const cases = await Promise.all(
    rows.map(async (row) => {
      const values = valuesOf(row.data);
      const text = comparedText(values);
      return {
        row,
        values,
        found: features(values, model.lists),
        hash: text === undefined ? null : await sha256Text(text),
      };
    }),
  );
  const asked = new Map<string, { features: string[]; hashes: string[] }>();
  for (const c of cases) {
    const entry = asked.get(c.row.projectId) ?? { features: [], hashes: [] };
    entry.features.push(...c.found);
    if (c.hash !== null) entry.hashes.push(c.hash);
    asked.set(c.row.projectId, entry);
  }
  for (const entry of asked.values()) entry.features = [...new Set(entry.features)];
  const filters = await filtersOf(db, asked, new Date(now - DUPLICATE_WINDOW_MS).toISOString());
  // The copies stored before, and those judged earlier in this same pass (oldest first).
  const seen = new Map<string, number>();
  const judged: Judged[] = [];
  for (const c of cases) {
    const filter = filters.get(c.row.projectId);
    if (filter === undefined) continue;
    const key = `${c.row.projectId} ${c.hash}`;
    const earlier = c.hash === null ? 0 : (filter.copies.get(c.hash) ?? 0) + (seen.get(key) ?? 0);
    if (c.hash !== null) seen.set(key, (seen.get(key) ?? 0) + 1);
    const judgement = judge(
      {
        values: c.values,
        honeypot: c.row.spam && c.row.label === null,
        found: c.found,
        copiesBefore: earlier,
      },
      filter.settings,
      layers(model.prior, filter.own),
    );
    judged.push({ ...judgement, id: c.row.id, contentHash: c.hash, hold: filter.settings.mode === 'hold' });
  }
  await writeVerdicts(db, judged);
}
