// C39: what the spam benches count of a set of verdicts, and the settings they judge with: a new
// project's, as the dashboard and the tool make one (threshold 0.78, sharing both, no signals).
import { DEFAULT_THRESHOLD, SIGNALS_OFF, type SpamSettings, type Verdict } from '../src/spam/settings.ts';

export const NEW_PROJECT: SpamSettings = {
  mode: 'hold',
  threshold: DEFAULT_THRESHOLD,
  sharing: 'both',
  allow: [],
  block: [],
  ...SIGNALS_OFF,
};

/** Of the spam judged, how many held; of the genuine, how many held and how many unsure. */
export type Tally = { spam: number; spamHeld: number; ham: number; hamHeld: number; unsure: number };

export const emptyTally = (): Tally => ({ spam: 0, spamHeld: 0, ham: 0, hamHeld: 0, unsure: 0 });

/** Counts one verdict on a line that is spam or not. */
export function count(t: Tally, spam: boolean, verdict: Verdict): void {
  if (spam) {
    t.spam++;
    if (verdict === 'spam') t.spamHeld++;
  } else {
    t.ham++;
    if (verdict === 'spam') t.hamHeld++;
    if (verdict === 'unsure') t.unsure++;
  }
}
