// C39: what a project learns from the deployment's other projects, as the worker runs it: their
// owners' marks as counts of features (give and take, take only, neither), and the campaigns they
// marked, a spun copy of which is unsure in another project when one project marked it, held when
// two did or the operator, and protected by a not-spam mark; bounded, and gone with the
// submission that taught it.
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { generator, spin, TEMPLATES } from '../bench/spun.ts';
import { spamCampaigns, spamTokens, submissions } from '../schema/tables.ts';
import type { Manager } from '../src/ops/context.ts';
import { bulkSubmissions, deleteSubmission, updateSubmission } from '../src/ops/inbox.ts';
import { updateProject } from '../src/ops/project-settings.ts';
import type { SpamSharing } from '../src/spam/settings.ts';
import { CAMPAIGN_DAYS, MAX_PROJECT_CAMPAIGNS } from '../src/store/campaigns.ts';
import { database } from '../src/store/db.ts';
import { train, untrained } from '../src/store/learning.ts';
import { asTool, seedProject } from './helpers.ts';
import { consumeOutbox, sendAndJudge } from './queue.ts';

const db = database(env.DB);

async function project(sharing?: SpamSharing) {
  const p = await seedProject();
  if (sharing !== undefined) await updateProject(asTool(), p.projectId, { spamFilter: { sharing } });
  return p;
}

/** A project's owner, by its secret key: trusted in its own project only. */
const owner = (): Manager => ({ ...asTool(), actor: { kind: 'key', prefix: 'edgeform_sk_test' } });

/** Marks the rows as the owner would (or the operator), and lets the consumer learn them. */
async function mark(projectId: string, ids: string[], as: 'spam' | 'ham', by: Manager = owner()) {
  await bulkSubmissions(by, projectId, ids, as === 'spam' ? 'spam' : 'not-spam');
  await consumeOutbox(ids);
}

const reasonOf = (row: { spamReason: string | null }) =>
  JSON.parse(row.spamReason ?? 'null') as { layer: string; signals: string[] };

/** Words no prior knows, so that only what the test teaches speaks. */
const lesson = (tag: string, i: number) => ({
  message: `${tag}zindle ${tag}glorbix ${tag}vantrum offers ${i}`,
});
const genuine = (tag: string, i: number) => ({ message: `${tag}plimsol ${tag}harbent question ${i}` });

/** Project A's owner (or `by`) marks four lessons spam and four notes not spam: the deployment learns both kinds. */
async function teach(tag: string, sharing?: SpamSharing, by?: Manager) {
  const a = await project(sharing);
  const spam: string[] = [];
  const ham: string[] = [];
  for (let i = 0; i < 4; i++) {
    spam.push((await sendAndJudge(a.apiKey, a.projectId, lesson(tag, i))).id);
    ham.push((await sendAndJudge(a.apiKey, a.projectId, genuine(tag, i))).id);
  }
  await mark(a.projectId, spam, 'spam', by);
  await mark(a.projectId, ham, 'ham', by);
  return { a, spam, ham };
}

describe("C39: an owner's marks", () => {
  it('outweigh the prior on what they cover: a pitch the prior holds is ham once its owner marked three like it not spam', async () => {
    const offer = (i: number) => ({ message: `Casino bonus ${i}: free spins today` });
    const fresh = await project('none');
    const before = await sendAndJudge(fresh.apiKey, fresh.projectId, offer(100));
    expect([before.verdict, reasonOf(before).layer]).toEqual(['spam', 'prior']);
    // A casino's own form: its owner says such offers are what their visitors send.
    const p = await project('none');
    const ham: string[] = [];
    const spam: string[] = [];
    for (let i = 0; i < 3; i++) {
      ham.push((await sendAndJudge(p.apiKey, p.projectId, offer(i))).id);
      spam.push(
        (await sendAndJudge(p.apiKey, p.projectId, { message: `Wholesale plimsol harbent ${i}` })).id,
      );
    }
    await mark(p.projectId, ham, 'ham');
    await mark(p.projectId, spam, 'spam');
    const after = await sendAndJudge(p.apiKey, p.projectId, offer(100));
    expect(after.verdict).toBe('ham');
    expect(reasonOf(after).layer).toBe('project marks');
    expect(reasonOf(after).signals.join(' ')).toMatch(/casino|bonus|spins/);
  });
});

