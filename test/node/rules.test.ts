// Rules of the spam filter and of analytics that a small slip would break without another test
// noticing (each was once a surviving mutation: docs/testing.md): the verdict's boundary, the allow
// list before the block list, the weight of an owner's mark, a disposable domain in capitals, and a
// visitor's latest leave within one batch.
import { describe, expect, it } from 'vitest';
import { merged } from '../../src/analytics/gather.ts';
import { Learner, MAX_COUNTED, type Prior, score } from '../../src/spam/classifier.ts';
import { features } from '../../src/spam/features.ts';
import { judge, modelsOf, scoreVerdict } from '../../src/spam/judge.ts';
import {
  DEFAULT_THRESHOLD,
  SIGNALS_OFF,
  type SpamSettings,
  UNSURE_BAND,
  unsureFrom,
} from '../../src/spam/settings.ts';
import type { Visit } from '../../src/store/analytics.ts';
import { loadLists } from '../../toolkit/spam-lists.ts';

const lists = loadLists();
const EMPTY: Prior = { bias: 0, calibration: [1, 0], common: new Set(), weights: new Map() };

describe('C39: the verdict of a probability', () => {
  const t = DEFAULT_THRESHOLD;
  it('spam from the threshold on; just below it, unsure', () => {
    expect(scoreVerdict(t, t)).toBe('spam');
    expect(scoreVerdict(0.999, t)).toBe('spam');
    expect(scoreVerdict(t - 0.001, t)).toBe('unsure');
  });

  it(`unsure in the ${UNSURE_BAND} below the threshold, ham below that`, () => {
    expect(unsureFrom(t)).toBeCloseTo(t - UNSURE_BAND, 10);
    expect(scoreVerdict(unsureFrom(t), t)).toBe('unsure');
    expect(scoreVerdict(unsureFrom(t) - 0.001, t)).toBe('ham');
    // A low threshold: the band stops at 0.
    expect(unsureFrom(0.2)).toBe(0);
  });
});

describe('C39: the owner’s lists', () => {
  it('a submission on both the allow list and the block list is ham: the allow list comes first', () => {
    const settings: SpamSettings = {
      mode: 'hold',
      threshold: DEFAULT_THRESHOLD,
      sharing: 'both',
      allow: [{ kind: 'address', value: 'friend@example.com' }],
      block: [{ kind: 'phrase', value: 'backlinks' }],
      ...SIGNALS_OFF,
    };
    const values = { email: 'friend@example.com', message: 'About the backlinks you asked for' };
    const c = { values, honeypot: false, found: features(values, lists), copiesBefore: 0 };
    const judgement = judge(c, settings, modelsOf(EMPTY, new Learner()));
    expect(judgement).toEqual({
      verdict: 'ham',
      score: 0,
      reason: { layer: 'allow list', signals: ['address friend@example.com'] },
    });
    // Alone on the block list, the same text is spam.
    expect(judge(c, { ...settings, allow: [] }, modelsOf(EMPTY, new Learner())).verdict).toBe('spam');
  });
});

describe('C39: an owner’s mark', () => {
  // A prior that calls "quote" a strong sign of ham.
  const prior: Prior = {
    bias: 0,
    calibration: [1, 0],
    common: new Set(['word "the"']),
    weights: new Map([['word "quote"', -1.5]]),
  };
  const marks = (spamWith: number) => {
    const own = new Learner();
    for (let i = 0; i < 8; i++)
      own.learn(i < spamWith ? ['word "quote"', 'word "the"'] : ['word "the"'], true);
    for (let i = 0; i < 8; i++) own.learn([`word "h${i}"`, 'word "the"'], false);
    return own;
  };
  const found = ['word "quote"', 'word "the"'];
  it('outweighs the prior on what it covers: 8 marks turn a ham word to spam', () => {
    expect(score(found, prior, []).probability).toBeLessThan(0.2);
    const marked = score(found, prior, [{ layer: 'project marks', counts: marks(8) }]);
    expect(marked.probability).toBeGreaterThan(0.75);
    // Its weight is the marks' alone: the prior's is set aside.
    expect(marked.parts.filter((p) => p.layer === 'prior')).toEqual([]);
    expect(marked.parts).toContainEqual({
      feature: 'word "quote"',
      layer: 'project marks',
      weight: expect.any(Number),
    });
  });

  it('needs three sightings, never weighs a common word, and moves a score at most MAX_COUNTED', () => {
    const two = score(found, prior, [{ layer: 'project marks', counts: marks(2) }]);
    expect(two.parts).toEqual([{ feature: 'word "quote"', layer: 'prior', weight: -1.5 }]);
    const many = Array.from({ length: 40 }, (_, i) => `word "w${i}"`);
    const own = new Learner();
    for (let i = 0; i < 10; i++) own.learn(many, true);
    own.learn(['word "x"'], false);
    const moved = score(many, { ...prior, weights: new Map() }, [{ layer: 'project marks', counts: own }]);
    expect(Math.log(moved.probability / (1 - moved.probability))).toBeCloseTo(MAX_COUNTED, 8);
  });

  it('the project’s marks speak for a feature before the deployment’s counts', () => {
    const deployment = new Learner();
    for (let i = 0; i < 8; i++) deployment.learn(['word "quote"'], false);
    deployment.learn(['word "y"'], true);
    const both = score(found, prior, [
      { layer: 'project marks', counts: marks(8) },
      { layer: 'deployment', counts: { ...deployment, support: new Map() } },
    ]);
    expect(both.parts.filter((p) => p.feature === 'word "quote"').map((p) => p.layer)).toEqual([
      'project marks',
    ]);
    const alone = score(found, prior, [
      { layer: 'deployment', counts: { ...deployment, support: new Map() } },
    ]);
    expect(alone.parts.filter((p) => p.feature === 'word "quote"').map((p) => p.layer)).toEqual([
      'deployment',
    ]);
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
