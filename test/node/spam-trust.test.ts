// C39: shared evidence is evidence, not a verdict. What the deployment's other projects marked is
// weighed (each project at most SHARED_WEIGHT marks of each kind) and may make a message unsure;
// it holds only where two other projects agree, or the operator marked it. Whatever one project
// marks, no message of another is held by what it marked alone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NEW_PROJECT } from '../../bench/spam-tally.ts';
import { campaignText, SAME_CAMPAIGN, SIGNATURE_SIZE, signature } from '../../src/spam/campaign.ts';
import { campaignOf } from '../../src/spam/campaign-match.ts';
import {
  AGREEING_PROJECTS,
  deploymentOf,
  type Giver,
  Learner,
  SHARED_WEIGHT,
  score,
  trusted,
} from '../../src/spam/classifier.ts';
import { features } from '../../src/spam/features.ts';
import { agreement, judge, modelsOf } from '../../src/spam/judge.ts';
import { priorOf } from '../../src/spam/model.ts';
import type { CampaignMark } from '../../src/store/campaigns.ts';
import { loadFormCorpus } from '../../toolkit/form-corpus.ts';
import { loadLists, readPrior } from '../../toolkit/spam-lists.ts';

const lists = loadLists();
const prior = priorOf(readPrior());
const settings = NEW_PROJECT;
const NONE = new Learner();
const corpus = loadFormCorpus().map((s) => ({ ...s, found: features(s.values, lists) }));

const giverOf = (id: string, learner: Learner, operator = false): Giver => ({
  id,
  ham: learner.ham,
  spam: learner.spam,
  tokens: new Map([...learner.tokens].map(([f, [h, s]]) => [f, [h, s, operator ? s : 0] as const])),
});

describe('C39: the deployment as one project reads it', () => {
  it('is every giving project’s marks, its own among them: its own hold in it, the others’ agreement counts the others', () => {
    const a = new Learner();
    for (let i = 0; i < 3; i++) a.learn(['x', `a${i}`], true);
    a.learn(['y'], false);
    const b = new Learner();
    b.learn(['x'], false);
    b.learn(['y'], true);
    const asA = deploymentOf([giverOf('A', a), giverOf('B', b)], 'A');
    expect([asA.ham, asA.spam, asA.tokens.get('x'), asA.tokens.get('y')]).toEqual([2, 4, [1, 3], [1, 1]]);
    expect(asA.support.get('x')).toEqual({ projects: 0, operator: false, own: true });
    expect(trusted(asA.support.get('x'))).toBe(true);
    // Read by another project, A's lean on "x" is one project's: not enough to hold.
    const asC = deploymentOf([giverOf('A', a), giverOf('B', b)], 'C');
    expect(asC.support.get('x')).toEqual({ projects: 1, operator: false });
    expect(trusted(asC.support.get('x'))).toBe(false);
  });

  it(`weighs each project at most ${SHARED_WEIGHT} marks of each kind, in proportion`, () => {
    const flood = new Learner();
    for (let i = 0; i < 4 * SHARED_WEIGHT; i++) flood.learn(['pitch', i % 2 === 0 ? 'even' : 'odd'], true);
    for (let i = 0; i < 10; i++) flood.learn(['hello'], false);
    const d = deploymentOf([giverOf('F', flood)], 'B');
    expect([d.spam, d.ham]).toEqual([SHARED_WEIGHT, 10]);
    expect(d.tokens.get('pitch')).toEqual([0, SHARED_WEIGHT]);
    expect(d.tokens.get('even')).toEqual([0, SHARED_WEIGHT / 2]);
    expect(d.tokens.get('hello')).toEqual([10, 0]);
  });

  it('counts the projects whose own marks lean spam on a feature, and the operator’s marks apart', () => {
    const leaning = (spam: number, ham: number) => {
      const l = new Learner();
      for (let i = 0; i < spam; i++) l.learn(['offer', `s${i}`], true);
      for (let i = 0; i < ham; i++) l.learn([i < 1 ? 'offer' : `h${i}`, `h${i}`], false);
      return l;
    };
    // Two lean spam on "offer"; one marked it once among many ham (leans ham); the operator marked it.
    const d = deploymentOf(
      [
        giverOf('A', leaning(3, 3)),
        giverOf('B', leaning(2, 4)),
        giverOf(
          'C',
          (() => {
            const l = new Learner();
            l.learn(['offer'], false);
            l.learn(['offer'], false);
            l.learn(['zzz'], true);
            return l;
          })(),
        ),
        giverOf('O', leaning(1, 1), true),
      ],
      'V',
    );
    expect(d.support.get('offer')).toEqual({ projects: 2, operator: true });
    expect(trusted({ projects: AGREEING_PROJECTS - 1, operator: false })).toBe(false);
    expect(trusted({ projects: AGREEING_PROJECTS, operator: false })).toBe(true);
    expect(trusted({ projects: 0, operator: true })).toBe(true);
    expect(trusted(undefined)).toBe(false);
  });

  it('untrusted evidence counts in the score with everything, and the prior speaks for it in the text’s own', () => {
    const a = new Learner();
    for (let i = 0; i < 5; i++) a.learn(['cleaning', `a${i}`], true);
    for (let i = 0; i < 5; i++) a.learn([`h${i}`], false);
    const one = deploymentOf([giverOf('A', a)], 'V');
    const s = score(['cleaning'], prior, modelsOf(prior, NONE, one).layers);
    expect(s.parts).toEqual([
      expect.objectContaining({ feature: 'cleaning', layer: 'deployment', untrusted: true }),
    ]);
    expect(s.probability).toBeGreaterThan(s.text);
    expect(s.text).toBeCloseTo(score([], prior, []).probability, 12);
  });

  it('reads how many agreed, never which project, when or how alike', () => {
    expect(agreement({ projects: 1, operator: false })).toBe(
      'like spam marked by 1 project on this deployment',
    );
    expect(agreement({ projects: 3, operator: true })).toBe(
      'like spam marked by 3 projects on this deployment',
    );
    expect(agreement({ projects: 0, operator: true })).toBe(
      'like spam the operator marked on this deployment',
    );
  });
});