describe("C39: the deployment's counts", () => {
  it("one other project's marks make a message unsure at most; two projects', or the operator's, hold it", async () => {
    await teach('q');
    const next = { message: 'qzindle qglorbix qvantrum, once more' };
    const b = await project();
    const one = await sendAndJudge(b.apiKey, b.projectId, next);
    expect(one.verdict).toBe('unsure');
    expect(reasonOf(one).layer).toBe('deployment');
    expect(reasonOf(one).signals).toContain('like spam marked by 1 project on this deployment');
    // A second project agrees: held, by the deployment, naming how many agreed and nothing else.
    await teach('q');
    for (const sharing of [undefined, 'take'] as const) {
      const c = await project(sharing);
      const row = await sendAndJudge(c.apiKey, c.projectId, next);
      expect(row.verdict, sharing ?? 'both').toBe('spam');
      expect(reasonOf(row).layer).toBe('deployment');
      expect(reasonOf(row).signals.join(' ')).toMatch(/qzindle|qglorbix|qvantrum/);
      expect(reasonOf(row).signals).toContain('like spam marked by 2 projects on this deployment');
      expect(JSON.stringify(reasonOf(row))).not.toMatch(/\d{4}-\d\d-\d\d|prj_|p_/);
    }
    const alone = await project('none');
    const row = await sendAndJudge(alone.apiKey, alone.projectId, next);
    expect(row.verdict).not.toBe('spam');
    expect(reasonOf(row).layer).not.toBe('deployment');
    // The operator's marks, in one project, hold everywhere at once.
    await teach('o', undefined, asTool());
    const d = await project();
    const byOperator = await sendAndJudge(d.apiKey, d.projectId, {
      message: 'ozindle oglorbix ovantrum, once more',
    });
    expect(byOperator.verdict).toBe('spam');
    expect(reasonOf(byOperator).signals).toContain('like spam the operator marked on this deployment');
  });

  it('a project that takes only, or neither, teaches the other projects nothing', async () => {
    for (const sharing of ['take', 'none'] as const) {
      await teach('t', sharing);
      await teach('t', sharing);
    }
    const b = await project();
    const row = await sendAndJudge(b.apiKey, b.projectId, {
      message: 'tzindle tglorbix tvantrum, once more',
    });
    expect(row.verdict).not.toBe('spam');
    expect(reasonOf(row).layer).not.toBe('deployment');
  });

  it('a mark changed takes back exactly what it learnt, the operator’s part too', async () => {
    const { a, spam } = await teach('r', undefined, asTool());
    const counts = async () =>
      (
        await db
          .select()
          .from(spamTokens)
          .where(sql`${spamTokens.projectId} = ${a.projectId} and ${spamTokens.token} = 'word "rzindle"'`)
      ).map((r) => [r.ham, r.spam, r.operatorSpam]);
    expect(await counts()).toEqual([[0, 4, 4]]);
    // Its owner says one is not spam: the operator's spam mark of it is taken back.
    await mark(a.projectId, [spam[0] as string], 'ham');
    expect(await counts()).toEqual([[1, 3, 3]]);
    // And marks it spam again, as the owner: spam, not the operator's.
    await mark(a.projectId, [spam[0] as string], 'spam');
    expect(await counts()).toEqual([[0, 4, 3]]);
    // The same mark again, by the operator, changes nothing learnt (who marked goes with the mark).
    await mark(a.projectId, [spam[0] as string], 'spam', asTool());
    expect(await counts()).toEqual([[0, 4, 3]]);
    const [row] = await db
      .select()
      .from(submissions)
      .where(eq(submissions.id, spam[0] as string));
    expect([row?.labelOperator, row?.trainedOperator]).toEqual([false, false]);
  });
});

/** Copies of one spun pitch, as a campaign sends them. */
function campaign(seed: number) {
  const random = generator(seed);
  return () => ({
    name: `Sam ${Math.floor(random() * 1000)}`,
    email: `sales${Math.floor(random() * 1000)}@mail.example`,
    message: spin(TEMPLATES.seo ?? '', random),
  });
}

/**
 * Copies of an ordinary request, spun as a campaign spins it: the prior holds none of them, so that
 * only the campaign layer speaks (a rival may copy a practice's patients' words).
 */
const BOOKING =
  '{Hello|Hi|Good morning}, I would like to {book|arrange} a {cleaning|check-up} for {next week|the week after}; {any morning|most mornings} {works|would suit} {me|us}. {Thank you|Many thanks|Thanks}!';
const QUOTE =
  '{Hello|Hi|Dear all}, could you {send|email} me {a quote|your prices} for {a new roof|roof repairs} on a {terraced|semi-detached} house in {Leeds|York}? {Kind regards|Best wishes|Thanks}';
function requests(seed: number, template = BOOKING) {
  const random = generator(seed);
  return () => ({
    name: `Sam ${Math.floor(random() * 1000)}`,
    email: `patient${Math.floor(random() * 1000)}@mail.example`,
    message: spin(template, random),
  });
}

