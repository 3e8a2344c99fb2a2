// C39: a submission's verdict, layer by layer: its honeypot, its owner's allow and block lists, the
// same text sent again, a campaign marked before, then the classifier. Shared evidence and the
// form's signals are evidence, not verdicts: what one other project marked, or how a person filled
// the form, makes a message at most unsure; it holds only when two other projects or the operator
// agree, or when the message's own text leans spam too. Pure: the consumer (src/jobs/verdicts.ts)
// reads what it needs from D1 and the model, and writes what this returns.
import {
  AGREEING_PROJECTS,
  type Counts,
  type Deployment,
  explain,
  type Layer,
  type Prior,
  type Signal,
  type Support,
  score,
  type Tuning,
  trusted,
} from './classifier.ts';
import { normalise } from './features.ts';
import {
  type ListEntry,
  type SpamLayer,
  type SpamReason,
  type SpamSettings,
  unsureFrom,
  type Verdict,
} from './settings.ts';
import { heldBy, type Reuse, type Signals, signalParts } from './signals.ts';

export type Judgement = { verdict: Verdict; score: number | null; reason: SpamReason | null };

/** What a project is judged with: the prior, and what it takes of its marks and the deployment's counts. */
export type Models = { prior: Prior; layers: readonly Layer[]; tuning?: Tuning };

/** C39: a project's models: the prior, its owner's marks, and (when it takes from it) the other projects' counts. */
export const modelsOf = (prior: Prior, own: Counts, shared?: Deployment): Models => ({
  prior,
  layers: [
    { layer: 'project marks', counts: own },
    ...(shared === undefined ? [] : [{ layer: 'deployment' as const, counts: shared }]),
  ],
});

/** The nearest message its own project marked, when it is the same campaign (spam/campaign.ts). */
export type OwnMatch = { label: 'spam' | 'ham'; similarity: number; markedAt: string };

/**
 * The campaign a message belongs to: the nearest copy its own project marked, and which other
 * projects (that give to the deployment) marked copies of it spam.
 */
export type CampaignMatch = { own?: OwnMatch | undefined; others?: Support | undefined };

/** What the consumer knows of one submission. */
export type Case = {
  values: Record<string, unknown>;
  /** It filled the project's honeypot (C22). */
  honeypot: boolean;
  /** Its features (features.ts). */
  found: readonly string[];
  /** How many of the project's submissions of the last day carried the same text before it. */
  copiesBefore: number;
  /** The nearest marked message of the same campaign, if any. */
  campaign?: CampaignMatch | undefined;
  /** What its request said (signals.ts), and whether its token or proof was used before. */
  signals?: Signals | undefined;
  reuse?: Reuse;
  /** Its language, when the project expects others and it is surely none of them. */
  language?: string | undefined;
};

/** The third copy of the same text within a day is spam: two may be a person sending again. */
export const DUPLICATE_COPIES = 3;
/** Text with fewer letters than this is never a duplicate: a poll's answers are alike by design. */
export const DUPLICATE_MIN_LETTERS = 20;
/** How many signals a reason names. */
export const SIGNALS = 3;

const ADDRESS = /^[^\s@]+@[^\s@]+$/u;

/** The text of the values that a duplicate is compared by (addresses aside), or undefined when too little. */
export function comparedText(values: Record<string, unknown>): string | undefined {
  const parts: string[] = [];
  for (const value of Object.values(values)) {
    if (typeof value === 'string' && !ADDRESS.test(value.trim()))
      parts.push(normalise(value).replace(/\s+/gu, ' ').trim());
  }
  const text = parts.join('\n');
  return (text.match(/\p{L}/gu) ?? []).length >= DUPLICATE_MIN_LETTERS ? text : undefined;
}

const label = (e: ListEntry) => `${e.kind} ${e.value}`;

/** The first entry of a list that the submission matches: an address it gives, a domain of one of its addresses or links, a phrase of its text. */
export function matchList(
  entries: readonly ListEntry[],
  c: Pick<Case, 'values' | 'found'>,
): ListEntry | undefined {
  if (entries.length === 0) return undefined;
  const strings = Object.values(c.values).filter((v): v is string => typeof v === 'string');
  const addresses = new Set(strings.map((s) => s.trim().toLowerCase()).filter((s) => ADDRESS.test(s)));
  const domains = new Set<string>();
  for (const f of c.found) {
    if (f.startsWith('link domain ')) domains.add(f.slice('link domain '.length));
    else if (f.startsWith('address domain ')) domains.add(f.slice('address domain '.length));
  }
  let text: string | undefined;
  return entries.find((e) => {
    const value = e.value.trim().toLowerCase();
    if (e.kind === 'address') return addresses.has(value);
    if (e.kind === 'domain') return domains.has(value.replace(/^@/, ''));
    text ??= strings.map(normalise).join('\n');
    return value !== '' && text.includes(normalise(value));
  });
}

function verdictOf(layer: SpamLayer, spam: boolean, signals: string[]): Judgement {
  return { verdict: spam ? 'spam' : 'ham', score: spam ? 1 : 0, reason: { layer, signals } };
}

