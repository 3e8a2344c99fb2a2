// `npm run bench:spam` (C39): the filter measured on the SpamAssassin public corpus, never on our
// own examples. The prior learns only from easy-ham-1, spam-1 and the first half of hard-ham-1;
// it is measured on easy-ham-2 and spam-2, collected later. Prints the held-out line, the same at
// other cut-offs, and a learning curve: a fresh project after 0, 10, 25, 50, 100 marks of its
// owner, with the prior and without it.

import { loadLists } from '../scripts/spam-lists.ts';
import { type Counts, classify, Learner, OWN_WEIGHT, SPAM_CUTOFF } from '../src/spam/classifier.ts';
import { features, type Lists } from '../src/spam/features.ts';
import { loadCorpus, type Sample, split } from './spam-corpus.ts';

const lists: Lists = loadLists();
const samples = await loadCorpus();
const { train, heldOut } = split(samples);
const prior = new Learner();
for (const s of train) prior.learn(features(s.values, lists), s.spam);

type Judged = { spam: boolean; score: number };
function measure(judged: Judged[], cutoff: number) {
  const ham = judged.filter((j) => !j.spam);
  const spam = judged.filter((j) => j.spam);
  const fp = ham.filter((j) => j.score > cutoff).length;
  const tp = spam.filter((j) => j.score > cutoff).length;
  const flagged = judged.filter((j) => j.score > cutoff).length;
  const recall = tp / spam.length;
  const precision = flagged === 0 ? 1 : tp / flagged;
  const f1 = recall + precision === 0 ? 0 : (2 * recall * precision) / (recall + precision);
  return { fp, ham: ham.length, recall, precision, f1 };
}
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

const featuresOf = new Map<Sample, string[]>(heldOut.map((s) => [s, features(s.values, lists)]));
const judge = (set: Sample[], models: { counts: Counts; weight: number }[]): Judged[] =>
  set.map((s) => ({ spam: s.spam, score: classify(featuresOf.get(s) ?? [], models).score }));

const withPrior = judge(heldOut, [{ counts: prior, weight: 1 }]);
const m = measure(withPrior, SPAM_CUTOFF);
console.log(
  `held-out: false positives ${m.fp}/${m.ham}, recall ${pct(m.recall)}, precision ${pct(m.precision)}, F1 ${m.f1.toFixed(3)}`,
);
console.log(
  `  (prior: ${train.length} messages, ${prior.tokens.size} features; held out: ${heldOut.length}; spam above a score of ${SPAM_CUTOFF})`,
);
for (const cutoff of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]) {
  const c = measure(withPrior, cutoff);
  console.log(`  at ${cutoff.toFixed(2)}: false positives ${c.fp}/${c.ham}, recall ${pct(c.recall)}`);
}

// A fresh project: its submissions arrive in a fixed shuffled order of the held-out set; the owner
// marks the first k (as what they are), and the rest are judged.
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
const stream = shuffled(heldOut, 42);
console.log('learning curve (a fresh project; the rest of the held-out set judged after k marks):');
for (const k of [0, 10, 25, 50, 100]) {
  const own = new Learner();
  for (const s of stream.slice(0, k)) own.learn(featuresOf.get(s) ?? [], s.spam);
  const rest = stream.slice(k);
  const both = measure(
    judge(rest, [
      { counts: prior, weight: 1 },
      { counts: own, weight: OWN_WEIGHT },
    ]),
    SPAM_CUTOFF,
  );
  const alone = measure(judge(rest, [{ counts: own, weight: 1 }]), SPAM_CUTOFF);
  console.log(
    `  ${String(k).padStart(3)} marks: with the prior recall ${pct(both.recall)}, false positives ${both.fp}/${both.ham}; marks alone recall ${pct(alone.recall)}, false positives ${alone.fp}/${alone.ham}`,
  );
}
