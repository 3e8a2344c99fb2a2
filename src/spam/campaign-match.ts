// C39: which campaign a submission is a copy of, among the copies marked lately (store/campaigns.ts
// reads them): its own project's marks first, and which other projects' marks it may take. Pure: the
// queue consumer (jobs/verdicts.ts) and the benchmarks call it alike.
import { SAME_CAMPAIGN, similarity } from './campaign.ts';
import type { CampaignMatch, OwnMatch } from './judge.ts';

/** A copy marked lately, as the campaign memory holds it. */
export type MarkedCopy = {
  projectId: string;
  label: 'spam' | 'ham';
  /** Whether its project gives its marks to the deployment (C39). */
  shared: boolean;
  /** C39: the operator marked it, whom every project trusts. */
  byOperator: boolean;
  signature: readonly number[];
  markedAt: string;
};

/**
 * The campaign a submission is a copy of, among the candidates (none unless one is at least
 * SAME_CAMPAIGN alike): the nearest copy its own project marked (a copy marked not spam protects it,
 * whatever else it is like), and which other projects marked copies spam (C39: the operator's
 * marks apart, since every project trusts them).
 */
export function campaignOf(
  sig: readonly number[] | undefined,
  candidates: readonly MarkedCopy[],
  projectId: string,
): CampaignMatch | undefined {
  if (sig === undefined) return undefined;
  let own: OwnMatch | undefined;
  const projects = new Set<string>();
  let operator = false;
  for (const c of candidates) {
    const alike = similarity(sig, c.signature);
    if (alike < SAME_CAMPAIGN) continue;
    if (c.projectId !== projectId) {
      if (c.label !== 'spam' || !c.shared) continue;
      if (c.byOperator) operator = true;
      else projects.add(c.projectId);
      continue;
    }
    const match: OwnMatch = { label: c.label, similarity: alike, markedAt: c.markedAt };
    const better =
      own === undefined ||
      (match.label === 'ham' && own.label === 'spam') ||
      (match.label === own.label && match.similarity > own.similarity);
    if (better) own = match;
  }
  const others = projects.size > 0 || operator ? { projects: projects.size, operator } : undefined;
  return own === undefined && others === undefined ? undefined : { own, others };
}
