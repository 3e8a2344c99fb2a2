// C39: one project never turns the spam layers against another, as the worker runs them: a rival
// owner, with nothing but its own secret key, posts an ordinary request to its own project and marks
// it spam; the practice's requests are never held for it. The deployment's counts the consumer reads
// from D1 are those spam/classifier.ts's deploymentOf defines (each project weighed at most
// SHARED_WEIGHT marks of each kind, its own left out, who agrees), whatever the projects marked.
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { projects, spamTokens } from '../schema/tables.ts';
import { createKey } from '../src/ops/keys.ts';
import { updateProject } from '../src/ops/project-settings.ts';
import { deploymentOf, type Giver } from '../src/spam/classifier.ts';
import { SPAM_SHARING } from '../src/spam/settings.ts';
import { database } from '../src/store/db.ts';
import { filtersOf } from '../src/store/spam.ts';
import { asTool, seedProject, storedRows } from './helpers.ts';
import { api, ok } from './manage/helpers.ts';
import { consumeOutbox, sendAndJudge } from './queue.ts';

const db = database(env.DB);
const reasonOf = (row: { spamReason: string | null }) =>
  JSON.parse(row.spamReason ?? 'null') as { layer: string; signals: string[] };

const REQUEST = {
  name: 'Jo Smith',
  email: 'jo@example.com',
  message: 'Hello, I would like to book a cleaning next week, any morning works for me. Thank you!',
};

describe("C39: a rival's marks", () => {
  it('an ordinary request a rival marked spam, by its own secret key, is never held in another practice', async () => {
    const rival = await seedProject();
    const rivalKey = await createKey(asTool(), rival.projectId, 'secret');
    const practice = await seedProject();
    // The rival posts the request to its own project, as any server may, and marks it spam, again and again.
    for (let i = 0; i < 3; i++) {
      const posted = await sendAndJudge(rival.apiKey, rival.projectId, { ...REQUEST, name: `Jo ${i}` });
      await ok(
        await api('PATCH', `/projects/${rival.projectId}/submissions/${posted.id}`, {
          token: rivalKey,
          body: { spam: true },
        }),
      );
      await consumeOutbox([posted.id]);
    }
    const marked = await storedRows(rival.projectId);
    expect(marked.every((r) => r.label === 'spam' && !r.labelOperator)).toBe(true);
    // The practice's patients write the same words: none is held, none is told when or where.
    for (const name of ['Sam Lee', 'Ana Ruiz']) {
      const row = await sendAndJudge(practice.apiKey, practice.projectId, {
        ...REQUEST,
        name,
        email: `${name.split(' ')[0]?.toLowerCase()}@example.net`,
      });
      expect(row.verdict).not.toBe('spam');
      expect(row.spam).toBe(false);
      const reason = JSON.stringify(reasonOf(row));
      expect(reason).not.toMatch(/\d{4}-\d\d-\d\d|%|another project|prj_/);
      if (row.verdict === 'unsure') expect(reason).toContain('marked by 1 project on this deployment');
    }
    // The rival's own copies stay held: its marks hold at once in its own project.
    const own = await sendAndJudge(rival.apiKey, rival.projectId, { ...REQUEST, name: 'Jo 9' });
    expect(own.verdict).toBe('spam');
  });
});

describe("C39: the deployment's counts as D1 reads them", () => {
  it('are what deploymentOf makes of the projects’ marks, whatever they marked', async () => {
    const made = await Promise.all([0, 1, 2, 3].map(() => seedProject()));
    const ids = made.map((p) => p.projectId);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            sharing: fc.constantFrom(...SPAM_SHARING),
            ham: fc.nat(200),
            spam: fc.nat(200),
            tokens: fc.array(
              fc.record({
                f: fc.integer({ min: 0, max: 5 }),
                ham: fc.nat(60),
                spam: fc.nat(60),
                op: fc.nat(60),
              }),
              { maxLength: 6 },
            ),
          }),
          { minLength: 4, maxLength: 4 },
        ),
        async (givers) => {
          run++;
          const feature = (f: number) => `word "r${run}f${f}"`;
          const modelled: Giver[] = [];
          for (const [i, g] of givers.entries()) {
            const id = ids[i] as string;
            await updateProject(asTool(), id, { spamFilter: { sharing: g.sharing } });
            await db.update(projects).set({ learnedHam: g.ham, learnedSpam: g.spam }).where(sql`id = ${id}`);
            await db.delete(spamTokens).where(sql`project_id = ${id}`);
            const tokens = new Map<string, [number, number, number]>();
            for (const t of g.tokens) {
              if (t.ham + t.spam === 0) continue;
              tokens.set(feature(t.f), [t.ham, t.spam, Math.min(t.op, t.spam)]);
            }
            for (const [token, [ham, spam, operatorSpam]] of tokens)
              await db.insert(spamTokens).values({ projectId: id, token, ham, spam, operatorSpam });
            modelled.push({ id, ham: g.ham, spam: g.spam, tokens, gives: g.sharing === 'both' });
          }
          // The file's other projects give too (the rival's marks): the totals count them.
          const others = await db.all<{ id: string; ham: number; spam: number }>(
            sql`select id, learned_ham as ham, learned_spam as spam from projects
                where spam_sharing = 'both' and id not in (select value from json_each(${JSON.stringify(ids)}))`,
          );
          for (const o of others) modelled.push({ ...o, tokens: new Map() });
          const victim = ids[0] as string;
          const asked = [0, 1, 2, 3, 4, 5].map(feature);
          const { filters } = await filtersOf(
            db,
            new Map([[victim, { features: asked, hashes: [], bands: [] }]]),
            new Date(0).toISOString(),
            new Date(0).toISOString(),
          );
          const read = filters.get(victim)?.shared;
          if (givers[0]?.sharing === 'none') {
            expect(read).toBeUndefined();
            return;
          }
          const expected = deploymentOf(modelled, victim);
          expect(read?.ham).toBeCloseTo(expected.ham, 9);
          expect(read?.spam).toBeCloseTo(expected.spam, 9);
          for (const f of asked) {
            const [h = 0, s = 0] = read?.tokens.get(f) ?? [];
            const [eh = 0, es = 0] = expected.tokens.get(f) ?? [];
            expect(h).toBeCloseTo(eh, 9);
            expect(s).toBeCloseTo(es, 9);
            expect(read?.support.get(f) ?? { projects: 0, operator: false }).toEqual(
              expected.support.get(f) ?? { projects: 0, operator: false },
            );
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 60_000);
});
