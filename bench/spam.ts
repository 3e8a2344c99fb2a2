// `npm run bench:spam` (C39): the filter measured on lines nothing learnt from. The form set: the
// form corpus's held-out quarter (data/form-corpus/), judged as the consumer judges (spam/judge.ts,
// default settings) on a fresh project, after its owner marks 30 of them (half each; the other 80
// judged, over five orders), along a learning curve, on a new project that takes from the
// deployment other projects taught (one, or three agreeing), the campaign line: a spun copy of a
// pitch marked spam in two projects, held in a third; and one project's marks turned against
// another (C39: none of its messages may be held by them). Then SpamAssassin's held-out groups
// (easy-ham-2, spam-2, collected after the training groups) at the default threshold and others,
// and its learning curve. Writes data/spam-curve.json: what each threshold holds of both held-out
// sets, which the dashboard shows.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bandKeys, campaignText, signature } from '../src/spam/campaign.ts';
import { campaignOf } from '../src/spam/campaign-match.ts';
import {
  type Counts,
  type Deployment,
  deploymentOf,
  type Giver,
  Learner,
  score,
} from '../src/spam/classifier.ts';
import { features, type Lists } from '../src/spam/features.ts';
import { type Case, judge as judgeCase, modelsOf, scoreVerdict } from '../src/spam/judge.ts';
import { priorOf } from '../src/spam/model.ts';
import { DEFAULT_THRESHOLD, MAX_THRESHOLD, MIN_THRESHOLD, type SpamSettings } from '../src/spam/settings.ts';
import type { CampaignMark } from '../src/store/campaigns.ts';
import { type FormSample, loadFormCorpus, shuffled } from '../toolkit/form-corpus.ts';
import { loadCorpus, split } from '../toolkit/spam-corpus.ts';
import { loadLists, readPrior } from '../toolkit/spam-lists.ts';
import { count, emptyTally, NEW_PROJECT, type Tally } from './spam-tally.ts';
import { generator, spin, TEMPLATES } from './spun.ts';

const CURVE_PATH = join(import.meta.dirname, '..', 'data', 'spam-curve.json');
const lists: Lists = loadLists();
const prior = priorOf(readPrior());
const NONE: Counts = { ham: 0, spam: 0, tokens: new Map() };
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

// The form set.
type Line = FormSample & { found: string[] };
const form: Line[] = loadFormCorpus().map((s) => ({ ...s, found: features(s.values, lists) }));
const held = form.filter((s) => s.heldOut);
const settings = NEW_PROJECT;
function tally(
  lines: Line[],
  own: Counts,
  shared?: Deployment,
  sent: Pick<Case, 'signals' | 'language'> = {},
  expect: Partial<SpamSettings> = {},
): Tally {
  const t = emptyTally();
  for (const s of lines) {
    const { verdict } = judgeCase(
      { values: s.values, honeypot: false, found: s.found, copiesBefore: 0, ...sent },
      { ...settings, ...expect },
      modelsOf(prior, own, shared),
    );
    count(t, s.spam, verdict);
  }
  return t;
}
const add = (a: Tally, b: Tally): Tally => ({
  spam: a.spam + b.spam,
  spamHeld: a.spamHeld + b.spamHeld,
  ham: a.ham + b.ham,
  hamHeld: a.hamHeld + b.hamHeld,
  unsure: a.unsure + b.unsure,
});
const line = (t: Tally) =>
  `spam held ${t.spamHeld}/${t.spam}, genuine held ${t.hamHeld}/${t.ham}, unsure ${t.unsure}/${t.ham}`;
const ORDERS = [1, 2, 3, 4, 5];
/** An owner's first marks of an order: `k` of each kind, and the rest of the held-out lines. */
function marked(seed: number, k: number) {
  const order = shuffled(held, seed);
  const marks = [...order.filter((s) => s.spam).slice(0, k), ...order.filter((s) => !s.spam).slice(0, k)];
  const learner = new Learner();
  for (const s of marks) learner.learn(s.found, s.spam);
  return { learner, rest: held.filter((s) => !marks.includes(s)) };
}

