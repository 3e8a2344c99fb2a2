// C39: what the spam filter keeps in D1: each submission's verdict (written by the queue consumer
// or the sweep, after the 201 and before any delivery), each project's settings, and what its
// classifier learnt from its owner's marks (spam_tokens, and the project's learned_* counts),
// which follows the marks exactly once each.
import type { D1PreparedStatement } from '@cloudflare/workers-types';
import { and, asc, isNull, sql } from 'drizzle-orm';
import { submissions } from '../../schema/tables.ts';
import type { Counts } from '../spam/classifier.ts';
import type { Judgement } from '../spam/judge.ts';
import type { ListEntry, SpamSettings } from '../spam/settings.ts';
import { type Db, storage } from './db.ts';
import { waitingBefore } from './submissions.ts';

/** The most features a project's classifier keeps: past it, those seen least are forgotten. */
export const MAX_PROJECT_TOKENS = 20_000;
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
export function listOf(stored: string | null): ListEntry[] {
  if (stored === null) return [];
  try {
    const parsed = JSON.parse(stored) as unknown;
    return Array.isArray(parsed) ? (parsed as ListEntry[]) : [];
  } catch {
    return [];
  }
}

export type ProjectFilter = {
  settings: SpamSettings;
  /** The project's own counts, for the features asked about. */
  own: Counts;
  /** How many of its submissions of the window carry each content hash asked about. */
  copies: Map<string, number>;
};

/**
 * Per project: its settings, its own counts of the features given, and how many of its judged
 * submissions since `since` carry each hash given; every project's reads in one D1 batch.
 */
