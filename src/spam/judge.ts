// C39: a submission's verdict, layer by layer: its honeypot, its owner's allow and block lists, the
// same text sent again, then the classifier. Pure: the consumer (src/jobs/verdicts.ts) reads what
// it needs from D1 and the model, and writes what this returns.
import { type Counts, classify, OWN_WEIGHT } from './classifier.ts';
import { normalise } from './features.ts';
import {
  HAM_CUTOFF,
  type ListEntry,
  type SpamLayer,
  type SpamReason,
  type SpamSettings,
  type Verdict,
} from './settings.ts';

export type Judgement = { verdict: Verdict; score: number | null; reason: SpamReason | null };

/** The classifier's models: the prior, and the project's own marks weighing more (OWN_WEIGHT). */
export type Models = readonly { counts: Counts; weight: number }[];

/** C39: the layers a project's submissions are judged by: the prior, and its owner's marks, each counted as OWN_WEIGHT messages. */
export const layers = (prior: Counts, own: Counts): Models => [
  { counts: prior, weight: 1 },
  { counts: own, weight: OWN_WEIGHT },
];

/** What the consumer knows of one submission. */
export type Case = {
  values: Record<string, unknown>;
  /** It filled the project's honeypot (C22). */
  honeypot: boolean;
  /** Its features (features.ts). */
  found: readonly string[];
  /** How many of the project's submissions of the last day carried the same text before it. */
  copiesBefore: number;
};

/** The third copy of the same text within a day is spam: two may be a person sending again. */
export const DUPLICATE_COPIES = 3;
/** Text with fewer letters than this is never a duplicate: a poll's answers are alike by design. */
export const DUPLICATE_MIN_LETTERS = 20;
/**
 * The classifier calls nothing spam on fewer strong clues (classifier.ts, STRONG) than this: a
 * short enquiry ("Can you send me a quote for a new website?") reads like a pitch to a prior learnt
 * from mail, on one or two telling word pairs and a few weak ones; it is unsure at most, while a
 * pitch says so many times over.
 */
export const MIN_STRONG_CLUES = 3;
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

/** The classifier's verdict on a score reached with this many strong clues. */
export function scoreVerdict(score: number, strong: number, threshold: number): Verdict {
  if (score > threshold && strong >= MIN_STRONG_CLUES) return 'spam';
  return score >= HAM_CUTOFF ? 'unsure' : 'ham';
}

/** The verdict on one submission under its project's settings. */
export function judge(c: Case, settings: SpamSettings, models: Models): Judgement {
  if (c.honeypot) return verdictOf('honeypot', true, []);
  if (settings.mode === 'off') return { verdict: 'none', score: null, reason: null };
  const allowed = matchList(settings.allow, c);
  if (allowed !== undefined) return verdictOf('allow list', false, [label(allowed)]);
  const blocked = matchList(settings.block, c);
  if (blocked !== undefined) return verdictOf('block list', true, [label(blocked)]);
  if (c.copiesBefore + 1 >= DUPLICATE_COPIES) {
    return verdictOf('duplicate', true, [`the same text ${c.copiesBefore + 1} times in a day`]);
  }
  const { score, signals, strong } = classify(c.found, models, SIGNALS);
  const verdict = scoreVerdict(score, strong, settings.threshold);
  // The signals that point the way of the verdict: towards spam unless it is ham.
  const toward = signals.filter((s) => (verdict === 'ham' ? s.p < 0.5 : s.p > 0.5));
  return { verdict, score, reason: { layer: 'classifier', signals: toward.map((s) => s.feature) } };
}
