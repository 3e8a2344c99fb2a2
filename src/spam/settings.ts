// C39: what an owner chooses of the spam filter, and what a verdict is: imported by the tables,
// the API's schemas and the dashboard alike, so it imports nothing.

/**
 * What the filter does with a submission it judges spam: `off`, it judges nothing (the honeypot
 * still holds, C22); `mark`, the verdict is recorded and shown, and the submission stays in the
 * inbox and is delivered (never confirmed to its sender, C35); `hold` (the default), it is moved to
 * spam and nothing of it is delivered until its owner takes it out.
 */
export const SPAM_MODES = ['off', 'mark', 'hold'] as const;
export type SpamMode = (typeof SPAM_MODES)[number];

/** A verdict: `none` when the filter did not judge (off, or stored before it). */
export const VERDICTS = ['ham', 'unsure', 'spam', 'none'] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * The layer a verdict came from (a Turnstile failure and a rate limit refuse the request: nothing is
 * stored): the honeypot, the owner's lists, the same text again, a campaign marked before, or the
 * classifier's layer that moved the score most: the project's marks, the deployment's counts, the
 * prior. `classifier` names the verdicts stored before the classifier named its layers.
 */
export const SPAM_LAYERS = [
  'honeypot',
  'allow list',
  'block list',
  'duplicate',
  'campaign',
  'project marks',
  'deployment',
  'prior',
  'classifier',
] as const;
export type SpamLayer = (typeof SPAM_LAYERS)[number];

/** An entry of an allow or block list: an address, a domain (of an address or a link), a phrase. */
export const LIST_KINDS = ['address', 'domain', 'phrase'] as const;
export type ListKind = (typeof LIST_KINDS)[number];
export type ListEntry = { kind: ListKind; value: string };

/** At most this many entries in each list, each at most this long. */
export const MAX_LIST_ENTRIES = 200;
export const MAX_ENTRY_LENGTH = 200;

/**
 * The classifier's cut-offs, on its calibrated probability that a submission is spam: at or above
 * the project's threshold (DEFAULT_THRESHOLD unless its owner moves it), spam; in the UNSURE_BAND
 * below it, unsure, which goes to the inbox, never to spam; below, ham.
 */
export const DEFAULT_THRESHOLD = 0.78;
export const MIN_THRESHOLD = 0.3;
export const MAX_THRESHOLD = 0.99;
export const UNSURE_BAND = 0.3;

/** Where the unsure band starts under a threshold. */
export const unsureFrom = (threshold: number) =>
  Math.max(Math.round((threshold - UNSURE_BAND) * 100) / 100, 0);

/**
 * C39: what a project shares of what its owner marks: `both` (the default), its marks teach the
 * deployment's counts and its campaigns, and it is judged with theirs; `take`, it is judged with
 * them and teaches nothing; `none`, neither. Only counts of features and signatures are shared,
 * never text.
 */
export const SPAM_SHARING = ['both', 'take', 'none'] as const;
export type SpamSharing = (typeof SPAM_SHARING)[number];
export const takes = (sharing: SpamSharing) => sharing !== 'none';
export const gives = (sharing: SpamSharing) => sharing === 'both';

export type SpamSettings = {
  mode: SpamMode;
  threshold: number;
  sharing: SpamSharing;
  allow: ListEntry[];
  block: ListEntry[];
};

/** A submission's verdict as stored and shown: score 0–1 (null when not judged) and its reason. */
export type SpamReason = { layer: SpamLayer; signals: string[] };
