// C39: the shared prior: the classifier's counts learnt once from the public corpus's training
// share (bench/spam-corpus.ts: easy-ham-1, spam-1, the first half of hard-ham-1; never the held-out
// groups). `npm run build:spam-prior` writes it to data/spam-prior.json, which is committed (a test
// holds it to what this script makes); `npm run build:assets` ships it, with the lists, as the
// asset the worker reads (spam/model.json), never in the worker's bundle.
import { writeFileSync } from 'node:fs';
import { loadCorpus, split } from '../bench/spam-corpus.ts';
import { Learner } from '../src/spam/classifier.ts';
import { features, type Lists } from '../src/spam/features.ts';
import type { PriorFile } from '../src/spam/model.ts';
import { loadLists, PRIOR_PATH } from './spam-lists.ts';

/**
 * A feature seen fewer times than this in the whole training share is left out: it could say little
 * (Robinson's S outweighs one or two sightings), and keeping them would triple the file.
 */
export const MIN_SIGHTINGS = 3;

/**
 * Features the prior never holds: who sent the corpus's mail (mailing lists of 2002 as ham, webmail
 * as spam) says nothing about who fills in a form today, where a real person writes from Yahoo
 * too. A project still learns its own senders' domains from its owner's marks.
 */
export const NOT_IN_PRIOR = /^address domain /;

/** The prior learnt from the training share, pruned, in its file's form (features in order). */
export async function trainPrior(lists: Lists = loadLists()): Promise<PriorFile> {
  const { train } = split(await loadCorpus());
  const learner = new Learner();
  for (const s of train) learner.learn(features(s.values, lists), s.spam);
  const tokens: PriorFile['tokens'] = {};
  for (const [feature, [ham, spam]] of [...learner.tokens].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (ham + spam >= MIN_SIGHTINGS && !NOT_IN_PRIOR.test(feature)) tokens[feature] = [ham, spam];
  }
  return { ham: learner.ham, spam: learner.spam, tokens };
}

/** The file's text: one feature per line, so that a change to the features reads as a diff. */
export function priorText(prior: PriorFile): string {
  const lines = Object.entries(prior.tokens).map(([f, c]) => `${JSON.stringify(f)}:${JSON.stringify(c)}`);
  return `{"ham":${prior.ham},"spam":${prior.spam},"tokens":{\n${lines.join(',\n')}\n}}\n`;
}

if (import.meta.main) {
  const prior = await trainPrior();
  writeFileSync(PRIOR_PATH, priorText(prior));
  console.log(
    `data/spam-prior.json: ${prior.ham} ham, ${prior.spam} spam, ${Object.keys(prior.tokens).length} features`,
  );
}
