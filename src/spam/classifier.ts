// C39: the classifier. A message's score is a calibrated probability, in log-odds: the prior's
// (a logistic model learnt from the form corpus and the public mail corpus, scaled by its
// calibration), and on top of it, for each feature the owner's marks or the deployment's counts
// cover, their evidence (the log-ratio of the feature's share of spam and of ham among the marks).
// The most specific layer with enough evidence of a feature speaks for it: the project's marks,
// else the deployment's. Returns the probability and what each feature added, so that a verdict
// explains itself (explain: the layer that moved it most, and its strongest signals).
// C39: the deployment's evidence that a feature is spam is trusted only when at least two of the
// other projects agree, or the operator marked it so: one project's marks alone may make a message
// unsure elsewhere, never hold it. Each project weighs at most SHARED_WEIGHT marks of each kind
// there, however many it made (store/spam.ts reads them so).

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

/**
 * What the deployment's projects say of a feature beside their counts: how many of the other
 * projects agree it is spam (their own marks lean that way), whether the operator marked it spam,
 * and whether the reading project's own marks lean spam on it.
 */
export type Support = { projects: number; operator: boolean; own?: boolean };

/** The deployment's counts (each project weighing at most SHARED_WEIGHT of each kind), with who agrees. */
export type Deployment = Counts & { support: ReadonlyMap<string, Support> };

/** The layers of what a project learnt: its owner's marks, and the deployment's counts. */
export type CountedLayer = 'project marks' | 'deployment';

/** A counted layer: the deployment's comes with who agrees on each feature. */
export type Layer = { layer: 'project marks'; counts: Counts } | { layer: 'deployment'; counts: Deployment };
/** C39: besides the text's layers, what the request said and the message's language (signals.ts). */
export type ScoreLayer = CountedLayer | 'prior' | 'widget' | 'request' | 'language';

export type Signal = {
  feature: string;
  layer: ScoreLayer;
  weight: number;
  /** C39: the deployment's evidence of spam that too few projects agree on (it may not hold alone). */
  untrusted?: true;
};
export type Score = {
  /** With every layer's evidence. */
  probability: number;
  /** C39: the message's own evidence: the prior, its project's marks, and what the deployment trusts. */
  text: number;
  /** The text and the form's signals (signals.ts), without the evidence the deployment does not trust. */
  checked: number;
  /** What each feature added to the log-odds, and through which layer. */
  parts: Signal[];
};
/** Why a score points one way: the layer that moved it furthest that way, and its strongest signals. */
export type Explanation = { layer: ScoreLayer; signals: Signal[] };

/**
 * How the counted layers weigh what they saw: a layer speaks for a feature it has seen at least
 * `minEvidence` times; a feature's evidence among the marks is multiplied by `markWeight` (in
 * log-odds); together they move a score at most `maxCounted`, however many features they cover.
 * Chosen on the form corpus's training lines alone, each fold judged by a prior that never saw it
 * (`npm run bench:spam-tune`); the held-out quarter only measures the choice (`npm run bench:spam`).
 */
export type Tuning = { minEvidence: number; markWeight: number; maxCounted: number };
export const TUNING: Tuning = { minEvidence: 3, markWeight: 1, maxCounted: 3 };
export const MAX_COUNTED = TUNING.maxCounted;
/** Laplace's pseudo-count for a feature's share among the marks. */
const PSEUDO = 1;
/** C39: the most marks of each kind one project weighs in the deployment's counts. */
export const SHARED_WEIGHT = 50;
/** C39: the deployment's evidence of spam holds only when this many other projects agree (or the operator). */
export const AGREEING_PROJECTS = 2;

/** One project's marks as the deployment reads them: its totals, and per feature [ham, spam, the operator's spam]. */
export type Giver = {
  id: string;
  ham: number;
  spam: number;
  tokens: ReadonlyMap<string, readonly [ham: number, spam: number, operatorSpam: number]>;
  /** It gives to the deployment (`both`; the default). The reader's own marks count for its trust either way. */
  gives?: boolean;
};

/** A project's marks of a feature lean spam: its share of the project's spam above its share of its ham. */
export const leansSpam = (seen: readonly [number, number], ham: number, spam: number) =>
  seen[1] > 0 && (seen[1] + PSEUDO) / (spam + 2 * PSEUDO) > (seen[0] + PSEUDO) / (ham + 2 * PSEUDO);

/**
 * C39: the deployment as a project reads it: the marks of the projects that give, each project's
 * weighing at most SHARED_WEIGHT marks of each kind (in proportion), with how many of the others
 * lean spam on each feature, whether the operator marked it spam, and whether the reader's own
 * marks lean spam on it (they hold in its own project at once). store/spam.ts reads the same in
 * SQL; this is its reference (the tests hold them equal) and the benchmark's.
 */
