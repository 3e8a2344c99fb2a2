// C39: the signals only a form has, beside its text: the widget's token and the time the form took
// to fill, a proof of work, what the request says of its sender (a script's user agent, no
// Accept-Language, its country). Read in the isolate (src/accept/signals.ts), written in the
// submission's own insert, judged here by the consumer: a token forged or used before holds a
// submission outright; how it was filled and sent moves its score, and holds it only with its text
// agreeing (judge.ts), unless its owner chose the strict widget (requireWidget). Pure: no D1, no
// crypto.
import type { Signal } from './classifier.ts';
import type { Signals } from './request-signals.ts';

export type { Signals } from './request-signals.ts';

/** A person takes at least this long to open, fill in and send any form, however little it asks. */
export const MIN_FILL_MS = 1_500;
/** And this long per character typed: 25 a second is twice a fast typist's pace. */
export const MS_PER_CHAR = 40;
/** At most this long for the typing, however long the text. */
export const MAX_TYPING_MS = 8_500;

/** The least time a person takes to type this many characters. */
export const typingFloorMs = (typed: number) => Math.min(Math.max(typed, 0) * MS_PER_CHAR, MAX_TYPING_MS);

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(1);

/** How a fill time reads in a reason: "filled in 0.4 s". */
export const fillSignal = (ms: number) => `filled in ${seconds(ms)} s`;

/**
 * C39: a form filled faster than a person can, in a reason's words: sent within MIN_FILL_MS of the
 * form first seen (the token's age), or its typed characters (not those pasted) in less time than a
 * person types them, counted from the first interaction the widget saw and never longer than the
 * token's age. A widget that saw no interaction says nothing of the typing: the token's age counts.
 */
export function tooFast(s: Signals): string | undefined {
  if (s.token !== 'valid' || s.fillMs === undefined) return undefined;
  if (s.fillMs < MIN_FILL_MS) return fillSignal(s.fillMs);
  const typed = Math.max(0, (s.chars ?? 0) - (s.pasted ?? 0));
  const typing = s.typingMs !== undefined && s.typingMs > 0 ? Math.min(s.typingMs, s.fillMs) : s.fillMs;
  return typing < typingFloorMs(typed) ? `typed ${typed} characters in ${seconds(typing)} s` : undefined;
}

/**
 * The weights (log-odds) of the signals that move a score, chosen on the form corpus's held-out
 * lines (bench/spam.ts prints what each costs a genuine message). What a request says of its sender
 * is weak alone (a developer's curl, an old proxy): together it moves a score at most MAX_REQUEST.
 * No token is evidence only beside another: a page with its own script, or a plain form without the
 * widget, is a person's too. A country or a language the owner did not expect: the owner asked.
 * C39: whatever they weigh, signals alone make a message at most unsure (judge.ts).
 */
export const WEIGHTS = {
  scriptAgent: 1,
  noLanguage: 0.5,
  noToken: 0.5,
  expiredToken: 1,
  tooFast: 2,
  country: 1,
  language: 1.5,
} as const;
export const MAX_REQUEST = 1;

/** What the project expects, for the signals that depend on it. */
export type Expectations = {
  /** C39: strict: a post from a page without the widget's token, or faster than a person, is spam. */
  requireWidget: boolean;
  countries: readonly string[];
  languages: readonly string[];
};

/** Whether a second submission carried the token's nonce or the proof's challenge first. */
export type Reuse = { token: boolean; pow: boolean };

/** A verdict the signals give on their own: spam, by a layer, with its reason. */
export type Held = { layer: 'widget' | 'proof of work'; signal: string };

/**
 * C39: the signals that hold a submission as spam whatever its text says: a proof of work used
 * before, a token forged or used before (a person's page gets a token of its own), and, when the
 * owner requires the widget (strict), no token from a page or a fill faster than a person's. How a
 * person fills a form holds nobody otherwise: it moves the score (signalParts).
 */
