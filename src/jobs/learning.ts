// C39: the learner, a job of the queue consumer (and the sweep): each project's classifier follows
// its owner's marks (spam, not spam) on the submissions among those given, once each.
import { features } from '../spam/features.ts';
import { type Assets, loadModel } from '../spam/model.ts';
import type { Db } from '../store/db.ts';
import { train, untrained } from '../store/spam.ts';
import { valuesOf } from './verdicts.ts';

/** Makes each project's classifier follow its owner's marks on the submissions among `ids`. */
export async function learnMarks(db: Db, assets: Assets, ids: readonly string[]): Promise<void> {
  const rows = await untrained(db, ids);
  if (rows.length === 0) return;
  const model = await loadModel(assets);
  for (const row of rows) await train(db, row, features(valuesOf(row.data), model.lists));
}