console.log(
  `form set (data/form-corpus/, its held-out quarter: ${held.length} messages, threshold ${DEFAULT_THRESHOLD}):`,
);
console.log(`  form set: ${line(tally(held, NONE))}`);
const after30 = ORDERS.map((seed) => {
  const { learner, rest } = marked(seed, 15);
  return tally(rest, learner);
});
console.log(
  `  after 30 marks (15 each, the other ${held.length - 30} judged): ${line(after30[0] as Tally)}; over ${ORDERS.length} orders: ${line(after30.reduce(add))}`,
);
console.log('  learning curve (over five orders; marks half each):');
for (const k of [0, 5, 10, 15, 25]) {
  const t = ORDERS.map((seed) => {
    const { learner, rest } = marked(seed, k);
    return tally(rest, learner);
  }).reduce(add);
  console.log(`    ${String(2 * k).padStart(2)} marks: ${line(t)}`);
}
/** A project's owner's marks as the deployment reads them (none the operator's). */
const giver = (id: string, learner: Learner): Giver => ({
  id,
  ham: learner.ham,
  spam: learner.spam,
  tokens: new Map([...learner.tokens].map(([f, [h, s]]) => [f, [h, s, 0] as const])),
});
// The deployment: project A's owner marks 30; project B, new, takes from the deployment. C39: one
// other project's marks alone make a message at most unsure; three projects' agree.
const deployment = ORDERS.map((seed) => {
  const { learner, rest } = marked(seed, 15);
  return tally(rest, NONE, deploymentOf([giver('A', learner)], 'B'));
}).reduce(add);
console.log(
  `  a new project taking from a deployment taught 30 marks by one other project (five orders): ${line(deployment)}`,
);
const agreeing = ORDERS.map((seed) => {
  const order = shuffled(held, seed);
  const spam = order.filter((s) => s.spam).slice(0, 15);
  const ham = order.filter((s) => !s.spam).slice(0, 15);
  const givers = [0, 1, 2].map((k) => {
    const learner = new Learner();
    for (const s of [...spam.slice(5 * k, 5 * k + 5), ...ham.slice(5 * k, 5 * k + 5)])
      learner.learn(s.found, s.spam);
    return giver(`P${k}`, learner);
  });
  const rest = held.filter((s) => !spam.includes(s) && !ham.includes(s));
  return tally(rest, NONE, deploymentOf(givers, 'B'));
}).reduce(add);
console.log(
  `  a new project taking from a deployment taught the same 30 marks by three projects (10 each): ${line(agreeing)}`,
);
// C39: the form's signals that move a score (src/spam/signals.ts), on the same held-out lines of a
// new project: what each costs a genuine message, and what it adds against spam.
console.log('  the same lines with the signals that move a score (a new project):');
const SIGNALLED: [string, Pick<Case, 'signals' | 'language'>, Partial<SpamSettings>][] = [
  ['a browser through the widget', { signals: { page: true, token: 'valid' } }, {}],
  [
    'a script (curl: its user agent, no Accept-Language, no token)',
    { signals: { page: true, token: 'missing', agent: 'curl', noLanguage: true } },
    {},
  ],
  ['a browser without the widget (no token)', { signals: { page: true, token: 'missing' } }, {}],
  [
    'from a country not expected',
    { signals: { page: true, token: 'valid', country: 'RU' } },
    { countries: ['DE'] },
  ],
  [
    'in a language not expected',
    { signals: { page: true, token: 'valid' }, language: 'ru' },
    { languages: ['de'] },
  ],
  [
    'a script from a country not expected',
    { signals: { page: true, token: 'missing', agent: 'curl', noLanguage: true, country: 'RU' } },
    { countries: ['DE'] },
  ],
];
for (const [what, sent, expect] of SIGNALLED)
  console.log(`    ${what}: ${line(tally(held, NONE, undefined, sent, expect))}`);