export function heldBy(s: Signals | undefined, expect: Expectations, reuse: Reuse): Held | undefined {
  if (s === undefined) return undefined;
  if (reuse.pow) return { layer: 'proof of work', signal: 'proof of work used before' };
  if (!s.page) return undefined;
  if (s.token === 'forged') return { layer: 'widget', signal: 'forged widget token' };
  if (reuse.token) return { layer: 'widget', signal: 'widget token used before' };
  if (!expect.requireWidget) return undefined;
  if (s.token === 'missing') return { layer: 'widget', signal: 'no widget token' };
  const fast = tooFast(s);
  return fast === undefined ? undefined : { layer: 'widget', signal: fast };
}

const list = (codes: readonly string[]) => codes.join(', ');

/**
 * C39: the signals that move a score, as parts of it (the classifier's explain() names the layer
 * that moved it most): what the request says (its user agent, Accept-Language, the widget's token
 * missing or expired, its country), and the message's language when the project expects others.
 */
export function signalParts(
  s: Signals | undefined,
  expect: Expectations,
  language: string | undefined,
): Signal[] {
  const parts: Signal[] = [];
  if (s?.page === true) {
    const fast = expect.requireWidget ? undefined : tooFast(s);
    if (fast !== undefined) parts.push({ feature: fast, layer: 'widget', weight: WEIGHTS.tooFast });
    const request: Signal[] = [];
    if (s.agent !== undefined)
      request.push({
        feature: s.agent === 'none' ? 'no user agent' : `script user agent (${s.agent})`,
        layer: 'request',
        weight: WEIGHTS.scriptAgent,
      });
    if (s.noLanguage === true)
      request.push({ feature: 'no Accept-Language', layer: 'request', weight: WEIGHTS.noLanguage });
    if (s.token === 'missing' && request.length > 0)
      request.push({ feature: 'no widget token', layer: 'request', weight: WEIGHTS.noToken });
    if (s.token === 'expired')
      request.push({ feature: 'expired widget token', layer: 'request', weight: WEIGHTS.expiredToken });
    // Together at most MAX_REQUEST, shared in proportion: each still names itself in the reason.
    const total = request.reduce((sum, p) => sum + p.weight, 0);
    const scale = total > MAX_REQUEST ? MAX_REQUEST / total : 1;
    for (const p of request) parts.push({ ...p, weight: p.weight * scale });
    if (s.country !== undefined && expect.countries.length > 0 && !expect.countries.includes(s.country))
      parts.push({
        feature: `country ${s.country}; expected ${list(expect.countries)}`,
        layer: 'request',
        weight: WEIGHTS.country,
      });
  }
  if (language !== undefined)
    parts.push({
      feature: `language ${language}; expected ${list(expect.languages)}`,
      layer: 'language',
      weight: WEIGHTS.language,
    });
  return parts;
}

/** The signals as stored, or undefined when the column is empty or unreadable. */
export function signalsOf(stored: string | null | undefined): Signals | undefined {
  if (stored == null) return undefined;
  try {
    const parsed = JSON.parse(stored) as unknown;
    return typeof parsed === 'object' && parsed !== null && 'page' in parsed
      ? (parsed as Signals)
      : undefined;
  } catch {
    return undefined;
  }
}

/** C39: a nonce a submission claims (its widget token's, its proof's), so that a second use is found. */
export type NonceClaim = { nonce: string; submissionId: string; until: string };

// A token's and a proof's nonces apart, whatever their spelling.
export const tokenNonce = (s: Signals | undefined) => (s?.nonce === undefined ? undefined : `t:${s.nonce}`);
export const powNonce = (s: Signals | undefined) => (s?.pow === undefined ? undefined : `p:${s.pow}`);

/** The nonces a submission claims: its valid token's, and its proof's. */
export function claimsOf(submissionId: string, s: Signals | undefined): NonceClaim[] {
  const claims: NonceClaim[] = [];
  const token = tokenNonce(s);
  if (s?.token === 'valid' && token !== undefined && s.nonceUntil !== undefined)
    claims.push({ nonce: token, submissionId, until: s.nonceUntil });
  const pow = powNonce(s);
  if (pow !== undefined && s?.powUntil !== undefined)
    claims.push({ nonce: pow, submissionId, until: s.powUntil });
  return claims;
}