export function deploymentOf(givers: readonly Giver[], self: string): Deployment {
  const tokens = new Map<string, [number, number]>();
  const support = new Map<string, Support>();
  let ham = 0;
  let spam = 0;
  for (const g of givers) {
    const gives = g.gives !== false;
    if (!gives && g.id !== self) continue;
    const wHam = Math.min(1, SHARED_WEIGHT / Math.max(g.ham, 1));
    const wSpam = Math.min(1, SHARED_WEIGHT / Math.max(g.spam, 1));
    if (gives) {
      ham += Math.min(g.ham, SHARED_WEIGHT);
      spam += Math.min(g.spam, SHARED_WEIGHT);
    }
    for (const [feature, [h, s, operator]] of g.tokens) {
      const c = tokens.get(feature) ?? [0, 0];
      if (gives) {
        c[0] += h * wHam;
        c[1] += s * wSpam;
      }
      tokens.set(feature, c);
      const was = support.get(feature) ?? { projects: 0, operator: false };
      const agrees = s > operator && leansSpam([h, s], g.ham, g.spam);
      const own = g.id === self ? agrees : was.own === true;
      support.set(feature, {
        projects: was.projects + (gives && agrees && g.id !== self ? 1 : 0),
        operator: was.operator || (gives && operator > 0 && s > 0),
        ...(own ? { own } : {}),
      });
    }
  }
  return { ham, spam, tokens, support };
}

/** Whether the deployment's support of a feature as spam may hold a message. */
export const trusted = (s: Support | undefined) =>
  s !== undefined && (s.own === true || s.operator || s.projects >= AGREEING_PROJECTS);

const logistic = (z: number) => 1 / (1 + Math.exp(-z));

/** The evidence of a feature among counts: its log-ratio of shares, or undefined when they say too little. */
export function evidence(feature: string, counts: Counts, tuning: Tuning = TUNING): number | undefined {
  if (counts.ham <= 0 || counts.spam <= 0) return undefined;
  const seen = counts.tokens.get(feature);
  if (seen === undefined || seen[0] + seen[1] < tuning.minEvidence) return undefined;
  const spamShare = (seen[1] + PSEUDO) / (counts.spam + 2 * PSEUDO);
  const hamShare = (seen[0] + PSEUDO) / (counts.ham + 2 * PSEUDO);
  return tuning.markWeight * Math.log(spamShare / hamShare);
}

/** The most specific layer with enough evidence of a feature, its evidence, and whether it may hold. */
function cover(feature: string, layers: readonly Layer[], tuning: Tuning) {
  for (const l of layers) {
    const weight = evidence(feature, l.counts, tuning);
    if (weight === undefined) continue;
    // Evidence towards ham never holds anyone: only spam's needs agreement.
    const untrusted = l.layer === 'deployment' && weight > 0 && !trusted(l.counts.support.get(feature));
    return { layer: l.layer, weight, untrusted };
  }
  return undefined;
}

/**
 * The score of a message's features under the prior and the counted layers (most specific first).
 * A feature a layer covers is weighed by that layer alone, the prior's weight of it set aside: what
 * an owner marked outweighs what the prior learnt elsewhere. `extra`: what the form's signals add
 * (signals.ts), each a part of the score like a feature. C39: the deployment's untrusted evidence
 * of a feature counts in `probability` only; `text` and `checked` weigh that feature by the prior.
 */
export function score(
  found: readonly string[],
  prior: Prior,
  layers: readonly Layer[],
  extra: readonly Signal[] = [],
  tuning: Tuning = TUNING,
): Score {
  const clampCounted = (z: number) => Math.max(-tuning.maxCounted, Math.min(tuning.maxCounted, z));
  const [a, b] = prior.calibration;
  let z = a * prior.bias + b;
  // The prior's part of what untrusted evidence replaces, for the text's own score.
  let replaced = 0;
  const parts: Signal[] = [];
  let counted = 0;
  let countedTrusted = 0;
  for (const feature of new Set(found)) {
    const covered = prior.common.has(feature) ? undefined : cover(feature, layers, tuning);
    const w = prior.weights.get(feature);
    const priorPart = w === undefined ? 0 : a * w;
    if (covered !== undefined) {
      counted += covered.weight;
      if (covered.untrusted) {
        replaced += priorPart;
        parts.push({ feature, layer: covered.layer, weight: covered.weight, untrusted: true });
      } else {
        countedTrusted += covered.weight;
        parts.push({ feature, layer: covered.layer, weight: covered.weight });
      }
      continue;
    }
    if (priorPart !== 0) {
      z += priorPart;
      parts.push({ feature, layer: 'prior', weight: priorPart });
    }
  }
  const text = z + replaced + clampCounted(countedTrusted);
  const signals = extra.reduce((sum, part) => sum + part.weight, 0);
  parts.push(...extra);
  return {
    probability: logistic(z + clampCounted(counted) + signals),
    text: logistic(text),
    checked: logistic(text + signals),
    parts,
  };
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
