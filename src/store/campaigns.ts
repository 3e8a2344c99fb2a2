// C39: campaign memory in D1: the MinHash signature (spam/campaign.ts) of each submission its owner
// marked in the last CAMPAIGN_DAYS, with its band keys, so that the consumer finds the marked
// messages a new one may be a copy of in the batch it reads everything else in. Bounded: at most
// MAX_PROJECT_CAMPAIGNS a project and MAX_CAMPAIGNS a place, the oldest forgotten first; gone with
// its submission.
import type { D1Database, D1PreparedStatement } from '@cloudflare/workers-types';
import { unpackSignature } from '../spam/campaign.ts';

/** How long a marked message is remembered as a campaign. */
export const CAMPAIGN_DAYS = 14;
/** The most marked messages a project keeps: one owner marking thousands never crowds out the others'. */
export const MAX_PROJECT_CAMPAIGNS = 200;
/** The most a place keeps (each with BANDS band rows). */
export const MAX_CAMPAIGNS = 2_000;

export type CampaignMark = {
  submissionId: string;
  projectId: string;
  label: 'spam' | 'ham';
  shared: boolean;
  /** C39: the operator marked it, whom every project trusts. */
  byOperator: boolean;
  /** Unpacked once, as read. */
  signature: number[];
  markedAt: string;
};

/** What a mark writes: its signature and band keys (none: only what it wrote before is taken back). */
export type CampaignWrite = { signature: string; bands: string[] } | undefined;

/**
 * The statements that make a submission's campaign entry follow its mark, each only `when` (a SQL
 * condition on ?1… bound by the caller's guard, here passed as its own statement's parameters).
 */
export function campaignStatements(
  d1: D1Database,
  guard: { sql: string; params: readonly unknown[] },
  mark: {
    submissionId: string;
    projectId: string;
    label: 'spam' | 'ham' | null;
    shared: boolean;
    byOperator: boolean;
    now: string;
  },
  write: CampaignWrite,
): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  const n = guard.params.length;
  // The bands go with their entry (a foreign key).
  out.push(
    d1
      .prepare(`delete from spam_campaigns where submission_id = ?${n + 1} and ${guard.sql}`)
      .bind(...guard.params, mark.submissionId),
  );
  if (mark.label === null || write === undefined) return out;
  out.push(
    d1
      .prepare(
        `insert into spam_campaigns (submission_id, project_id, label, shared, signature, marked_at, by_operator)
         select ?${n + 1}, ?${n + 2}, ?${n + 3}, ?${n + 4}, ?${n + 5}, ?${n + 6}, ?${n + 7} where ${guard.sql}`,
      )
      .bind(
        ...guard.params,
        mark.submissionId,
        mark.projectId,
        mark.label,
        mark.shared ? 1 : 0,
        write.signature,
        mark.now,
        mark.byOperator ? 1 : 0,
      ),
    d1
      .prepare(
        `insert or ignore into spam_campaign_bands (band, submission_id)
         select value, ?${n + 1} from json_each(?${n + 2})
         where exists (select 1 from spam_campaigns where submission_id = ?${n + 1})`,
      )
      .bind(...guard.params, mark.submissionId, JSON.stringify(write.bands)),
  );
  return out;
}

/** The statements that forget what is past CAMPAIGN_DAYS, past a project's bound and past the place's. */
export function pruneCampaigns(d1: D1Database, projectId: string, now: number): D1PreparedStatement[] {
  const since = new Date(now - CAMPAIGN_DAYS * 86_400_000).toISOString();
  return [
    d1.prepare('delete from spam_campaigns where marked_at < ?').bind(since),
    d1
      .prepare(
        `delete from spam_campaigns where submission_id in (
           select submission_id from spam_campaigns where project_id = ?1
           order by marked_at desc, submission_id desc limit -1 offset ?2)`,
      )
      .bind(projectId, MAX_PROJECT_CAMPAIGNS),
    d1
      .prepare(
        `delete from spam_campaigns where submission_id in (
           select submission_id from spam_campaigns order by marked_at desc, submission_id desc limit -1 offset ?1)`,
      )
      .bind(MAX_CAMPAIGNS),
  ];
}

/** C39: the most candidates one project's marks make, so that no project crowds out the others'. */
const CANDIDATES_PER_PROJECT = 10;

/**
 * The marked messages of the last CAMPAIGN_DAYS that share a band key with those given: the
 * project's own first (a not-spam mark of its own must never be crowded out), then those other
 * projects gave as spam (kept only when the project takes from the deployment, which its row,
 * read in the same batch, says: store/spam.ts), the newest CANDIDATES_PER_PROJECT of each. A mark
 * of not spam protects its copies in its own project only: one owner's word never lets a campaign
 * through everywhere.
 */
export function candidatesStatement(
  d1: D1Database,
  projectId: string,
  bands: readonly string[],
  since: string,
): D1PreparedStatement {
  return d1
    .prepare(
      `select submissionId, projectId, label, shared, byOperator, signature, markedAt from (
         select submission_id as submissionId, project_id as projectId, label, shared, by_operator as byOperator,
           signature, marked_at as markedAt,
           row_number() over (partition by project_id order by marked_at desc, submission_id desc) as nth
         from spam_campaigns where marked_at >= ?2 and (project_id = ?1 or (shared = 1 and label = 'spam'))
         and submission_id in (select submission_id from spam_campaign_bands where band in (select value from json_each(?3))))
       where projectId = ?1 or nth <= ?4 order by projectId = ?1 desc, markedAt desc limit 60`,
    )
    .bind(projectId, since, JSON.stringify(bands), CANDIDATES_PER_PROJECT);
}

/** Rows of candidatesStatement as marks (a signature that does not read back is left out). */
export function marksOf(rows: readonly Record<string, unknown>[]): CampaignMark[] {
  return rows.flatMap((r) => {
    const signature = unpackSignature(String(r.signature));
    if (signature === undefined) return [];
    const mark: CampaignMark = {
      submissionId: String(r.submissionId),
      projectId: String(r.projectId),
      label: r.label === 'ham' ? 'ham' : 'spam',
      shared: r.shared === 1,
      byOperator: r.byOperator === 1,
      signature,
      markedAt: String(r.markedAt),
    };
    return [mark];
  });
}
