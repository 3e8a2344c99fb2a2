// Rules of the spam filter and of analytics that a small slip would break without another test
// noticing (each was once a surviving mutation: docs/testing.md): the verdict's boundary, the allow
// list before the block list, the weight of an owner's mark, a disposable domain in capitals, and a
// visitor's latest leave within one batch.
import { describe, expect, it } from 'vitest';
import { loadLists } from '../../scripts/spam-lists.ts';
import { merged } from '../../src/analytics/gather.ts';
import { Learner, tokenProbability } from '../../src/spam/classifier.ts';
import { features } from '../../src/spam/features.ts';
import { judge, layers, MIN_STRONG_CLUES, scoreVerdict } from '../../src/spam/judge.ts';
import { DEFAULT_THRESHOLD, HAM_CUTOFF, type SpamSettings } from '../../src/spam/settings.ts';
import type { Visit } from '../../src/store/analytics.ts';

const lists = loadLists();

describe('C39: the verdict of a score', () => {
  const t = DEFAULT_THRESHOLD;
  it(`spam takes a score above the threshold and at least ${MIN_STRONG_CLUES} strong clues; one fewer is not spam`, () => {
    expect(scoreVerdict(t + 0.01, MIN_STRONG_CLUES, t)).toBe('spam');
    expect(scoreVerdict(t + 0.01, MIN_STRONG_CLUES + 1, t)).toBe('spam');
    expect(scoreVerdict(t + 0.01, MIN_STRONG_CLUES - 1, t)).toBe('unsure');
    expect(scoreVerdict(0.999, MIN_STRONG_CLUES - 1, t)).toBe('unsure');
  });

  it('a score at the threshold is not above it; just above is', () => {
    expect(scoreVerdict(t, MIN_STRONG_CLUES, t)).toBe('unsure');
    expect(scoreVerdict(t + Number.EPSILON * 4, MIN_STRONG_CLUES, t)).toBe('spam');
    expect(scoreVerdict(t - 0.01, MIN_STRONG_CLUES + 5, t)).toBe('unsure');
  });

  it(`below ${HAM_CUTOFF} is ham; at it, unsure`, () => {
    expect(scoreVerdict(HAM_CUTOFF, 0, t)).toBe('unsure');
    expect(scoreVerdict(HAM_CUTOFF - 0.001, 0, t)).toBe('ham');
  });
});

describe('C39: the owner’s lists', () => {
  it('a submission on both the allow list and the block list is ham: the allow list comes first', () => {
    const settings: SpamSettings = {
      mode: 'hold',
      threshold: DEFAULT_THRESHOLD,
      allow: [{ kind: 'address', value: 'friend@example.com' }],
      block: [{ kind: 'phrase', value: 'backlinks' }],
    };
    const values = { email: 'friend@example.com', message: 'About the backlinks you asked for' };
    const c = { values, honeypot: false, found: features(values, lists), copiesBefore: 0 };
    const judgement = judge(c, settings, layers(new Learner(), new Learner()));
    expect(judgement).toEqual({
      verdict: 'ham',
      score: 0,
      reason: { layer: 'allow list', signals: ['address friend@example.com'] },
    });
    // Alone on the block list, the same text is spam.
    expect(judge(c, { ...settings, allow: [] }, layers(new Learner(), new Learner())).verdict).toBe('spam');
  });
});

describe('C39: an owner’s mark', () => {
  it('outweighs the prior on what it covers: 8 marks against 30 of the prior’s messages', () => {
    const prior = new Learner();
    for (let i = 0; i < 2000; i++) prior.learn(i < 30 ? ['word "quote"'] : [`word "p${i}"`], false);
    for (let i = 0; i < 2000; i++) prior.learn([`word "s${i}"`], true);
    const own = new Learner();
    for (let i = 0; i < 8; i++) own.learn(['word "quote"'], true);
    for (let i = 0; i < 8; i++) own.learn([`word "h${i}"`], false);
    // The prior alone: a ham word. With the owner's marks, as the filter weighs them: spam's.
    expect(tokenProbability('word "quote"', [{ counts: prior, weight: 1 }])).toBeLessThan(0.2);
    expect(tokenProbability('word "quote"', layers(prior, own))).toBeGreaterThan(0.55);
  });
});

describe('C39: disposable addresses', () => {
  it('a disposable domain is one in any case: x@Mailinator.COM', () => {
    for (const email of ['x@mailinator.com', 'x@Mailinator.COM', 'X@MAILINATOR.COM']) {
      expect(features({ email }, lists), email).toContain('disposable address');
    }
    expect(features({ email: 'x@example.com' }, lists)).not.toContain('disposable address');
  });
});

describe('C40: a visitor within one batch', () => {
  const visit = (left: Visit['left'], submitMs: number | null = null): Visit => ({
    projectId: 'p',
    day: '2026-11-26',
    visitor: 'v',
    viewed: false,
    started: true,
    submitted: submitMs !== null,
    submitMs,
    left,
  });

  it('two leaves in one batch: the later one’s field and time are the ones counted', () => {
    const first = visit({ field: 'email', ms: 1000 });
    const second = visit({ field: 'message', ms: 9000 });
    expect(merged(first, second).left).toEqual({ field: 'message', ms: 9000 });
    expect(merged(second, first).left).toEqual({ field: 'email', ms: 1000 });
    // A later event that is no leave keeps the leave before it.
    expect(merged(second, visit(null)).left).toEqual({ field: 'message', ms: 9000 });
  });

  it('what one event says is never taken back by a later one: viewed, started, submitted stay', () => {
    const a = { ...visit(null, 5000), viewed: true };
    const b = { ...visit(null), started: false };
    expect(merged(a, b)).toMatchObject({ viewed: true, started: true, submitted: true, submitMs: 5000 });
  });
});
