// C39: the classifier. A message's score is a calibrated probability, in log-odds: the prior's
// (a logistic model learnt from the form corpus and the public mail corpus, scaled by its
// calibration), and on top of it, for each feature the owner's marks or the deployment's counts
// cover, their evidence (the log-ratio of the feature's share of spam and of ham among the marks).
// The most specific layer with enough evidence of a feature speaks for it: the project's marks,
// else the deployment's. Returns the probability and what each feature added, so that a verdict
// explains itself (explain: the layer that moved it most, and its strongest signals).

/** How often a feature was seen in ham and in spam, and how many of each were seen in all. */
export type Counts = {
  ham: number;
  spam: number;
  tokens: ReadonlyMap<string, readonly [ham: number, spam: number]>;
};

/** The logistic prior (spam/model.ts reads it from the asset). */
export type Prior = {
  bias: number;
  /** Platt's a and b: the probability is logistic(a·z + b) for the model's log-odds z. */
  calibration: readonly [number, number];
  /** Features in a twentieth of all training lines or more: the counted layers never weigh them. */
  common: ReadonlySet<string>;
  weights: ReadonlyMap<string, number>;
};

/** The layers of what a project learnt: its owner's marks, and the deployment's counts. */
export type CountedLayer = 'project marks' | 'deployment';
/** C39: besides the text's layers, what the request said and the message's language (signals.ts). */
export type ScoreLayer = CountedLayer | 'prior' | 'request' | 'language';

export type Signal = { feature: string; layer: ScoreLayer; weight: number };
export type Score = {
  probability: number;
  /** What each feature added to the log-odds, and through which layer. */
  parts: Signal[];
};
/** Why a score points one way: the layer that moved it furthest that way, and its strongest signals. */
export type Explanation = { layer: ScoreLayer; signals: Signal[] };

/** A layer speaks for a feature it has seen at least this often. */
export const MIN_EVIDENCE = 3;
/** How much a feature's evidence among the marks weighs, in log-odds (measured: bench/spam.ts). */
export const MARK_WEIGHT = 1;
/** The most the counted layers move a score, in log-odds, however many features they cover. */
export const MAX_COUNTED = 3;
/** Laplace's pseudo-count for a feature's share among the marks. */
const PSEUDO = 1;

const logistic = (z: number) => 1 / (1 + Math.exp(-z));

/** The evidence of a feature among counts: its log-ratio of shares, or undefined when they say too little. */
export function evidence(feature: string, counts: Counts): number | undefined {
  if (counts.ham <= 0 || counts.spam <= 0) return undefined;
  const seen = counts.tokens.get(feature);
  if (seen === undefined || seen[0] + seen[1] < MIN_EVIDENCE) return undefined;
  const spamShare = (seen[1] + PSEUDO) / (counts.spam + 2 * PSEUDO);
  const hamShare = (seen[0] + PSEUDO) / (counts.ham + 2 * PSEUDO);
  return MARK_WEIGHT * Math.log(spamShare / hamShare);
}

/** The most specific layer with enough evidence of a feature, and its evidence. */
function cover(feature: string, layers: readonly { layer: CountedLayer; counts: Counts }[]) {
  for (const { layer, counts } of layers) {
    const weight = evidence(feature, counts);
    if (weight !== undefined) return { layer, weight };
  }
  return undefined;
}

/**
 * The score of a message's features under the prior and the counted layers (most specific first).
 * A feature a layer covers is weighed by that layer alone, the prior's weight of it set aside: what
 * an owner marked outweighs what the prior learnt elsewhere. `extra`: what the form's signals add
 * (signals.ts), each a part of the score like a feature.
 */
export function score(
  found: readonly string[],
  prior: Prior,
  layers: readonly { layer: CountedLayer; counts: Counts }[],
  extra: readonly Signal[] = [],
): Score {
  const [a, b] = prior.calibration;
  let z = a * prior.bias + b;
  const parts: Signal[] = [];
  let counted = 0;
  for (const feature of new Set(found)) {
    const covered = prior.common.has(feature) ? undefined : cover(feature, layers);
    if (covered !== undefined) {
      counted += covered.weight;
      parts.push({ feature, ...covered });
      continue;
    }
    const w = prior.weights.get(feature);
    if (w !== undefined && w !== 0) {
      z += a * w;
      parts.push({ feature, layer: 'prior', weight: a * w });
    }
  }
  z += Math.max(-MAX_COUNTED, Math.min(MAX_COUNTED, counted));
  for (const part of extra) {
    z += part.weight;
    parts.push(part);
  }
  return { probability: logistic(z), parts };
}

/** What moved a score towards spam (or towards ham): the layer that moved it most, and its `top` signals. */
export function explain(parts: readonly Signal[], towardSpam: boolean, top = 3): Explanation {
  const toward = parts
    .filter((p) => (towardSpam ? p.weight > 0 : p.weight < 0))
    .sort((x, y) => Math.abs(y.weight) - Math.abs(x.weight) || (x.feature < y.feature ? -1 : 1));
  const moved = new Map<ScoreLayer, number>();
  for (const p of toward) moved.set(p.layer, (moved.get(p.layer) ?? 0) + Math.abs(p.weight));
  const layer = [...moved].sort((x, y) => y[1] - x[1])[0]?.[0] ?? 'prior';
  return { layer, signals: toward.slice(0, top) };
}

/** Counts that learn: one message's features added (or taken back, `sign` -1) as ham or spam. */
export class Learner {
  ham = 0;
  spam = 0;
  readonly tokens = new Map<string, [number, number]>();
  learn(found: readonly string[], isSpam: boolean, sign: 1 | -1 = 1): void {
    if (isSpam) this.spam += sign;
    else this.ham += sign;
    for (const f of new Set(found)) {
      const c = this.tokens.get(f) ?? [0, 0];
      c[isSpam ? 1 : 0] += sign;
      if (c[0] <= 0 && c[1] <= 0) this.tokens.delete(f);
      else this.tokens.set(f, c);
    }
  }
}
