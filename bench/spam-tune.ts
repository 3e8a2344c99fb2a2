// `npm run bench:spam-tune` (C39): how the counted layers should weigh an owner's marks (Tuning in
// src/spam/classifier.ts), chosen on the form corpus's training lines alone. The training lines are
// cut into five folds; each fold is judged by a prior learnt without it (and without the held-out
// quarter, which nothing here reads), after its "owner" marked half of it (half of each kind,
// over five orders), as `npm run bench:spam`'s "after 30 marks" line does on the held-out lines.
// Prints, for each setting tried, the spam held, the genuine held and unsure, best first among those
// that hold no genuine message. The held-out quarter then only measures the choice.

import { formTraining, trainPrior } from '../scripts/spam-prior.ts';
import { Learner, type Tuning } from '../src/spam/classifier.ts';
import { features } from '../src/spam/features.ts';
import { judge, modelsOf } from '../src/spam/judge.ts';
import { priorOf } from '../src/spam/model.ts';
import type { SpamSettings } from '../src/spam/settings.ts';
import { loadFormCorpus, shuffled } from '../toolkit/form-corpus.ts';
import { loadLists } from '../toolkit/spam-lists.ts';
import { count, emptyTally, NEW_PROJECT, type Tally } from './spam-tally.ts';

const FOLDS = 5;
const ORDERS = [1, 2, 3, 4, 5];
const lists = loadLists();
const training = formTraining(loadFormCorpus()).map((s) => ({ ...s, found: features(s.values, lists) }));
const settings: SpamSettings = { ...NEW_PROJECT, sharing: 'none' };

const grid: Tuning[] = [];
for (const minEvidence of [2, 3])
  for (const markWeight of [1, 1.5, 2, 3])
    for (const maxCounted of [3, 4, 5, 6]) grid.push({ minEvidence, markWeight, maxCounted });

const tallies = grid.map(emptyTally);
const started = performance.now();
for (let fold = 0; fold < FOLDS; fold++) {
  const lines = training.filter((_, i) => i % FOLDS === fold);
  const prior = priorOf(await trainPrior(lists, new Set(lines.map((l) => l.id))));
  for (const seed of ORDERS) {
    const order = shuffled(lines, seed);
    const spam = order.filter((s) => s.spam);
    const ham = order.filter((s) => !s.spam);
    const marks = [
      ...spam.slice(0, Math.floor(spam.length / 2)),
      ...ham.slice(0, Math.floor(ham.length / 2)),
    ];
    const learner = new Learner();
    for (const s of marks) learner.learn(s.found, s.spam);
    const rest = lines.filter((s) => !marks.includes(s));
    grid.forEach((tuning, k) => {
      const t = tallies[k] as Tally;
      for (const s of rest) {
        const { verdict } = judge(
          { values: s.values, honeypot: false, found: s.found, copiesBefore: 0 },
          settings,
          { ...modelsOf(prior, learner), tuning },
        );
        count(t, s.spam, verdict);
      }
    });
  }
}
const rows = grid
  .map((tuning, k) => ({ tuning, t: tallies[k] as Tally }))
  .sort((x, y) => x.t.hamHeld - y.t.hamHeld || y.t.spamHeld - x.t.spamHeld || x.t.unsure - y.t.unsure);
console.log(
  `the training lines in ${FOLDS} folds, each judged by a prior that never saw it after half of it was marked (${ORDERS.length} orders), ${((performance.now() - started) / 1000).toFixed(0)} s:`,
);
for (const { tuning, t } of rows.slice(0, 12))
  console.log(
    `  minEvidence ${tuning.minEvidence}, markWeight ${tuning.markWeight}, maxCounted ${tuning.maxCounted}: spam held ${t.spamHeld}/${t.spam} (${((100 * t.spamHeld) / t.spam).toFixed(1)}%), genuine held ${t.hamHeld}/${t.ham}, unsure ${t.unsure}/${t.ham}`,
  );
