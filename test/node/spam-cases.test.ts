// C39, C19: the spam filter's pure parts and the tool's escaping, case by case, with exact values:
// the text a duplicate is compared by, what a list entry matches, each layer's verdict and reason,
// the classifier's arithmetic on counts small enough to check by hand, and each control character
// as the tool shows it.
import { describe, expect, it } from 'vitest';
import { shareOf, VISITORS_PER_ADDRESS } from '../../src/analytics/gather.ts';
import { safeCell, safeText, shown } from '../../src/lib/printable.ts';
import { evidence, explain, Learner, type Prior, score } from '../../src/spam/classifier.ts';
import { features } from '../../src/spam/features.ts';
import { campaignSignal, comparedText, judge, matchList, modelsOf } from '../../src/spam/judge.ts';
import { type ListEntry, SIGNALS_OFF, type SpamSettings } from '../../src/spam/settings.ts';
import { loadLists } from '../../toolkit/spam-lists.ts';

const lists = loadLists();
const NO_PRIOR: Prior = { bias: 0, calibration: [1, 0], common: new Set(), weights: new Map() };
const empty = () => modelsOf(NO_PRIOR, new Learner());
const settings = (over: Partial<SpamSettings> = {}): SpamSettings => ({
  mode: 'hold',
  threshold: 0.75,
  sharing: 'both',
  allow: [],
  block: [],
  ...SIGNALS_OFF,
  ...over,
});
const caseOf = (
  values: Record<string, unknown>,
  over: { honeypot?: boolean; copiesBefore?: number } = {},
) => ({
  values,
  honeypot: over.honeypot ?? false,
  found: features(values, lists),
  copiesBefore: over.copiesBefore ?? 0,
});

describe('C39: the text a duplicate is compared by', () => {
  it('its string values, addresses aside, spaces folded, one a line; too few letters is none', () => {
    expect(
      comparedText({
        email: 'ada@example.com',
        a: '  Hello   there,\tfriend  ',
        n: 5,
        b: 'See you on Thursday',
      }),
    ).toBe('hello there, friend\nsee you on thursday');
    expect(comparedText({ a: 'Yes', b: 'No', c: 'ada@example.com' })).toBeUndefined();
    // Exactly 20 letters is enough; 19 is not.
    expect(comparedText({ a: 'abcdefghij klmnopqrst' })).toBe('abcdefghij klmnopqrst');
    expect(comparedText({ a: 'abcdefghij klmnopqrs' })).toBeUndefined();
    // An address inside a sentence is text.
    expect(comparedText({ a: 'write to ada@example.com please, soon' })).toBe(
      'write to ada@example.com please, soon',
    );
  });
});

describe('C39: what an entry of a list matches', () => {
  const values = {
    email: ' Ada@Example.com ',
    message: 'Visit https://shop.example.org/x and reply soon',
  };
  const c = { values, found: features(values, lists) };
  const entry = (kind: ListEntry['kind'], value: string): ListEntry => ({ kind, value });
  it.each([
    [entry('address', 'ada@example.com'), true],
    [entry('address', 'ADA@EXAMPLE.COM '), true],
    [entry('address', 'bob@example.com'), false],
    [entry('domain', 'example.com'), true],
    [entry('domain', '@example.com'), true],
    [entry('domain', 'shop.example.org'), true],
    [entry('domain', 'example.org'), true],
    [entry('domain', 'other.org'), false],
    [entry('phrase', 'REPLY SOON'), true],
    [entry('phrase', 'reply later'), false],
    [entry('phrase', '   '), false],
  ])('%j: %s', (e, matches) => {
    expect(matchList([e], c)).toEqual(matches ? e : undefined);
  });

  it('the first entry that matches is the one named; none in an empty list', () => {
    const first = entry('phrase', 'visit');
    expect(matchList([entry('phrase', 'nothing'), first, entry('domain', 'example.com')], c)).toBe(first);
    expect(matchList([], c)).toBeUndefined();
  });
});

