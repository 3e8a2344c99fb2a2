// C39: what a project learns from the deployment's other projects, as the worker runs it: their
// owners' marks as counts of features (give and take, take only, neither), and the campaigns they
// marked, a spun copy of which is held in another project and protected by a not-spam mark;
// bounded, and gone with the submission that taught it.
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { generator, spin, TEMPLATES } from '../bench/spun.ts';
import { spamCampaigns, spamSharedTokens, submissions } from '../schema/tables.ts';
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

/** Marks the rows as the owner would, and lets the consumer learn them. */
async function mark(projectId: string, ids: string[], as: 'spam' | 'ham') {
  await bulkSubmissions(asTool(), projectId, ids, as === 'spam' ? 'spam' : 'not-spam');
  await consumeOutbox(ids);
}

const reasonOf = (row: { spamReason: string | null }) =>
  JSON.parse(row.spamReason ?? 'null') as { layer: string; signals: string[] };

/** Words no prior knows, so that only what the test teaches speaks. */
const lesson = (tag: string, i: number) => ({
  message: `${tag}zindle ${tag}glorbix ${tag}vantrum offers ${i}`,
});
const genuine = (tag: string, i: number) => ({ message: `${tag}plimsol ${tag}harbent question ${i}` });

/** Project A's owner marks four lessons spam and four notes not spam: the deployment learns both kinds. */
async function teach(tag: string, sharing?: SpamSharing) {
  const a = await project(sharing);
  const spam: string[] = [];
  const ham: string[] = [];
  for (let i = 0; i < 4; i++) {
    spam.push((await sendAndJudge(a.apiKey, a.projectId, lesson(tag, i))).id);
    ham.push((await sendAndJudge(a.apiKey, a.projectId, genuine(tag, i))).id);
  }
  await mark(a.projectId, spam, 'spam');
  await mark(a.projectId, ham, 'ham');
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
  it('a new project judges with what another project’s owner marked: give and take, take only; neither does not', async () => {
    await teach('q');
    const next = { message: 'qzindle qglorbix qvantrum, once more' };
    for (const sharing of [undefined, 'take'] as const) {
      const b = await project(sharing);
      const row = await sendAndJudge(b.apiKey, b.projectId, next);
      expect(row.verdict, sharing ?? 'both').toBe('spam');
      expect(reasonOf(row).layer).toBe('deployment');
      expect(reasonOf(row).signals.join(' ')).toMatch(/qzindle|qglorbix|qvantrum/);
    }
    const alone = await project('none');
    const row = await sendAndJudge(alone.apiKey, alone.projectId, next);
    expect(row.verdict).not.toBe('spam');
    expect(reasonOf(row).layer).not.toBe('deployment');
  });

  it('a project that takes only, or neither, teaches the deployment nothing; only counts of features are kept', async () => {
    for (const sharing of ['take', 'none'] as const) await teach(sharing === 'take' ? 't' : 'n', sharing);
    const kept = await db
      .select()
      .from(spamSharedTokens)
      .where(sql`${spamSharedTokens.token} like '%tzindle%' or ${spamSharedTokens.token} like '%nzindle%'`);
    expect(kept).toEqual([]);
    const { spam } = await teach('g');
    const given = await db
      .select()
      .from(spamSharedTokens)
      .where(eq(spamSharedTokens.token, 'word "gzindle"'));
    // Its counts of a feature, never the text it came from.
    expect(given).toEqual([{ token: 'word "gzindle"', ham: 0, spam: 4 }]);
    expect(spam).toHaveLength(4);
  });

  it('a mark changed takes back exactly what it gave, even after its project stopped giving', async () => {
    const { a, spam } = await teach('r');
    await updateProject(asTool(), a.projectId, { spamFilter: { sharing: 'none' } });
    await mark(a.projectId, [spam[0] as string], 'ham');
    const [counts] = await db
      .select()
      .from(spamSharedTokens)
      .where(eq(spamSharedTokens.token, 'word "rzindle"'));
    // Taken back from the deployment; the new mark, given by a project that gives nothing now, is not.
    expect(counts).toEqual({ token: 'word "rzindle"', ham: 0, spam: 3 });
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

describe('C39: campaign memory', () => {
  it('a spun copy of a pitch marked spam in one project is held in a new project, naming the campaign', async () => {
    const copy = campaign(7);
    const a = await project();
    const first = await sendAndJudge(a.apiKey, a.projectId, copy());
    await mark(a.projectId, [first.id], 'spam');
    const b = await project();
    const held = await sendAndJudge(b.apiKey, b.projectId, copy());
    expect([held.verdict, held.spam]).toEqual(['spam', true]);
    expect(reasonOf(held).layer).toBe('campaign');
    expect(reasonOf(held).signals[0]).toMatch(
      /^\d+% like a message marked spam in another project on \d{4}-\d\d-\d\d$/,
    );
    // A project that takes nothing from the deployment is not told.
    const c = await project('none');
    const alone = await sendAndJudge(c.apiKey, c.projectId, copy());
    expect(reasonOf(alone).layer).not.toBe('campaign');
  });

  it('a copy marked not spam protects the copies that follow in its project, and only there', async () => {
    const copy = campaign(8);
    const a = await project();
    const first = await sendAndJudge(a.apiKey, a.projectId, copy());
    await mark(a.projectId, [first.id], 'spam');
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
    for (let i = 0; i < rows.length; i += 10) await db.insert(submissions).values(rows.slice(i, i + 10));
    await consumeOutbox(rows.map((r) => r.id));
    const [count] = await db.all<{ n: number }>(
      sql`select count(*) as n from spam_campaigns where project_id = ${a.projectId}`,
    );
    expect(count?.n).toBe(MAX_PROJECT_CAMPAIGNS);
  }, 60_000);
});