/** The classifier's verdict on a probability, under a project's threshold. */
export function scoreVerdict(probability: number, threshold: number): Verdict {
  if (probability >= threshold) return 'spam';
  return probability >= unsureFrom(threshold) ? 'unsure' : 'ham';
}

/** How a copy of a message its own project marked reads in a reason. */
export function campaignSignal(m: OwnMatch): string {
  const marked = m.label === 'spam' ? 'marked spam' : 'marked not spam';
  return `${Math.round(m.similarity * 100)}% like a message ${marked} in this project on ${m.markedAt.slice(0, 10)}`;
}

/**
 * C39: how the other projects' agreement reads in a reason: how many, never which, when, or how
 * alike to one message.
 */
export function agreement(s: Support): string {
  if (s.operator && s.projects < AGREEING_PROJECTS) return 'like spam the operator marked on this deployment';
  return `like spam marked by ${s.projects} project${s.projects === 1 ? '' : 's'} on this deployment`;
}

/** What a reason says when signals made a message unsure that its text alone does not lean spam. */
export const SIGNALS_ALONE = 'signals alone hold nobody';

/**
 * The least agreement behind the deployment's evidence of spam among the parts a reason names: of
 * those a spam verdict held on (trusted), or of all for an unsure one.
 */
function agreementOf(named: readonly Signal[], models: Models, held: boolean): Support | undefined {
  const deployment = models.layers.find((l) => l.layer === 'deployment');
  if (deployment?.layer !== 'deployment') return undefined;
  let least: Support | undefined;
  for (const p of named) {
    if (p.layer !== 'deployment' || p.weight <= 0 || (held && p.untrusted)) continue;
    const s = deployment.counts.support.get(p.feature) ?? { projects: 0, operator: false };
    // What the project's own marks say is its own, not the others' agreement.
    if (s.own === true && s.projects === 0 && !s.operator) continue;
    if (least === undefined || s.projects < least.projects) least = s;
  }
  return least;
}

/** The verdict on one submission under its project's settings. */
export function judge(c: Case, settings: SpamSettings, models: Models): Judgement {
  if (c.honeypot) return verdictOf('honeypot', true, []);
  if (settings.mode === 'off') return { verdict: 'none', score: null, reason: null };
  const allowed = matchList(settings.allow, c);
  if (allowed !== undefined) return verdictOf('allow list', false, [label(allowed)]);
  const blocked = matchList(settings.block, c);
  if (blocked !== undefined) return verdictOf('block list', true, [label(blocked)]);
  const held = heldBy(c.signals, settings, c.reuse ?? { token: false, pow: false });
  if (held !== undefined) return verdictOf(held.layer, true, [held.signal]);
  if (c.copiesBefore + 1 >= DUPLICATE_COPIES) {
    return verdictOf('duplicate', true, [`the same text ${c.copiesBefore + 1} times in a day`]);
  }
  const own = c.campaign?.own;
  if (own !== undefined) return verdictOf('campaign', own.label === 'spam', [campaignSignal(own)]);
  const others = c.campaign?.others;
  if (others !== undefined && trusted(others)) return verdictOf('campaign', true, [agreement(others)]);
  const extra = signalParts(c.signals, settings, c.language);
  const s = score(c.found, models.prior, models.layers, extra, models.tuning);
  const threshold = settings.threshold;
  const probability = Math.max(s.probability, s.checked);
  // C39: spam only on evidence the project trusts, and never on how the form was sent alone: its
  // text must lean spam too (at least unsure), unless its owner chose the strict widget.
  const holds = s.checked >= threshold && (s.text >= unsureFrom(threshold) || settings.requireWidget);
  // Otherwise what the score says, but never spam: unsure at most.
  const scored = scoreVerdict(probability, threshold);
  const verdict: Verdict = holds ? 'spam' : scored === 'ham' ? 'ham' : 'unsure';
  // The signals that point the way of the verdict: towards spam unless it is ham.
  const { layer, signals } = explain(s.parts, verdict !== 'ham', SIGNALS);
  const named = signals.map((p) => p.feature);
  // C39: every signal of the form's own that moved it the verdict's way is named, however little
  // it weighed beside the text's strongest.
  for (const p of extra)
    if (p.weight > 0 && verdict !== 'ham' && !named.includes(p.feature)) named.push(p.feature);
  if (verdict !== 'ham') {
    const agreed = agreementOf(signals, models, verdict === 'spam');
    if (agreed !== undefined) named.push(agreement(agreed));
    if (verdict === 'unsure' && s.checked >= threshold && s.text < unsureFrom(threshold))
      named.push(SIGNALS_ALONE);
  }
  const judged: Judgement = { verdict, score: probability, reason: { layer, signals: named } };
  // C39: a campaign only one other project marked makes its copies unsure at least, never spam.
  if (others !== undefined && verdict === 'ham')
    return {
      verdict: 'unsure',
      score: Math.max(probability, unsureFrom(threshold)),
      reason: { layer: 'campaign', signals: [agreement(others)] },
    };
  if (others !== undefined && verdict === 'unsure') named.push(agreement(others));
  return judged;
}