export async function filtersOf(
  db: Db,
  asked: ReadonlyMap<string, { features: string[]; hashes: string[] }>,
  since: string,
): Promise<Map<string, ProjectFilter>> {
  const d1 = db.$client;
  const ids = [...asked.keys()];
  if (ids.length === 0) return new Map();
  const statements: D1PreparedStatement[] = [];
  for (const id of ids) {
    const { features, hashes } = asked.get(id) ?? { features: [], hashes: [] };
    statements.push(
      d1
        .prepare(
          'select spam_mode, spam_threshold, spam_allow, spam_block, learned_ham, learned_spam from projects where id = ?',
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
    );
  }
  const results = await storage(() => d1.batch<Record<string, unknown>>(statements));
  const out = new Map<string, ProjectFilter>();
  ids.forEach((id, i) => {
    const project = results[3 * i]?.results[0] as
      | {
          spam_mode: SpamSettings['mode'];
          spam_threshold: number;
          spam_allow: string | null;
          spam_block: string | null;
          learned_ham: number;
          learned_spam: number;
        }
      | undefined;
    if (project === undefined) return; // deleted since: its submissions are gone with it
    const tokens = new Map<string, [number, number]>();
    for (const r of (results[3 * i + 1]?.results ?? []) as { token: string; ham: number; spam: number }[]) {
      tokens.set(r.token, [r.ham, r.spam]);
    }
    const copies = new Map<string, number>();
    for (const r of (results[3 * i + 2]?.results ?? []) as { hash: string; n: number }[])
      copies.set(r.hash, r.n);
    out.set(id, {
      settings: {
        mode: project.spam_mode,
        threshold: project.spam_threshold,
        allow: listOf(project.spam_allow),
        block: listOf(project.spam_block),
      },
      own: { ham: project.learned_ham, spam: project.learned_spam, tokens },
      copies,
    });
  });
  return out;
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
            `update submissions set verdict = ?1, spam_score = ?2, spam_reason = ?3, content_hash = ?4,
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

/** A mark the project's classifier has not learnt as it is (the condition of submissions_untrained). */
const UNTRAINED = sql`coalesce(${submissions.label}, '') <> coalesce(${submissions.trained}, '')`;

export type ToTrain = {
  id: string;
  projectId: string;
  data: string;
  label: 'spam' | 'ham' | null;
  trained: 'spam' | 'ham' | null;
};

/** The submissions among `ids` whose mark the project's classifier has not learnt as it is. */
export function untrained(db: Db, ids: readonly string[]): Promise<ToTrain[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return storage(() =>
    db
      .select({
        id: submissions.id,
        projectId: submissions.projectId,
        data: submissions.data,
        label: submissions.label,
        trained: submissions.trained,
      })
      .from(submissions)
      .where(
        and(inIds(ids), sql`coalesce(${submissions.label}, '') <> coalesce(${submissions.trained}, '')`),
      ),
  );
}

/** The sweep's share of the marks: those not learnt yet, received before `before`, oldest first. */
export function untrainedBefore(db: Db, before: string, limit: number): Promise<string[]> {
  return waitingBefore(db, UNTRAINED, before, limit);
}

/**
 * Makes the project's classifier follow one submission's mark, in one D1 transaction: what it learnt
 * of the submission before (`trained`) is taken back, what its owner says now (`label`) is learnt,
 * and `trained` becomes `label`. Every statement holds only while the row is as it was read, so a
 * mark learnt twice (two consumers, the sweep beside one) or changed meanwhile changes nothing
 * here, and is learnt as it is by the next pass. Then, past MAX_PROJECT_TOKENS, the features seen
 * least are forgotten.
 */
export async function train(db: Db, row: ToTrain, found: readonly string[]): Promise<void> {
  const d1 = db.$client;
  const tokens = JSON.stringify([...new Set(found)]);
  const guard = `exists (select 1 from submissions where id = ?5 and coalesce(trained, '') = ?6 and coalesce(label, '') = ?7)`;
  const asRead = [row.id, row.trained ?? '', row.label ?? ''] as const;
  const statements: D1PreparedStatement[] = [];
  const change = (kind: 'spam' | 'ham', sign: 1 | -1) => {
    const [ham, spam] = kind === 'ham' ? [sign, 0] : [0, sign];
    statements.push(
      d1
        .prepare(
          `insert into spam_tokens (project_id, token, ham, spam)
           select ?1, value, max(?2, 0), max(?3, 0) from json_each(?4) where ${guard}
           on conflict (project_id, token) do update set ham = max(ham + ?2, 0), spam = max(spam + ?3, 0)`,
        )
        .bind(row.projectId, ham, spam, tokens, ...asRead),
      d1
        .prepare(
          `update projects set learned_ham = max(learned_ham + ?2, 0), learned_spam = max(learned_spam + ?3, 0)
           where id = ?1 and ${guard}`,
        )
        // The same parameters as above (?4 unused here): one guard, word for word.
        .bind(row.projectId, ham, spam, tokens, ...asRead),
    );
  };
  if (row.trained !== null) change(row.trained, -1);
  if (row.label !== null) change(row.label, 1);
  statements.push(
    d1
      .prepare(
        'delete from spam_tokens where project_id = ? and ham = 0 and spam = 0 and token in (select value from json_each(?))',
      )
      .bind(row.projectId, tokens),
    d1
      .prepare(
        `delete from spam_tokens where project_id = ?1 and token in (
           select token from spam_tokens where project_id = ?1 order by ham + spam, token
           limit max((select count(*) from spam_tokens where project_id = ?1) - ?2, 0))`,
      )
      .bind(row.projectId, MAX_PROJECT_TOKENS),
    d1
      .prepare(
        `update submissions set trained = label where id = ?1 and coalesce(trained, '') = ?2 and coalesce(label, '') = ?3`,
      )
      .bind(...asRead),
  );
  await storage(() => d1.batch(statements));
}

/** C39: a project's spam settings, as stored. */
export function spamColumns(s: Partial<SpamSettings>) {
  return {
    ...(s.mode !== undefined ? { spamMode: s.mode } : {}),
    ...(s.threshold !== undefined ? { spamThreshold: s.threshold } : {}),
    ...(s.allow !== undefined ? { spamAllow: s.allow.length === 0 ? null : JSON.stringify(s.allow) } : {}),
    ...(s.block !== undefined ? { spamBlock: s.block.length === 0 ? null : JSON.stringify(s.block) } : {}),
  };
}

/** How many features a project's classifier keeps now (its storage, for the owner and the tests). */
export async function learnedFeatures(db: Db, projectId: string): Promise<number> {
  const [row] = await storage(() =>
    db.all<{ n: number }>(sql`select count(*) as n from spam_tokens where project_id = ${projectId}`),
  );
  return row?.n ?? 0;
}