// Calibration: among the held-out lines a new project scores in each band, the share that is spam.
// Each line scored once by the prior alone, as a new project scores it (the curve reads them too).
const formScores = held.map((s) => ({ spam: s.spam, p: score(s.found, prior, []).probability }));
const bands: [number, number][] = [
  [0, 0.1],
  [0.1, 0.3],
  [0.3, 0.5],
  [0.5, 0.7],
  [0.7, 0.9],
  [0.9, 1.01],
];
const calibration = bands.map(([lo, hi]) => {
  const inBand = formScores.filter((s) => s.p >= lo && s.p < hi);
  const spam = inBand.filter((s) => s.spam).length;
  return `${lo.toFixed(1)}–${Math.min(hi, 1).toFixed(1)}: ${spam}/${inBand.length} spam`;
});
console.log(
  `  calibration (a new project's score, the share of spam among the lines so scored): ${calibration.join('; ')}`,
);

// Campaigns: per template, one copy marked spam in project A; 20 other copies judged in project B.
let caught = 0;
let copies = 0;
Object.values(TEMPLATES).forEach((template, i) => {
  const random = generator(100 + i);
  const copy = () => ({ name: 'Sam', email: `s${random()}@x.example`, message: spin(template, random) });
  const text = campaignText(copy()) ?? '';
  const mark: CampaignMark = {
    submissionId: 'a',
    projectId: 'A',
    label: 'spam',
    shared: true,
    byOperator: false,
    signature: signature(text),
    markedAt: '2026-11-26T00:00:00.000Z',
  };
  for (let n = 0; n < 20; n++) {
    const t = campaignText(copy());
    const sig = t === undefined ? undefined : signature(t);
    copies++;
    // C39: one project's mark makes a copy unsure elsewhere; two projects' hold it.
    const second = { ...mark, submissionId: 'c', projectId: 'C' };
    if (
      sig !== undefined &&
      bandKeys(sig).length > 0 &&
      campaignOf(sig, [mark, second], 'B')?.others?.projects === 2
    )
      caught++;
  }
});
/** Each line's campaign entry, as project A's owner marking it spam leaves it (too short: none). */
const markedSpamInA = (lines: readonly Line[]): CampaignMark[] =>
  lines.flatMap((s) => {
    const t = campaignText(s.values);
    if (t === undefined) return [];
    const mark: CampaignMark = {
      submissionId: s.id,
      projectId: 'A',
      label: 'spam',
      shared: true,
      byOperator: false,
      signature: signature(t),
      markedAt: '2026-11-26T00:00:00.000Z',
    };
    return [mark];
  });
// Every spam line of the corpus marked in A: how many genuine lines would B hold as their campaign?
const spamMarks = markedSpamInA(form.filter((s) => s.spam));
const genuine = form.filter((s) => !s.spam);
const wronglyHeld = genuine.filter((s) => {
  const t = campaignText(s.values);
  return t !== undefined && campaignOf(signature(t), spamMarks, 'B') !== undefined;
}).length;
console.log(
  `  campaigns: ${caught}/${copies} spun copies held in project B after one copy marked spam in A and one in C (${Object.keys(TEMPLATES).length} pitches); genuine held as a campaign of any spam line marked: ${wronglyHeld}/${genuine.length}`,
);

