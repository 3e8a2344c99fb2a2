// `npm run bench:spam` (C39): the filter measured on the SpamAssassin public corpus, never on our
// own examples. The prior learns only from easy-ham-1, spam-1 and the first half of hard-ham-1;
// it is measured on easy-ham-2 and spam-2, collected later. Prints the held-out line, the same at
// other cut-offs, and a learning curve: a fresh project after 0, 10, 25, 50, 100 marks of its
// owner, with the prior and without it. Writes data/spam-curve.json: recall and false positives at
// each threshold, which the dashboard's slider shows. Then the form set: the form corpus's held-out
// quarter (data/form-corpus/, never learnt from) judged as the consumer judges a fresh project's
// submissions (spam/judge.ts, default settings), and again after its owner marks 30 of the
// corpus's training messages, half each.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadLists, readPrior } from '../scripts/spam-lists.ts';
import { type Counts, classify, Learner, OWN_WEIGHT } from '../src/spam/classifier.ts';
import { features, type Lists } from '../src/spam/features.ts';
import { judge as judgeCase, layers, scoreVerdict } from '../src/spam/judge.ts';
import { priorCounts } from '../src/spam/model.ts';
import {
  MAX_THRESHOLD,
  MIN_THRESHOLD,
  DEFAULT_THRESHOLD as SPAM_CUTOFF,
  type SpamSettings,
} from '../src/spam/settings.ts';
import { loadFormCorpus } from './form-corpus.ts';
import { loadCorpus, type Sample, split } from './spam-corpus.ts';

const CURVE_PATH = join(import.meta.dirname, '..', 'data', 'spam-curve.json');
const lists: Lists = loadLists();
const samples = await loadCorpus();
const { train, heldOut } = split(samples);
// The prior as shipped (data/spam-prior.json, made by `npm run build:spam-prior` from `train` alone).
const prior = priorCounts(readPrior());

type Judged = { spam: boolean; score: number; strong: number };
function measure(judged: Judged[], cutoff: number) {
  const ham = judged.filter((j) => !j.spam);
  const spam = judged.filter((j) => j.spam);
  // As the worker judges (src/spam/judge.ts): above the cut-off, on enough strong clues.
  const isSpam = (j: Judged) => scoreVerdict(j.score, j.strong, cutoff) === 'spam';
  const fp = ham.filter(isSpam).length;
  const tp = spam.filter(isSpam).length;
  const flagged = judged.filter(isSpam).length;
  const recall = tp / spam.length;
  const precision = flagged === 0 ? 1 : tp / flagged;
  const f1 = recall + precision === 0 ? 0 : (2 * recall * precision) / (recall + precision);
  return { fp, ham: ham.length, recall, precision, f1 };
}
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

const featuresOf = new Map<Sample, string[]>(heldOut.map((s) => [s, features(s.values, lists)]));
const judge = (set: Sample[], models: { counts: Counts; weight: number }[]): Judged[] =>
  set.map((s) => {
    const { score, strong } = classify(featuresOf.get(s) ?? [], models);
    return { spam: s.spam, score, strong };
  });

const withPrior = judge(heldOut, [{ counts: prior, weight: 1 }]);
const m = measure(withPrior, SPAM_CUTOFF);
console.log(
  `held-out: false positives ${m.fp}/${m.ham}, recall ${pct(m.recall)}, precision ${pct(m.precision)}, F1 ${m.f1.toFixed(3)}`,
);
console.log(
  `  (prior: ${train.length} messages, ${prior.tokens.size} features kept; held out: ${heldOut.length}; spam above a score of ${SPAM_CUTOFF})`,
);
for (const cutoff of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]) {
  const c = measure(withPrior, cutoff);
  console.log(`  at ${cutoff.toFixed(2)}: false positives ${c.fp}/${c.ham}, recall ${pct(c.recall)}`);
}
// What the dashboard's threshold slider shows at each value (data/spam-curve.json, committed).
const curve = [];
for (let t = MIN_THRESHOLD; t <= MAX_THRESHOLD + 1e-9; t = Math.round((t + 0.01) * 100) / 100) {
  const c = measure(withPrior, t);
  curve.push({ threshold: t, recall: Math.round(c.recall * 1000) / 1000, falsePositives: c.fp, ham: c.ham });
}
writeFileSync(CURVE_PATH, `${JSON.stringify(curve)}\n`);

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

// The form set: the held-out quarter of the form corpus, judged whole (lists, duplicates, the
// classifier's verdict) by a fresh project's default settings; "held" is a spam verdict.
const form = loadFormCorpus();
const formHeld = form.filter((s) => s.heldOut);
const settings: SpamSettings = { mode: 'hold', threshold: SPAM_CUTOFF, allow: [], block: [] };
function formLine(own: Learner): string {
  const verdicts = formHeld.map((s) => ({
    spam: s.spam,
    verdict: judgeCase(
      { values: s.values, honeypot: false, found: features(s.values, lists), copiesBefore: 0 },
      settings,
      layers(prior, own),
    ).verdict,
  }));
  const spam = verdicts.filter((v) => v.spam);
  const ham = verdicts.filter((v) => !v.spam);
  const held = (set: typeof verdicts) => set.filter((v) => v.verdict === 'spam').length;
  const unsure = ham.filter((v) => v.verdict === 'unsure').length;
  return `spam held ${held(spam)}/${spam.length}, genuine held ${held(ham)}/${ham.length}, unsure ${unsure}/${ham.length}`;
}
console.log(`form set (data/form-corpus/, its held-out quarter: ${formHeld.length} messages):`);
console.log(`  a fresh project: ${formLine(new Learner())}`);
const marks = new Learner();
const training = shuffled(
  form.filter((s) => !s.heldOut),
  7,
);
for (const spam of [true, false]) {
  for (const s of training.filter((t) => t.spam === spam).slice(0, 15)) {
    marks.learn(features(s.values, lists), s.spam);
  }
}
console.log(`  after 30 marks (15 each, from the training lines): ${formLine(marks)}`);
