// C39: the classifier: Robinson's per-token probabilities with Fisher's chi-squared combining (as
// SpamAssassin's Bayes and SpamBayes), over the counts of a shared prior and of the project's own
// marks, the project's weighing more. Returns a score from 0 (ham) to 1 (spam) and the strongest
// signals each way, so that a verdict explains itself.

/** How often a token was seen in ham and in spam, and how many of each were seen in all. */
export type Counts = {
  ham: number;
  spam: number;
  tokens: ReadonlyMap<string, readonly [ham: number, spam: number]>;
};

export type Signal = { feature: string; p: number };
/** `strong`: how many of the clues combined say spam at least as surely as STRONG. */
export type Verdict = { score: number; signals: Signal[]; strong: number };

/** Robinson's strength of the prior belief, and the belief itself, for a token seen rarely. */
const S = 0.45;
const X = 0.5;
/** Tokens nearer than this to 0.5 say nothing, and are left out. */
const MIN_DEV = 0.1;
/** At most this many of the most telling tokens are combined. */
const MAX_CLUES = 150;
/** A clue this sure of spam is strong: a verdict of spam needs several (judge.ts, MIN_STRONG_CLUES). */
export const STRONG = 0.9;
/** A mark of the project's owner counts as this many messages of the prior. */
export const OWN_WEIGHT = 5;

/** 1 minus the chi-squared distribution function, for an even number of degrees of freedom. */
export function chi2Q(x2: number, degrees: number): number {
  const m = x2 / 2;
  let term = Math.exp(-m);
  let sum = term;
  for (let i = 1; i < degrees / 2; i++) {
    term *= m / i;
    sum += term;
  }
  return Math.min(sum, 1);
}

/** The probability that a message holding this token is spam, from the counts given. */
export function tokenProbability(feature: string, models: readonly { counts: Counts; weight: number }[]) {
  let ham = 0;
  let spam = 0;
  let nHam = 0;
  let nSpam = 0;
  for (const { counts, weight } of models) {
    const seen = counts.tokens.get(feature);
    if (seen !== undefined) {
      ham += seen[0] * weight;
      spam += seen[1] * weight;
    }
    nHam += counts.ham * weight;
    nSpam += counts.spam * weight;
  }
  const n = ham + spam;
  if (n === 0 || nHam === 0 || nSpam === 0) return undefined;
  const hamRatio = ham / nHam;
  const spamRatio = spam / nSpam;
  const p = spamRatio / (hamRatio + spamRatio);
  return (S * X + n * p) / (S + n);
}

/** The score of a message's features, and its strongest signals (`top` each way, most telling first). */
export function classify(
  found: readonly string[],
  models: readonly { counts: Counts; weight: number }[],
  top = 3,
): Verdict {
  const clues: Signal[] = [];
  for (const feature of found) {
    const p = tokenProbability(feature, models);
    if (p !== undefined && Math.abs(p - 0.5) >= MIN_DEV) clues.push({ feature, p });
  }
  clues.sort((a, b) => Math.abs(b.p - 0.5) - Math.abs(a.p - 0.5) || (a.feature < b.feature ? -1 : 1));
  const used = clues.slice(0, MAX_CLUES);
  if (used.length === 0) return { score: 0.5, signals: [], strong: 0 };
  let lnHam = 0;
  let lnSpam = 0;
  for (const { p } of used) {
    // Kept off 0 and 1: one token never decides alone.
    const q = Math.min(Math.max(p, 0.001), 0.999);
    lnHam += Math.log(q);
    lnSpam += Math.log(1 - q);
  }
  const n = used.length;
  const hamminess = 1 - chi2Q(-2 * lnHam, 2 * n);
  const spamminess = 1 - chi2Q(-2 * lnSpam, 2 * n);
  const score = (1 + spamminess - hamminess) / 2;
  const signals = [
    ...used.filter((c) => c.p > 0.5).slice(0, top),
    ...used.filter((c) => c.p < 0.5).slice(0, top),
  ];
  return { score, signals, strong: used.filter((c) => c.p >= STRONG).length };
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