// C39: one project's owner turns its marks against another. Project A marks every genuine line of
// the form corpus spam (and every spam line not spam, so that its counts weigh); project B, which
// takes from the deployment, then receives copies of those genuine lines (another sender each).
// Whatever A marks, none of B's may be held on A's word alone.
const attacker = new Learner();
for (const s of form) attacker.learn(s.found, !s.spam);
const attackMarks = markedSpamInA(genuine);
const attacked = { held: 0, unsure: 0 };
for (const s of genuine) {
  const values = { ...s.values, name: 'Robin Example', email: 'robin@example.org' };
  const t = campaignText(values);
  const { verdict } = judgeCase(
    {
      values,
      honeypot: false,
      found: features(values, lists),
      copiesBefore: 0,
      campaign: campaignOf(t === undefined ? undefined : signature(t), attackMarks, 'B'),
    },
    settings,
    modelsOf(prior, NONE, deploymentOf([giver('A', attacker)], 'B')),
  );
  if (verdict === 'spam') attacked.held++;
  if (verdict === 'unsure') attacked.unsure++;
}
console.log(
  `  one project's marks against another: genuine held ${attacked.held}/${genuine.length} (unsure ${attacked.unsure}), A having marked every genuine line spam and every spam line not spam`,
);

// SpamAssassin's held-out groups, judged by the prior alone (a fresh project).
const samples = await loadCorpus();
const { train, heldOut } = split(samples);
const mail = heldOut.map((s) => ({ spam: s.spam, found: features(s.values, lists) }));
const mailScores = mail.map((s) => ({ spam: s.spam, p: score(s.found, prior, []).probability }));
function measure(judged: { spam: boolean; p: number }[], threshold: number) {
  const isSpam = (j: { p: number }) => scoreVerdict(j.p, threshold) === 'spam';
  const ham = judged.filter((j) => !j.spam);
  const spam = judged.filter((j) => j.spam);
  const fp = ham.filter(isSpam).length;
  const tp = spam.filter(isSpam).length;
  const flagged = fp + tp;
  const recall = tp / spam.length;
  const precision = flagged === 0 ? 1 : tp / flagged;
  const f1 = recall + precision === 0 ? 0 : (2 * recall * precision) / (recall + precision);
  return { fp, ham: ham.length, recall, precision, f1 };
}
const m = measure(mailScores, DEFAULT_THRESHOLD);
console.log(
  `SpamAssassin held-out: false positives ${m.fp}/${m.ham}, recall ${pct(m.recall)}, precision ${pct(m.precision)}, F1 ${m.f1.toFixed(3)}`,
);
console.log(
  `  (prior: ${train.length} mails and ${form.length - held.length} form lines, ${prior.weights.size} weighted features; held out: ${heldOut.length}; spam from a probability of ${DEFAULT_THRESHOLD})`,
);
for (const t of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]) {
  const c = measure(mailScores, t);
  console.log(`  at ${t.toFixed(2)}: false positives ${c.fp}/${c.ham}, recall ${pct(c.recall)}`);
}
const stream = shuffled(mail, 42);
console.log('  learning curve (a fresh project; the rest of the held-out mails judged after k marks):');
for (const k of [0, 10, 25, 50, 100]) {
  const own = new Learner();
  for (const s of stream.slice(0, k)) own.learn(s.found, s.spam);
  const rest = stream.slice(k).map((s) => ({
    spam: s.spam,
    p: score(s.found, prior, [{ layer: 'project marks', counts: own }]).probability,
  }));
  const c = measure(rest, DEFAULT_THRESHOLD);
  console.log(
    `    ${String(k).padStart(3)} marks: recall ${pct(c.recall)}, false positives ${c.fp}/${c.ham}`,
  );
}

// What the dashboard's threshold slider shows at each value (data/spam-curve.json, committed).
const curve = [];
for (let t = MIN_THRESHOLD; t <= MAX_THRESHOLD + 1e-9; t = Math.round((t + 0.01) * 100) / 100) {
  const f = measure(formScores, t);
  const c = measure(mailScores, t);
  const unsure = formScores.filter((s) => !s.spam && scoreVerdict(s.p, t) === 'unsure').length;
  curve.push({
    threshold: t,
    form: { recall: Math.round(f.recall * 1000) / 1000, falsePositives: f.fp, ham: f.ham, unsure },
    mail: { recall: Math.round(c.recall * 1000) / 1000, falsePositives: c.fp, ham: c.ham },
  });
}
writeFileSync(CURVE_PATH, `${JSON.stringify(curve)}\n`);
