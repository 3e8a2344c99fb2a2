// C39: the spam filter's verdicts, a job of the queue consumer (and the sweep) before a submission's
// deliveries are written: the submissions just stored are judged by spam/judge.ts with what D1
// holds of their project (its settings, lists, own counts and copies), of the deployment (its
// counts) and of the campaigns marked lately, and with what their requests said (their signals,
// whose tokens and proofs are claimed here, so that a second use is found). The form post itself
// costs nothing more: one D1 round trip.

import type { Assets } from '../lib/assets.ts';
import { sha256Text } from '../lib/hex.ts';
import { bandKeys, campaignText, signature } from '../spam/campaign.ts';
import { campaignOf } from '../spam/campaign-match.ts';
import { features } from '../spam/features.ts';
import { comparedText, judge, modelsOf } from '../spam/judge.ts';
import { languageMismatch, loadLanguages, messageText } from '../spam/language.ts';
import { loadModel } from '../spam/model.ts';
import { claimsOf, powNonce, signalsOf, tokenNonce } from '../spam/signals.ts';
import { CAMPAIGN_DAYS } from '../store/campaigns.ts';
import type { Db } from '../store/db.ts';
import {
  type Asked,
  DUPLICATE_WINDOW_MS,
  filtersOf,
  type Judged,
  unjudged,
  writeVerdicts,
} from '../store/spam.ts';

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
      const spun = campaignText(values);
      return {
        row,
        values,
        found: features(values, model.lists),
        hash: text === undefined ? null : await sha256Text(text),
        signature: spun === undefined ? undefined : signature(spun),
        signals: signalsOf(row.signals),
      };
    }),
  );
  const claims = cases.flatMap((c) => claimsOf(c.row.id, c.signals));
  const asked = new Map<string, Asked>();
  for (const c of cases) {
    const entry = asked.get(c.row.projectId) ?? { features: [], hashes: [], bands: [] };
    entry.features.push(...c.found);
    if (c.hash !== null) entry.hashes.push(c.hash);
    if (c.signature !== undefined) entry.bands.push(...bandKeys(c.signature));
    asked.set(c.row.projectId, entry);
  }
  for (const entry of asked.values()) {
    // The counted layers never weigh what a twentieth of all messages holds: no need to read it.
    entry.features = [...new Set(entry.features)].filter((f) => !model.prior.common.has(f));
    entry.bands = [...new Set(entry.bands)];
  }
  const { filters, owners } = await filtersOf(
    db,
    asked,
    new Date(now - DUPLICATE_WINDOW_MS).toISOString(),
    new Date(now - CAMPAIGN_DAYS * 86_400_000).toISOString(),
    claims,
  );
  // Another submission's nonce: this one carried a token or a proof used before.
  const usedBefore = (nonce: string | undefined, id: string) =>
    nonce !== undefined && (owners.get(nonce) ?? id) !== id;
  // The language models are read only when a project in the batch expects some languages.
  const expecting = [...filters.values()].some((f) => f.settings.languages.length > 0);
  const languages = expecting ? await loadLanguages(assets) : undefined;
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
        campaign: campaignOf(c.signature, filter.campaigns, c.row.projectId),
        signals: c.signals,
        reuse: {
          token: c.signals?.token === 'valid' && usedBefore(tokenNonce(c.signals), c.row.id),
          pow: usedBefore(powNonce(c.signals), c.row.id),
        },
        language:
          languages === undefined || filter.settings.languages.length === 0
            ? undefined
            : languageMismatch(languages, messageText(c.values), filter.settings.languages),
      },
      filter.settings,
      modelsOf(model.prior, filter.own, filter.shared),
    );
    judged.push({ ...judgement, id: c.row.id, contentHash: c.hash, hold: filter.settings.mode === 'hold' });
  }
  await writeVerdicts(db, judged);
}
