// C39: the learner, a job of the queue consumer (and the sweep): each project's classifier follows
// its owner's marks (spam, not spam) on the submissions among those given, once each, and so do the
// deployment's counts and the campaign memory.

import type { Assets } from '../lib/assets.ts';
import { bandKeys, campaignText, packSignature, signature } from '../spam/campaign.ts';
import { features } from '../spam/features.ts';
import { loadModel } from '../spam/model.ts';
import type { Db } from '../store/db.ts';
import { train, untrained } from '../store/learning.ts';
import { valuesOf } from './verdicts.ts';

/** Makes each project's classifier follow its owner's marks on the submissions among `ids`. */
export async function learnMarks(db: Db, assets: Assets, ids: readonly string[], now: number): Promise<void> {
  const rows = await untrained(db, ids);
  if (rows.length === 0) return;
  const model = await loadModel(assets);
  for (const row of rows) {
    const values = valuesOf(row.data);
    const text = campaignText(values);
    const sig = text === undefined ? undefined : signature(text);
    const campaign = sig === undefined ? undefined : { signature: packSignature(sig), bands: bandKeys(sig) };
    await train(db, row, features(values, model.lists), campaign, now);
  }
}
