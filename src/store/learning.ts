// C39: what a project's classifier and the campaign memory learn from the owner's marks
// (spam_tokens and the project's learned_* counts, spam_campaigns), following the marks exactly
// once each. The deployment reads the projects' counts as they stand (store/spam.ts): nothing of a
// project's is counted for the others but what it gives now.
import type { D1PreparedStatement } from '@cloudflare/workers-types';
import { sql } from 'drizzle-orm';
import { submissions } from '../../schema/tables.ts';
import { gives, type SpamSharing } from '../spam/settings.ts';
import { type CampaignWrite, campaignStatements, pruneCampaigns } from './campaigns.ts';
import { type Db, storage } from './db.ts';
import { waitingBefore } from './submissions.ts';

/** The most features a project's classifier keeps: past it, those seen least are forgotten. */
export const MAX_PROJECT_TOKENS = 20_000;

/** A mark the project's classifier has not learnt as it is (the condition of submissions_untrained). */
const UNTRAINED = sql`coalesce(${submissions.label}, '') <> coalesce(${submissions.trained}, '')`;

export type ToTrain = {
  id: string;
  projectId: string;
  data: string;
  label: 'spam' | 'ham' | null;
  trained: 'spam' | 'ham' | null;
  /** C39: the mark is the operator's; what was learnt of it before was. */
  labelOperator: boolean;
  trainedOperator: boolean;
  /** What its project shares now. */
  sharing: SpamSharing;
};

/** The submissions among `ids` whose mark the project's classifier has not learnt as it is. */
export async function untrained(db: Db, ids: readonly string[]): Promise<ToTrain[]> {
  if (ids.length === 0) return [];
  const rows = await storage(() =>
    db.all<
      Omit<ToTrain, 'labelOperator' | 'trainedOperator'> & { labelOperator: number; trainedOperator: number }
    >(
      sql`select s.id, s.project_id as projectId, s.data, s.label, s.trained, s.label_operator as labelOperator,
            s.trained_operator as trainedOperator, p.spam_sharing as sharing
          from submissions s join projects p on p.id = s.project_id
          where s.id in (select value from json_each(${JSON.stringify(ids)}))
          and coalesce(s.label, '') <> coalesce(s.trained, '')`,
    ),
  );
  return rows.map((r) => ({
    ...r,
    labelOperator: r.labelOperator === 1,
    trainedOperator: r.trainedOperator === 1,
  }));
}

/** The sweep's share of the marks: those not learnt yet, received before `before`, oldest first. */
export function untrainedBefore(db: Db, before: string, limit: number): Promise<string[]> {
  return waitingBefore(db, UNTRAINED, before, limit);
}

/**
 * Makes the project's classifier follow one submission's mark, in one D1 transaction: what it learnt
 * of the submission before (`trained`, the operator's or not) is taken back, what its owner or the
 * operator says now (`label`) is learnt, its campaign entry follows (`campaign`: its signature, or
 * none when too short; shared when its project gives), and `trained` becomes `label`. Every
 * statement holds only while the row is as it was read, so a mark learnt twice (two consumers, the
 * sweep beside one) or changed meanwhile changes nothing here, and is learnt as it is by the next
 * pass. Then, past MAX_PROJECT_TOKENS, the features seen least are forgotten, and campaigns past
 * their bounds.
 */
export async function train(
  db: Db,
  row: ToTrain,
  found: readonly string[],
  campaign: CampaignWrite,
  now: number,
): Promise<void> {
  const d1 = db.$client;
  const tokens = JSON.stringify([...new Set(found)]);
  const guard = `exists (select 1 from submissions where id = ?6 and coalesce(trained, '') = ?7
    and coalesce(label, '') = ?8 and trained_operator = ?9 and label_operator = ?10)`;
  const asRead = [
    row.id,
    row.trained ?? '',
    row.label ?? '',
    row.trainedOperator ? 1 : 0,
    row.labelOperator ? 1 : 0,
  ] as const;
  const giving = row.label !== null && gives(row.sharing);
  const statements: D1PreparedStatement[] = [];
  const change = (kind: 'spam' | 'ham', sign: 1 | -1, operator: boolean) => {
    const [ham, spam] = kind === 'ham' ? [sign, 0] : [0, sign];
    const byOperator = kind === 'spam' && operator ? sign : 0;
    statements.push(
      d1
        .prepare(
          `insert into spam_tokens (project_id, token, ham, spam, operator_spam)
           select ?1, value, max(?2, 0), max(?3, 0), max(?5, 0) from json_each(?4) where ${guard}
           on conflict (project_id, token) do update set ham = max(ham + ?2, 0), spam = max(spam + ?3, 0),
             operator_spam = min(max(operator_spam + ?5, 0), max(spam + ?3, 0))`,
        )
        .bind(row.projectId, ham, spam, tokens, byOperator, ...asRead),
      d1
        .prepare(
          `update projects set learned_ham = max(learned_ham + ?2, 0), learned_spam = max(learned_spam + ?3, 0)
           where id = ?1 and ${guard}`,
        )
        // The same parameters as above (?4 and ?5 unused here): one guard, word for word.
        .bind(row.projectId, ham, spam, tokens, byOperator, ...asRead),
    );
  };
  if (row.trained !== null) change(row.trained, -1, row.trainedOperator);
  if (row.label !== null) change(row.label, 1, row.labelOperator);
  const guarded = {
    sql: `exists (select 1 from submissions where id = ?1 and coalesce(trained, '') = ?2 and coalesce(label, '') = ?3
      and trained_operator = ?4 and label_operator = ?5)`,
    params: asRead,
  };
  const nowIso = new Date(now).toISOString();
  statements.push(
    ...campaignStatements(
      d1,
      guarded,
      {
        submissionId: row.id,
        projectId: row.projectId,
        label: row.label,
        shared: giving,
        byOperator: row.labelOperator,
        now: nowIso,
      },
      campaign,
    ),
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
    ...pruneCampaigns(d1, row.projectId, now),
    d1
      .prepare(
        `update submissions set trained = label, trained_operator = label_operator, shared = 0
         where id = ?1 and coalesce(trained, '') = ?2 and coalesce(label, '') = ?3 and trained_operator = ?4
           and label_operator = ?5`,
      )
      .bind(...asRead),
  );
  await storage(() => d1.batch(statements));
}

/** How many features a project's classifier keeps now (its storage, for the owner and the tests). */
export async function learnedFeatures(db: Db, projectId: string): Promise<number> {
  const [row] = await storage(() =>
    db.all<{ n: number }>(sql`select count(*) as n from spam_tokens where project_id = ${projectId}`),
  );
  return row?.n ?? 0;
}