describe('C39: each layer’s verdict, and its reason', () => {
  const text = { message: 'Could you send me the price list for the new catalogue please?' };
  it('a honeypot is spam, named; whatever the lists say', () => {
    expect(
      judge(
        caseOf(text, { honeypot: true }),
        settings({ allow: [{ kind: 'phrase', value: 'price' }] }),
        empty(),
      ),
    ).toEqual({
      verdict: 'spam',
      score: 1,
      reason: { layer: 'honeypot', signals: [] },
    });
  });

  it('a filter that is off judges nothing', () => {
    expect(judge(caseOf(text), settings({ mode: 'off' }), empty())).toEqual({
      verdict: 'none',
      score: null,
      reason: null,
    });
  });

  it('the block list is spam, naming its entry', () => {
    expect(
      judge(caseOf(text), settings({ block: [{ kind: 'phrase', value: 'price list' }] }), empty()),
    ).toEqual({
      verdict: 'spam',
      score: 1,
      reason: { layer: 'block list', signals: ['phrase price list'] },
    });
  });

  it('the third copy of a text in a day is spam; the second is not', () => {
    expect(judge(caseOf(text, { copiesBefore: 2 }), settings(), empty())).toEqual({
      verdict: 'spam',
      score: 1,
      reason: { layer: 'duplicate', signals: ['the same text 3 times in a day'] },
    });
    expect(judge(caseOf(text, { copiesBefore: 1 }), settings(), empty()).reason?.layer).toBe('prior');
  });

  it('a copy of a campaign its project marked spam is spam, marked not spam ham, naming the mark', () => {
    const match = { similarity: 0.31, markedAt: '2026-11-20T10:00:00.000Z' };
    expect(
      judge({ ...caseOf(text), campaign: { own: { ...match, label: 'spam' } } }, settings(), empty()),
    ).toEqual({
      verdict: 'spam',
      score: 1,
      reason: {
        layer: 'campaign',
        signals: ['31% like a message marked spam in this project on 2026-11-20'],
      },
    });
    const kept = judge(
      {
        ...caseOf(text),
        campaign: { own: { ...match, label: 'ham' }, others: { projects: 3, operator: true } },
      },
      settings(),
      empty(),
    );
    expect(kept.verdict).toBe('ham');
    expect(kept.reason?.signals).toEqual([campaignSignal({ ...match, label: 'ham' })]);
    expect(kept.reason?.signals[0]).toBe('31% like a message marked not spam in this project on 2026-11-20');
    // The lists come first: a campaign never outweighs the owner's allow list.
    const allowed = judge(
      { ...caseOf(text), campaign: { own: { ...match, label: 'spam' } } },
      settings({ allow: [{ kind: 'phrase', value: 'price list' }] }),
      empty(),
    );
    expect(allowed.reason?.layer).toBe('allow list');
  });

  it('C39: copies other projects marked spam are spam when two agree, or the operator; one project makes them unsure', () => {
    const two = judge(
      { ...caseOf(text), campaign: { others: { projects: 2, operator: false } } },
      settings(),
      empty(),
    );
    expect(two).toEqual({
      verdict: 'spam',
      score: 1,
      reason: { layer: 'campaign', signals: ['like spam marked by 2 projects on this deployment'] },
    });
    const operator = judge(
      { ...caseOf(text), campaign: { others: { projects: 0, operator: true } } },
      settings(),
      empty(),
    );
    expect([operator.verdict, operator.reason?.signals]).toEqual([
      'spam',
      ['like spam the operator marked on this deployment'],
    ]);
    // One project alone: unsure, at the unsure band's floor at least, never spam; no date, no likeness.
    const one = judge(
      {
        values: {},
        honeypot: false,
        found: [],
        copiesBefore: 0,
        campaign: { others: { projects: 1, operator: false } },
      },
      settings(),
      modelsOf({ ...NO_PRIOR, bias: -3 }, new Learner()),
    );
    expect(one).toEqual({
      verdict: 'unsure',
      score: 0.45,
      reason: { layer: 'campaign', signals: ['like spam marked by 1 project on this deployment'] },
    });
  });

  it('the classifier’s reason names the signals that point the way of its verdict', () => {
    const learner = new Learner();
    for (let i = 0; i < 10; i++) {
      learner.learn(['word "catalogue"', `word "h${i}"`], false);
      learner.learn(['word "casino"', `word "s${i}"`], true);
    }
    const models = modelsOf(NO_PRIOR, learner);
    const ham = judge(
      { values: {}, honeypot: false, found: ['word "catalogue"'], copiesBefore: 0 },
      settings(),
      models,
    );
    expect(ham.verdict).toBe('ham');
    expect(ham.reason).toEqual({ layer: 'project marks', signals: ['word "catalogue"'] });
    const mixed = judge(
      { values: {}, honeypot: false, found: ['word "catalogue"', 'word "casino"'], copiesBefore: 0 },
      settings(),
      models,
    );
    expect(mixed.verdict).toBe('unsure');
    expect(mixed.reason).toEqual({ layer: 'project marks', signals: ['word "casino"'] });
  });
});

