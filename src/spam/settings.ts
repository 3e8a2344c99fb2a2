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
 * The layer a verdict came from (a Turnstile failure, a missing proof of work and a rate limit
 * refuse the request: nothing is stored): the honeypot, the owner's lists, the widget's token and
 * fill time, a proof of work used before, the same text again, a campaign marked before, or the
 * layer that moved the score most: the project's marks, the deployment's counts, the prior, what
 * the request said, the message's language. `classifier` names the verdicts stored before the
 * classifier named its layers.
 */
export const SPAM_LAYERS = [
  'honeypot',
  'allow list',
  'block list',
  'widget',
  'proof of work',
  'duplicate',
  'campaign',
  'project marks',
  'deployment',
  'prior',
  'request',
  'language',
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

/** At most this many expected countries and languages. */
export const MAX_EXPECTED = 50;

export type SpamSettings = {
  mode: SpamMode;
  threshold: number;
  sharing: SpamSharing;
  allow: ListEntry[];
  block: ListEntry[];
  /** C39: a submission from a page without the widget's token is spam. */
  requireWidget: boolean;
  /** C39: a submission without a valid proof of work is refused (400), in the isolate. */
  proofOfWork: boolean;
  /** C39: the countries (ISO 3166-1 alpha-2) and languages (BCP 47) expected; empty: any. */
  countries: string[];
  languages: string[];
};

/** C39: a new project's signal settings: no widget required, no proof of work, any country and language. */
export const SIGNALS_OFF = {
  requireWidget: false,
  proofOfWork: false,
  countries: [] as string[],
  languages: [] as string[],
};

/** A submission's verdict as stored and shown: score 0–1 (null when not judged) and its reason. */
export type SpamReason = { layer: SpamLayer; signals: string[] };
