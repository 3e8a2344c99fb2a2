// C39: what the spam filter reads and writes to judge: each submission's verdict (written by the
// queue consumer or the sweep, after the 201 and before any delivery), and what it is judged with:
// its project's settings, own counts and copies, the deployment's counts, the campaigns marked
// lately. What marks teach is store/learning.ts.
import type { D1PreparedStatement } from '@cloudflare/workers-types';
import { and, asc, isNull, sql } from 'drizzle-orm';
import { submissions } from '../../schema/tables.ts';
import { type Counts, type Deployment, SHARED_WEIGHT, type Support } from '../spam/classifier.ts';
import type { Judgement } from '../spam/judge.ts';
import { type ListEntry, type SpamSettings, type SpamSharing, takes } from '../spam/settings.ts';
import type { NonceClaim } from '../spam/signals.ts';
import { type CampaignMark, candidatesStatement, marksOf } from './campaigns.ts';
import { type Db, storage } from './db.ts';
import { waitingBefore } from './submissions.ts';

/** How far back the same text counts as sent again. */
export const DUPLICATE_WINDOW_MS = 24 * 3_600_000;

const inIds = (ids: readonly string[]) =>
  sql`${submissions.id} in (select value from json_each(${JSON.stringify(ids)}))`;

export type ToJudge = {
  id: string;
  projectId: string;
  data: string;
  spam: boolean;
  label: 'spam' | 'ham' | null;
  receivedAt: string;
  /** C39: what its request said (src/spam/signals.ts, JSON), or NULL. */
  signals: string | null;
};

/** The submissions among `ids` still to be judged. */
export function unjudged(db: Db, ids: readonly string[]): Promise<ToJudge[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return storage(() =>
    db
      .select({
        id: submissions.id,
        projectId: submissions.projectId,
        data: submissions.data,
        spam: submissions.spam,
        label: submissions.label,
        receivedAt: submissions.receivedAt,
        signals: submissions.signals,
      })
      .from(submissions)
      .where(and(inIds(ids), isNull(submissions.verdict)))
      .orderBy(asc(submissions.receivedAt), asc(submissions.id)),
  );
}

/** The sweep's share: submissions received before `before` and still not judged, oldest first. */
export function unjudgedBefore(db: Db, before: string, limit: number): Promise<string[]> {
  return waitingBefore(db, isNull(submissions.verdict), before, limit);
}