describe('C39: campaign memory', () => {
  it('a spun copy of a pitch one project marked spam is unsure in another; two projects’ marks, or the operator’s, hold it', async () => {
    const copy = requests(7);
    const a = await project();
    const first = await sendAndJudge(a.apiKey, a.projectId, copy());
    await mark(a.projectId, [first.id], 'spam');
    // Its own project holds the next copy at once.
    const again = await sendAndJudge(a.apiKey, a.projectId, copy());
    expect([again.verdict, reasonOf(again).layer]).toEqual(['spam', 'campaign']);
    expect(reasonOf(again).signals[0]).toMatch(
      /^\d+% like a message marked spam in this project on \d{4}-\d\d-\d\d$/,
    );
    const b = await project();
    const unsure = await sendAndJudge(b.apiKey, b.projectId, copy());
    expect(unsure.verdict).not.toBe('spam');
    expect(unsure.spam).toBe(false);
    expect(reasonOf(unsure).signals).toContain('like spam marked by 1 project on this deployment');
    // A second project marks a copy: now held in a third, naming how many, never when or where.
    const c = await project();
    const theirs = await sendAndJudge(c.apiKey, c.projectId, copy());
    await mark(c.projectId, [theirs.id], 'spam');
    const d = await project();
    const held = await sendAndJudge(d.apiKey, d.projectId, copy());
    expect([held.verdict, held.spam]).toEqual(['spam', true]);
    expect(reasonOf(held)).toEqual({
      layer: 'campaign',
      signals: ['like spam marked by 2 projects on this deployment'],
    });
    // A project that takes nothing from the deployment is not told.
    const e = await project('none');
    const alone = await sendAndJudge(e.apiKey, e.projectId, copy());
    expect(reasonOf(alone).layer).not.toBe('campaign');
    // The operator's mark of another pitch holds its copies everywhere.
    const pitch = requests(17, QUOTE);
    const f = await project();
    const marked = await sendAndJudge(f.apiKey, f.projectId, pitch());
    await mark(f.projectId, [marked.id], 'spam', asTool());
    const g = await project();
    const byOperator = await sendAndJudge(g.apiKey, g.projectId, pitch());
    expect([byOperator.verdict, reasonOf(byOperator).signals]).toEqual([
      'spam',
      ['like spam the operator marked on this deployment'],
    ]);
  });

  it('a copy marked not spam protects the copies that follow in its project, and only there', async () => {
    const copy = requests(8);
    const a = await project();
    const first = await sendAndJudge(a.apiKey, a.projectId, copy());
    await mark(a.projectId, [first.id], 'spam', asTool());
    const b = await project();
    const held = await sendAndJudge(b.apiKey, b.projectId, copy());
    expect(held.verdict).toBe('spam');
    await mark(b.projectId, [held.id], 'ham');
    const kept = await sendAndJudge(b.apiKey, b.projectId, copy());
    expect([kept.verdict, kept.spam]).toEqual(['ham', false]);
    expect(reasonOf(kept)).toEqual({
      layer: 'campaign',
      signals: [expect.stringMatching(/like a message marked not spam in this project/)],
    }); // Only in its project: another that takes from the deployment still holds the campaign.
    const c = await project();
    expect((await sendAndJudge(c.apiKey, c.projectId, copy())).verdict).toBe('spam');
  });

  it('a campaign is forgotten when its submission goes, and after CAMPAIGN_DAYS', async () => {
    const copy = campaign(9);
    const a = await project();
    const one = await sendAndJudge(a.apiKey, a.projectId, copy());
    const two = await sendAndJudge(a.apiKey, a.projectId, copy());
    await mark(a.projectId, [one.id, two.id], 'spam');
    const entries = () => db.select().from(spamCampaigns).where(eq(spamCampaigns.projectId, a.projectId));
    expect((await entries()).map((e) => e.submissionId).sort()).toEqual([one.id, two.id].sort());
    await deleteSubmission(asTool(), a.projectId, one.id);
    expect((await entries()).map((e) => e.submissionId)).toEqual([two.id]);
    const bands = await db.all<{ n: number }>(
      sql`select count(*) as n from spam_campaign_bands where submission_id = ${one.id}`,
    );
    expect(bands[0]?.n).toBe(0);
    // The next mark learnt CAMPAIGN_DAYS and a minute later forgets the one before.
    const three = await sendAndJudge(a.apiKey, a.projectId, copy());
    await updateSubmission(asTool(), a.projectId, three.id, { spam: true });
    const [row] = await untrained(db, [three.id]);
    if (row === undefined) throw new Error('not waiting to be learnt');
    await train(db, row, [], undefined, Date.now() + CAMPAIGN_DAYS * 86_400_000 + 60_000);
    expect(await entries()).toEqual([]);
  });

  it(`a project keeps at most MAX_PROJECT_CAMPAIGNS (${MAX_PROJECT_CAMPAIGNS}) campaigns, the newest`, async () => {
    const copy = campaign(10);
    const a = await project();
    // Stored as marked spam, as an owner's bulk mark leaves them (without a post each).
    const start = Date.now();
    const rows = Array.from({ length: MAX_PROJECT_CAMPAIGNS + 2 }, (_, i) => ({
      id: crypto.randomUUID(),
      projectId: a.projectId,
      data: JSON.stringify(copy()),
      receivedAt: new Date(start + i).toISOString(),
      spam: true,
      label: 'spam' as const,
    }));
    for (let i = 0; i < rows.length; i += 8) await db.insert(submissions).values(rows.slice(i, i + 8));
    await consumeOutbox(rows.map((r) => r.id));
    const [count] = await db.all<{ n: number }>(
      sql`select count(*) as n from spam_campaigns where project_id = ${a.projectId}`,
    );
    expect(count?.n).toBe(MAX_PROJECT_CAMPAIGNS);
  }, 60_000);
});
