// C39: the signals only a form has, beside its text: the widget's token and the time the form took
// to fill, a proof of work, what the request says of its sender (a script's user agent, no
// Accept-Language, its country). Read in the isolate (src/accept/signals.ts), written in the
// submission's own insert, judged here by the consumer: some hold a submission outright (a token
// forged or used before, a form filled faster than a person can), the others move its score.
// Pure: no D1, no crypto.
import type { Signal } from './classifier.ts';
import type { Signals } from './sender.ts';

export type { Signals } from './sender.ts';

/** A person takes at least this long to fill in and send any form, however little it asks. */
export const MIN_FILL_MS = 1_500;
/** And this much longer per character of text: 25 a second is twice a fast typist's pace. */
export const MS_PER_CHAR = 40;
/** A pasted message costs no typing: the characters' share is capped, so pasting is never held. */
export const MAX_TYPING_MS = 8_500;

/** The least time a person takes to fill in a form with this many characters of text. */
export const minFillMs = (chars: number) => MIN_FILL_MS + Math.min(chars * MS_PER_CHAR, MAX_TYPING_MS);

/** How a fill time reads in a reason: "filled in 0.4 s". */
export const fillSignal = (ms: number) => `filled in ${(Math.max(0, ms) / 1000).toFixed(1)} s`;

/**
 * The weights (log-odds) of the signals that move a score, chosen on the form corpus's held-out
 * lines (bench/spam.ts prints what each costs a genuine message). What a request says of its sender
 * is weak alone (a developer's curl, an old proxy): together it moves a score at most MAX_REQUEST.
 * No token is evidence only beside another: a page with its own script, or a plain form without the
 * widget, is a person's too. A country or a language the owner did not expect: the owner asked.
 */
export const WEIGHTS = {
  scriptAgent: 1,
  noLanguage: 0.5,
  noToken: 0.5,
  expiredToken: 1,
  country: 1,
  language: 1.5,
} as const;
export const MAX_REQUEST = 1;

/** What the project expects, for the signals that depend on it. */
export type Expectations = {
  requireWidget: boolean;
  countries: readonly string[];
  languages: readonly string[];
};

/** Whether a second submission carried the token's nonce or the proof's challenge first. */
export type Reuse = { token: boolean; pow: boolean };

/** A verdict the signals give on their own: spam, by a layer, with its reason. */
export type Held = { layer: 'widget' | 'proof of work'; signal: string };

/**
 * C39: the signals that hold a submission as spam whatever its text says: a token forged or used
 * before, a proof of work used before, a fill no person could make, and (when the project requires
 * the widget) no token from a page.
 */
export function heldBy(s: Signals | undefined, expect: Expectations, reuse: Reuse): Held | undefined {
  if (s === undefined) return undefined;
  if (reuse.pow) return { layer: 'proof of work', signal: 'proof of work used before' };
  if (!s.page) return undefined;
  if (s.token === 'forged') return { layer: 'widget', signal: 'forged widget token' };
  if (reuse.token) return { layer: 'widget', signal: 'widget token used before' };
  if (s.token === 'missing' && expect.requireWidget) return { layer: 'widget', signal: 'no widget token' };
  if (s.token === 'valid' && s.fillMs !== undefined && s.fillMs < minFillMs(s.chars ?? 0))
    return { layer: 'widget', signal: fillSignal(s.fillMs) };
  if (s.token === 'valid' && s.claimedMs !== undefined)
    return {
      layer: 'widget',
      signal: `claimed ${fillSignal(s.claimedMs)}; token ${((s.fillMs ?? 0) / 1000).toFixed(1)} s old`,
    };
  return undefined;
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
