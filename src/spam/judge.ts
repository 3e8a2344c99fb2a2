// C39: a submission's verdict, layer by layer: its honeypot, its owner's allow and block lists, the
// same text sent again, a campaign marked before, then the classifier. Pure: the consumer
// (src/jobs/verdicts.ts) reads what it needs from D1 and the model, and writes what this returns.
import { type CountedLayer, type Counts, explain, type Prior, score } from './classifier.ts';
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
export type Models = { prior: Prior; layers: readonly { layer: CountedLayer; counts: Counts }[] };

/** C39: a project's models: the prior, its owner's marks, and (when it takes from it) the deployment's counts. */
export const modelsOf = (prior: Prior, own: Counts, shared?: Counts): Models => ({
  prior,
  layers: [
    { layer: 'project marks', counts: own },
    ...(shared === undefined ? [] : [{ layer: 'deployment' as const, counts: shared }]),
  ],
});

/** The nearest message marked before, when it is the same campaign (spam/campaign.ts). */
export type CampaignMatch = {
  label: 'spam' | 'ham';
  similarity: number;
  markedAt: string;
  /** Marked in this project, or in another that gives to the deployment. */
  own: boolean;
};

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

/** How a campaign match reads in a reason. */
export function campaignSignal(m: CampaignMatch): string {
  const marked = m.label === 'spam' ? 'marked spam' : 'marked not spam';
  const where = m.own ? 'in this project' : 'in another project';
  return `${Math.round(m.similarity * 100)}% like a message ${marked} ${where} on ${m.markedAt.slice(0, 10)}`;
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
  if (c.campaign !== undefined) {
    return verdictOf('campaign', c.campaign.label === 'spam', [campaignSignal(c.campaign)]);
  }
  const extra = signalParts(c.signals, settings, c.language);
  const { probability, parts } = score(c.found, models.prior, models.layers, extra);
  const verdict = scoreVerdict(probability, settings.threshold);
  // The signals that point the way of the verdict: towards spam unless it is ham.
  const { layer, signals } = explain(parts, verdict !== 'ham', SIGNALS);
  const named = signals.map((s) => s.feature);
  // C39: every signal of the form's own that moved it the verdict's way is named, however little
  // it weighed beside the text's strongest.
  for (const p of extra)
    if (p.weight > 0 && verdict !== 'ham' && !named.includes(p.feature)) named.push(p.feature);
  return { verdict, score: probability, reason: { layer, signals: named } };
}