describe('C39: one project’s marks never hold another’s message', () => {
  const lines = corpus.filter((_, i) => i % 3 === 0);
  const line = fc.constantFrom(...lines);
  const word = fc.constantFrom('cleaning', 'appointment', 'quote', 'invoice', 'next', 'week', 'offer', 'seo');

  it('whatever one project marks (the corpus, its own words, as spam or not), no message of another is held by it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ line, spam: fc.boolean(), extra: fc.array(word, { maxLength: 3 }) }), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.array(line, { minLength: 1, maxLength: 5 }),
        (marks, received) => {
          const attacker = new Learner();
          const campaigns: CampaignMark[] = [];
          marks.forEach(({ line: l, spam, extra }, i) => {
            attacker.learn([...l.found, ...extra.map((w) => `word "${w}"`)], spam);
            const text = campaignText(l.values);
            if (text !== undefined)
              campaigns.push({
                submissionId: `m${i}`,
                projectId: 'A',
                label: spam ? 'spam' : 'ham',
                shared: true,
                byOperator: false,
                signature: signature(text),
                markedAt: '2026-11-28T00:00:00.000Z',
              });
          });
          const deployment = deploymentOf([giverOf('A', attacker)], 'V');
          for (const l of received) {
            const values = { ...l.values, name: 'Robin', email: 'robin@example.org' };
            const text = campaignText(values);
            const found = features(values, lists);
            const base = { values, honeypot: false, found, copiesBefore: 0 };
            const alone = judge(base, settings, modelsOf(prior, NONE));
            const withA = judge(
              {
                ...base,
                campaign: campaignOf(text === undefined ? undefined : signature(text), campaigns, 'V'),
              },
              settings,
              modelsOf(prior, NONE, deployment),
            );
            if (withA.verdict === 'spam') expect(alone.verdict).toBe('spam');
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('the dentist’s case: a rival marks an ordinary request spam; the practice’s copies are unsure at most, and two projects hold them', () => {
    const ordinary = {
      name: 'Jo Smith',
      email: 'jo@example.com',
      message: 'Hello, I would like to book a cleaning next week, any morning works for me. Thank you!',
    };
    const copy = { ...ordinary, name: 'Sam Lee', email: 'sam@example.net' };
    const mark = (projectId: string): CampaignMark => ({
      submissionId: projectId,
      projectId,
      label: 'spam',
      shared: true,
      byOperator: false,
      signature: signature(campaignText(ordinary) ?? ''),
      markedAt: '2026-11-28T00:00:00.000Z',
    });
    const sig = signature(campaignText(copy) ?? '');
    const judged = (marks: CampaignMark[]) =>
      judge(
        {
          values: copy,
          honeypot: false,
          found: features(copy, lists),
          copiesBefore: 0,
          campaign: campaignOf(sig, marks, 'V'),
        },
        settings,
        modelsOf(prior, NONE),
      );
    const one = judged([mark('A')]);
    expect(one.verdict).toBe('unsure');
    expect(one.reason?.signals.join(' ')).not.toMatch(/\d{4}-\d\d-\d\d|%|another project/);
    // Marked by the rival again and again: still one project.
    expect(judged([mark('A'), { ...mark('A'), submissionId: 'A2' }]).verdict).toBe('unsure');
    const two = judged([mark('A'), mark('B')]);
    expect([two.verdict, two.reason?.signals]).toEqual([
      'spam',
      ['like spam marked by 2 projects on this deployment'],
    ]);
    expect(judged([{ ...mark('O'), byOperator: true }]).verdict).toBe('spam');
  });
});

describe("C39: a project's own marks of a campaign", () => {
  // Two signatures that agree on `same` of SIGNATURE_SIZE positions.
  const base = Array.from({ length: SIGNATURE_SIZE }, (_, i) => i);
  const alike = (same: number) => base.map((v, i) => (i < same ? v : v + 100_000));
  const mark = (label: 'spam' | 'ham', signature: number[], markedAt: string): CampaignMark => ({
    submissionId: `${label}-${markedAt}`,
    projectId: 'A',
    label,
    shared: true,
    byOperator: false,
    signature,
    markedAt,
  });

  it('a copy exactly SAME_CAMPAIGN alike is of the campaign; one position less is not', () => {
    const at = SAME_CAMPAIGN * SIGNATURE_SIZE;
    expect(Number.isInteger(at)).toBe(true);
    expect(campaignOf(base, [mark('spam', alike(at), '2026-11-01T00:00:00.000Z')], 'A')?.own).toMatchObject({
      label: 'spam',
      similarity: SAME_CAMPAIGN,
    });
    expect(campaignOf(base, [mark('spam', alike(at - 1), '2026-11-01T00:00:00.000Z')], 'A')).toBeUndefined();
  });

  it('a copy marked not spam protects, whatever spam marks came after it, however more alike', () => {
    const older = mark('ham', alike(40), '2026-11-01T00:00:00.000Z');
    const newer = mark('spam', alike(250), '2026-11-20T00:00:00.000Z');
    for (const order of [
      [newer, older],
      [older, newer],
    ])
      expect(campaignOf(base, order, 'A')?.own?.label).toBe('ham');
  });
});