describe('C39: the classifier’s arithmetic', () => {
  const counts = (ham: number, spam: number, tokens: [string, number, number][]) => ({
    ham,
    spam,
    tokens: new Map(tokens.map(([t, h, s]) => [t, [h, s] as const])),
  });

  it('a feature’s evidence: the log-ratio of its shares of spam and ham marks, Laplace-smoothed', () => {
    const c = counts(10, 10, [
      ['t', 1, 3],
      ['rare', 0, 2],
    ]);
    // spam (3 + 1) / 12, ham (1 + 1) / 12: ln 2.
    expect(evidence('t', c)).toBeCloseTo(Math.log(2), 12);
    // Seen twice: too little.
    expect(evidence('rare', c)).toBeUndefined();
    expect(evidence('unseen', c)).toBeUndefined();
    // Marks of one kind only say nothing yet.
    expect(evidence('t', counts(0, 10, [['t', 0, 3]]))).toBeUndefined();
    expect(evidence('t', counts(10, 0, [['t', 3, 0]]))).toBeUndefined();
  });

  it('the prior’s log-odds, calibrated: logistic(a·(bias + Σ weights) + b)', () => {
    const prior: Prior = {
      bias: -1,
      calibration: [2, 0.5],
      common: new Set(),
      weights: new Map([
        ['spammy', 3],
        ['hammy', -2],
      ]),
    };
    const z = 2 * (-1 + 3 - 2) + 0.5;
    const result = score(['spammy', 'hammy', 'unknown', 'spammy'], prior, []);
    expect(result.probability).toBeCloseTo(1 / (1 + Math.exp(-z)), 12);
    expect(result.parts).toEqual([
      { feature: 'spammy', layer: 'prior', weight: 6 },
      { feature: 'hammy', layer: 'prior', weight: -4 },
    ]);
    // Explained each way: the layer that moved it most, its strongest signals first.
    expect(explain(result.parts, true)).toEqual({ layer: 'prior', signals: [result.parts[0]] });
    expect(explain(result.parts, false, 1)).toEqual({ layer: 'prior', signals: [result.parts[1]] });
    expect(explain([], true)).toEqual({ layer: 'prior', signals: [] });
  });
});

describe('C40: a user agent’s share', () => {
  it(`is one of ${VISITORS_PER_ADDRESS}, always the same for the same text, and spread over all of them`, () => {
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const share = shareOf(`Mozilla/5.0 (${i})`);
      expect(share).toBeGreaterThanOrEqual(0);
      expect(share).toBeLessThan(VISITORS_PER_ADDRESS);
      expect(Number.isInteger(share)).toBe(true);
      seen.add(share);
    }
    expect(seen.size).toBe(VISITORS_PER_ADDRESS);
    expect(shareOf('same')).toBe(shareOf('same'));
    // FNV-1a's published values: '' 0x811c9dc5, 'a' 0xe40c292c, 'foobar' 0xbf9cf968.
    expect(shareOf('')).toBe(0x811c9dc5 % VISITORS_PER_ADDRESS);
    expect(shareOf('a')).toBe(0xe40c292c % VISITORS_PER_ADDRESS);
    expect(shareOf('foobar')).toBe(0xbf9cf968 % VISITORS_PER_ADDRESS);
  });
});

describe('C19: each control character, as the tool shows it', () => {
  it.each([
    ['\n', '\\n'],
    ['\r', '\\r'],
    ['\t', '\\t'],
    ['\x1b', '\\x1b'],
    ['\x7f', '\\x7f'],
    ['\x9b', '\\x9b'],
    ['\u2028', '\\u2028'],
    ['\u202e', '\\u202e'],
    ['\u2066', '\\u2066'],
  ])('%j is %s', (ch, written) => {
    expect(shown(`a${ch}b`)).toBe(`a${written}b`);
  });

  it('a whole output keeps its line breaks only; a CSV cell its breaks, returns and tabs', () => {
    expect(safeText('a\nb\rc\td\x1b')).toBe('a\nb\\rc\\td\\x1b');
    expect(safeCell('a\nb\rc\td\x1b')).toBe('a\nb\rc\td\\x1b');
  });
});