/** A list as stored (JSON, or NULL for none); anything else reads as empty. */
export function listOf<T = ListEntry>(stored: string | null): T[] {
  if (stored === null) return [];
  try {
    const parsed = JSON.parse(stored) as unknown;
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
}

/** C39: a project's expected countries or languages as stored: NULL for any. */
export const codesOf = (stored: string | null): string[] =>
  listOf<unknown>(stored).filter((c): c is string => typeof c === 'string');

/** C39: a widget token's or a proof's nonce, claimed by the submission that carried it. */
/** C39: a nonce a submission claims (spam/signals.ts). */
export type Claim = NonceClaim;

export type ProjectFilter = {
  settings: SpamSettings;
  /** The project's own counts, for the features asked about. */
  own: Counts;
  /** The deployment's counts of the same, when the project takes from them (C39: weighed, with who agrees). */
  shared: Deployment | undefined;
  /** How many of its submissions of the window carry each content hash asked about. */
  copies: Map<string, number>;
  /** The marked messages that share a band key with those asked about (store/campaigns.ts). */
  campaigns: CampaignMark[];
};

/** What the consumer asks of a project: its submissions' features, content hashes and band keys. */
export type Asked = { features: string[]; hashes: string[]; bands: string[] };

type ProjectRow = {
  spam_mode: SpamSettings['mode'];
  spam_threshold: number;
  spam_sharing: SpamSharing;
  spam_allow: string | null;
  spam_block: string | null;
  spam_require_widget: 0 | 1;
  spam_proof_of_work: 0 | 1;
  spam_countries: string | null;
  spam_languages: string | null;
  learned_ham: number;
  learned_spam: number;
};

const countsOf = (rows: readonly Record<string, unknown>[]) => {
  const tokens = new Map<string, [number, number]>();
  for (const r of rows as { token: string; ham: number; spam: number }[])
    tokens.set(r.token, [r.ham, r.spam]);
  return tokens;
};

/**
 * C39: the deployment's evidence of the features given, as the project `?1` reads it: the marks of
 * the projects that give (spam_tokens), each project weighing at most SHARED_WEIGHT marks of each
 * kind (its counts scaled down in proportion, so that one project never outweighs the rest), how
 * many of the other projects lean spam on each (owners' marks: the operator's apart), whether the
 * operator marked it spam, and whether `?1`'s own marks lean spam on it (whether it gives or not).
 * spam/classifier.ts's deploymentOf is its reference.
 */
const LEANS_SPAM = `t.spam > t.operator_spam
      and (t.spam + 1.0) / (p.learned_spam + 2) > (t.ham + 1.0) / (p.learned_ham + 2)`;
const GIVES = `p.spam_sharing = 'both'`;
const DEPLOYMENT_TOKENS = `
  select t.token,
    sum(case when ${GIVES} then t.ham * min(1.0, ?3 * 1.0 / max(p.learned_ham, 1)) else 0 end) as ham,
    sum(case when ${GIVES} then t.spam * min(1.0, ?3 * 1.0 / max(p.learned_spam, 1)) else 0 end) as spam,
    sum(${GIVES} and t.project_id <> ?1 and ${LEANS_SPAM}) as projects,
    max(${GIVES} and t.operator_spam > 0 and t.spam > 0) as operator,
    max(t.project_id = ?1 and ${LEANS_SPAM}) as own
  from spam_tokens t join projects p on p.id = t.project_id
  where t.token in (select value from json_each(?2)) and (${GIVES} or t.project_id = ?1)
  group by t.token`;
const DEPLOYMENT_TOTALS = `
  select coalesce(sum(min(learned_ham, ?1)), 0) as ham, coalesce(sum(min(learned_spam, ?1)), 0) as spam
  from projects where spam_sharing = 'both'`;

/** The deployment's rows as the classifier reads them. */
function deploymentRead(
  totals: { ham: number; spam: number } | undefined,
  rows: readonly Record<string, unknown>[],
): Deployment {
  const tokens = new Map<string, [number, number]>();
  const support = new Map<string, Support>();
  for (const r of rows as {
    token: string;
    ham: number;
    spam: number;
    projects: number;
    operator: number;
    own: number;
  }[]) {
    tokens.set(r.token, [r.ham, r.spam]);
    support.set(r.token, {
      projects: r.projects,
      operator: r.operator === 1,
      ...(r.own === 1 ? { own: true } : {}),
    });
  }
  return { ham: totals?.ham ?? 0, spam: totals?.spam ?? 0, tokens, support };
}

/**
 * Per project: its settings, its own counts of the features given, how many of its judged
 * submissions since `since` carry each hash given, the campaigns marked since `campaignsSince`
 * its submissions may belong to, and the deployment's counts of its features. C39: the
 * nonces of tokens and proofs are claimed, each by the first submission that carried it, and
 * `owners` says who holds each. All in one D1 batch.
 */
export async function filtersOf(
  db: Db,
  asked: ReadonlyMap<string, Asked>,
  since: string,
  campaignsSince: string,
  claims: readonly Claim[] = [],
): Promise<{ filters: Map<string, ProjectFilter>; owners: Map<string, string> }> {
  const d1 = db.$client;
  const ids = [...asked.keys()];
  if (ids.length === 0) return { filters: new Map(), owners: new Map() };
  const statements: D1PreparedStatement[] = [];
  for (const id of ids) {
    const { features, hashes, bands } = asked.get(id) ?? { features: [], hashes: [], bands: [] };
    statements.push(
      d1
        .prepare(
          `select spam_mode, spam_threshold, spam_sharing, spam_allow, spam_block, spam_require_widget,
             spam_proof_of_work, spam_countries, spam_languages, learned_ham, learned_spam
           from projects where id = ?`,
        )
        .bind(id),
      d1
        .prepare(
          'select token, ham, spam from spam_tokens where project_id = ? and token in (select value from json_each(?))',
        )
        .bind(id, JSON.stringify(features)),
      d1
        .prepare(
          `select content_hash as hash, count(*) as n from submissions
           where project_id = ? and content_hash in (select value from json_each(?)) and received_at >= ?
           group by content_hash`,
        )
        .bind(id, JSON.stringify(hashes), since),
      // Whether it takes is known only once its row is read: others' marks are filtered below.
      candidatesStatement(d1, id, bands, campaignsSince),
      d1.prepare(DEPLOYMENT_TOKENS).bind(id, JSON.stringify(features), SHARED_WEIGHT),
    );
  }
  statements.push(
    // The same for every project of the batch: read once.
    d1.prepare(DEPLOYMENT_TOTALS).bind(SHARED_WEIGHT),
    // In the order given (oldest first): of two submissions with the same nonce, the first owns it.
    d1
      .prepare(
        `insert into spam_nonces (nonce, submission_id, expires_at)
         select json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
         from json_each(?) where true on conflict (nonce) do nothing`,
      )
      .bind(JSON.stringify(claims.map((c) => [c.nonce, c.submissionId, c.until]))),
    d1
      .prepare('select nonce, submission_id from spam_nonces where nonce in (select value from json_each(?))')
      .bind(JSON.stringify(claims.map((c) => c.nonce))),
  );
  const results = await storage(() => d1.batch<Record<string, unknown>>(statements));
  const per = 5;
  const totals = results[per * ids.length]?.results[0] as { ham: number; spam: number } | undefined;
  const owners = new Map<string, string>();
  for (const r of (results[per * ids.length + 2]?.results ?? []) as {
    nonce: string;
    submission_id: string;
  }[])
    owners.set(r.nonce, r.submission_id);
  const out = new Map<string, ProjectFilter>();
  ids.forEach((id, i) => {
    const project = results[per * i]?.results[0] as ProjectRow | undefined;
    if (project === undefined) return; // deleted since: its submissions are gone with it
    const copies = new Map<string, number>();
    for (const r of (results[per * i + 2]?.results ?? []) as { hash: string; n: number }[])
      copies.set(r.hash, r.n);
    const taking = takes(project.spam_sharing);
    out.set(id, {
      settings: {
        mode: project.spam_mode,
        threshold: project.spam_threshold,
        sharing: project.spam_sharing,
        allow: listOf(project.spam_allow),
        block: listOf(project.spam_block),
        requireWidget: project.spam_require_widget === 1,
        proofOfWork: project.spam_proof_of_work === 1,
        countries: codesOf(project.spam_countries),
        languages: codesOf(project.spam_languages),
      },
      own: {
        ham: project.learned_ham,
        spam: project.learned_spam,
        tokens: countsOf(results[per * i + 1]?.results ?? []),
      },
      shared: taking ? deploymentRead(totals, results[per * i + 4]?.results ?? []) : undefined,
      copies,
      campaigns: marksOf(results[per * i + 3]?.results ?? []).filter((m) => taking || m.projectId === id),
    });
  });
  return { filters: out, owners };
}

export type Judged = Judgement & {
  id: string;
  contentHash: string | null;
  /** The project holds spam: a spam verdict moves it to spam and clears its outbox. */
  hold: boolean;
};

/**
 * Writes the verdicts, in one D1 batch, each only on a submission still unjudged (so that two
 * consumers judging the same one write one verdict). Held spam is moved to spam and its outbox
 * cleared, unless its owner has marked it already: their word stands.
 */
export async function writeVerdicts(db: Db, judged: readonly Judged[]): Promise<void> {
  if (judged.length === 0) return;
  const d1 = db.$client;
  await storage(() =>
    d1.batch(
      judged.map((j) => {
        const held = j.hold && j.verdict === 'spam' ? 1 : 0;
        return d1
          .prepare(
            `update submissions set verdict = ?1, spam_score = ?2, spam_reason = ?3, content_hash = ?4, signals = null,
               spam = case when ?5 = 1 and label is null then 1 else spam end,
               outbox = case when ?5 = 1 and label is null then null else outbox end
             where id = ?6 and verdict is null`,
          )
          .bind(
            j.verdict,
            j.score,
            j.reason === null ? null : JSON.stringify(j.reason),
            j.contentHash,
            held,
            j.id,
          );
      }),
    ),
  );
}

/** C39: the nonces of tokens and proofs past their expiry: a second use of one is refused as expired anyway. */
export async function forgetNonces(db: Db, now: string): Promise<void> {
  await storage(() => db.$client.prepare('delete from spam_nonces where expires_at < ?').bind(now).run());
}

/** C39: a project's spam settings, as stored. */
export function spamColumns(s: Partial<SpamSettings>) {
  return {
    ...(s.mode !== undefined ? { spamMode: s.mode } : {}),
    ...(s.threshold !== undefined ? { spamThreshold: s.threshold } : {}),
    ...(s.sharing !== undefined ? { spamSharing: s.sharing } : {}),
    ...(s.allow !== undefined ? { spamAllow: s.allow.length === 0 ? null : JSON.stringify(s.allow) } : {}),
    ...(s.block !== undefined ? { spamBlock: s.block.length === 0 ? null : JSON.stringify(s.block) } : {}),
    ...(s.requireWidget !== undefined ? { spamRequireWidget: s.requireWidget } : {}),
    ...(s.proofOfWork !== undefined ? { spamProofOfWork: s.proofOfWork } : {}),
    ...(s.countries !== undefined
      ? { spamCountries: s.countries.length === 0 ? null : JSON.stringify(s.countries) }
      : {}),
    ...(s.languages !== undefined
      ? { spamLanguages: s.languages.length === 0 ? null : JSON.stringify(s.languages) }
      : {}),
  };
}
