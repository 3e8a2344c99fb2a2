// C39: the prior: a logistic model learnt once, by `npm run build:spam-prior`, from the training
// shares of two corpora: the form corpus (data/form-corpus/, written for this project: the world
// a form lives in) and SpamAssassin's public corpus (toolkit/spam-corpus.ts: easy-ham-1, spam-1, the
// first half of hard-ham-1), each mail counting PRIOR_MAIL_WEIGHT of a form message. Never the
// held-out lines of either. Its scores are calibrated (Platt) on the form corpus's training lines,
// each scored by a model that never learnt it (five folds), so that a score is a probability whose
// meaning the held-out lines measure. Written to data/spam-prior.json, committed (a test holds it
// to what this script makes); `npm run build:assets` ships it, with the lists, as the asset the
// worker reads (spam/model.json), never in the worker's bundle.
import { writeFileSync } from 'node:fs';
import { features, type Lists } from '../src/spam/features.ts';
import type { PriorFile } from '../src/spam/model.ts';
import { loadFormCorpus } from '../toolkit/form-corpus.ts';
import { loadCorpus, split } from '../toolkit/spam-corpus.ts';
import { loadLists, PRIOR_PATH } from '../toolkit/spam-lists.ts';

/** A feature seen fewer times than this in the training lines gets no weight: it could say little. */
export const MIN_SIGHTINGS = 3;
/**
 * Features the prior never weighs: who sent a message and where it links. The corpora's domains
 * are mailing lists of 2002 and the fictional hosts of our own examples; a project still learns
 * its own senders' and links' domains from its owner's marks.
 */
export const NOT_IN_PRIOR = /^(?:address|link) domain /;
/** What one mail of the public corpus counts for, beside one form message. */
export const PRIOR_MAIL_WEIGHT = 0.3;
/**
 * Features found in at least this share of the training lines (a twentieth) are common: the owner's marks and
 * the deployment's counts never weigh them (spam/classifier.ts), since a few marks of short notes
 * against long pitches would otherwise call "your" and "we" spam.
 */
export const COMMON_SHARE = 0.05;
const L2 = 0.001;
const EPOCHS = 15;
const FOLDS = 5;

type Line = { found: number[]; spam: boolean; weight: number };

/** A seeded shuffle (the same model on every machine). */
function shuffle<T>(items: T[], seed: number): void {
  let state = seed;
  for (let i = items.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}

/** Logistic regression by stochastic gradient descent with L2, over feature indices. */
function learnLogistic(lines: Line[], size: number): { bias: number; weights: Float64Array } {
  const weights = new Float64Array(size);
  let bias = 0;
  const order = [...lines];
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    shuffle(order, epoch + 1);
    const rate = 0.1 / (1 + epoch * 0.2);
    for (const { found, spam, weight } of order) {
      let z = bias;
      for (const i of found) z += weights[i] ?? 0;
      const gradient = (1 / (1 + Math.exp(-z)) - (spam ? 1 : 0)) * weight;
      bias -= rate * gradient;
      for (const i of found) {
        const w = weights[i] ?? 0;
        weights[i] = w - rate * (gradient + L2 * w);
      }
    }
  }
  return { bias, weights };
}

const logistic = (z: number) => 1 / (1 + Math.exp(-z));

/** Platt's scaling: a and b such that logistic(a·z + b) is the share of spam among lines scored z. */
function platt(scored: { z: number; spam: boolean }[]): [number, number] {
  let a = 1;
  let b = 0;
  for (let step = 0; step < 5000; step++) {
    let ga = 0;
    let gb = 0;
    for (const { z, spam } of scored) {
      const error = logistic(a * z + b) - (spam ? 1 : 0);
      ga += error * z;
      gb += error;
    }
    a -= (0.05 * ga) / scored.length;
    b -= (0.05 * gb) / scored.length;
  }
  return [a, b];
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** The public corpus, parsed once per process (a tuning run trains many priors). */
let mails: ReturnType<typeof loadCorpus> | undefined;

/** The form corpus's lines the prior may learn from: never a held-out one. */
export const formTraining = <T extends { heldOut: boolean }>(lines: readonly T[]): T[] =>
  lines.filter((s) => !s.heldOut);

/**
 * The prior learnt from the training lines, in its file's form (features in order); `without`: form
 * lines (by id) left out as well, for a model that never saw them (bench/spam-tune.ts).
 */
export async function trainPrior(
  lists: Lists = loadLists(),
  without: ReadonlySet<string> = new Set(),
): Promise<PriorFile> {
  const form = formTraining(loadFormCorpus())
    .filter((s) => !without.has(s.id))
    .map((s) => ({
      found: features(s.values, lists),
      spam: s.spam,
      weight: 1,
    }));
  mails ??= loadCorpus();
  const mail = split(await mails).train.map((s) => ({
    found: features(s.values, lists),
    spam: s.spam,
    weight: PRIOR_MAIL_WEIGHT,
  }));
  const all = [...form, ...mail];
  const sightings = new Map<string, number>();
  for (const line of all) for (const f of line.found) sightings.set(f, (sightings.get(f) ?? 0) + 1);
  const kept = [...sightings]
    .filter(([f, n]) => n >= MIN_SIGHTINGS && !NOT_IN_PRIOR.test(f))
    .map(([f]) => f)
    .sort();
  const index = new Map(kept.map((f, i) => [f, i]));
  const indexed = (lines: typeof all): Line[] =>
    lines.map((l) => ({
      ...l,
      found: l.found.map((f) => index.get(f)).filter((i): i is number => i !== undefined),
    }));
  const formLines = indexed(form);
  const mailLines = indexed(mail);
  // Each form line scored by a model learnt without it: what calibration may learn from.
  const scored: { z: number; spam: boolean }[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const model = learnLogistic(
      [...formLines.filter((_, i) => i % FOLDS !== fold), ...mailLines],
      kept.length,
    );
    formLines.forEach((line, i) => {
      if (i % FOLDS !== fold) return;
      let z = model.bias;
      for (const f of line.found) z += model.weights[f] ?? 0;
      scored.push({ z, spam: line.spam });
    });
  }
  const [a, b] = platt(scored);
  const model = learnLogistic([...formLines, ...mailLines], kept.length);
  const weights: PriorFile['weights'] = {};
  kept.forEach((f, i) => {
    const w = round(model.weights[i] ?? 0);
    if (w !== 0) weights[f] = w;
  });
  const common = [...sightings]
    .filter(([, n]) => n >= COMMON_SHARE * all.length)
    .map(([f]) => f)
    .sort();
  return { bias: round(model.bias), calibration: [round(a), round(b)], common, weights };
}

/** The file's text: one feature per line, so that a change to the features reads as a diff. */
export function priorText(prior: PriorFile): string {
  const lines = Object.entries(prior.weights).map(([f, w]) => `${JSON.stringify(f)}:${w}`);
  const head = `"bias":${prior.bias},"calibration":${JSON.stringify(prior.calibration)},"common":${JSON.stringify(prior.common)}`;
  return `{${head},"weights":{\n${lines.join(',\n')}\n}}\n`;
}

if (import.meta.main) {
  const prior = await trainPrior();
  writeFileSync(PRIOR_PATH, priorText(prior));
  console.log(
    `data/spam-prior.json: ${Object.keys(prior.weights).length} weighted features, ${prior.common.length} common, calibration ${prior.calibration.join(', ')}`,
  );
}
