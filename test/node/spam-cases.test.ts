// C39, C19: the spam filter's pure parts and the tool's escaping, case by case, with exact values:
// the text a duplicate is compared by, what a list entry matches, each layer's verdict and reason,
// the classifier's arithmetic on counts small enough to check by hand, and each control character
// as the tool shows it.
import { describe, expect, it } from 'vitest';
import { loadLists } from '../../scripts/spam-lists.ts';
import { shareOf, VISITORS_PER_ADDRESS } from '../../src/analytics/gather.ts';
import { safeCell, safeText, shown } from '../../src/lib/printable.ts';
import { classify, Learner, tokenProbability } from '../../src/spam/classifier.ts';
import { features } from '../../src/spam/features.ts';
import { comparedText, judge, layers, matchList } from '../../src/spam/judge.ts';
import type { ListEntry, SpamSettings } from '../../src/spam/settings.ts';

const lists = loadLists();
const empty = () => layers(new Learner(), new Learner());
const settings = (over: Partial<SpamSettings> = {}): SpamSettings => ({
  mode: 'hold',
  threshold: 0.5,
  allow: [],
  block: [],
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
    expect(judge(caseOf(text, { copiesBefore: 1 }), settings(), empty()).reason?.layer).toBe('classifier');
  });

  it('the classifier’s reason names the signals that point the way of its verdict', () => {
    const learner = new Learner();
    for (let i = 0; i < 10; i++) {
      learner.learn(['word "catalogue"', `word "h${i}"`], false);
      learner.learn(['word "casino"', `word "s${i}"`], true);
    }
    const models = layers(learner, new Learner());
    const ham = judge(
      { values: {}, honeypot: false, found: ['word "catalogue"'], copiesBefore: 0 },
      settings(),
      models,
    );
    expect(ham.verdict).toBe('ham');
    expect(ham.reason).toEqual({ layer: 'classifier', signals: ['word "catalogue"'] });
    const mixed = judge(
      { values: {}, honeypot: false, found: ['word "catalogue"', 'word "casino"'], copiesBefore: 0 },
      settings(),
      models,
    );
    expect(mixed.verdict).toBe('unsure');
    expect(mixed.reason).toEqual({ layer: 'classifier', signals: ['word "casino"'] });
  });
});

describe('C39: the classifier’s arithmetic', () => {
  const counts = (ham: number, spam: number, tokens: [string, number, number][]) => ({
    ham,
    spam,
    tokens: new Map(tokens.map(([t, h, s]) => [t, [h, s] as const])),
  });

  it("Robinson's probability of a token, from the counts of each model times its weight", () => {
    const a = counts(10, 10, [['t', 1, 3]]);
    // ham 1/10, spam 3/10: p = 0.75; n = 4: (0.45 × 0.5 + 4 × 0.75) / 4.45.
    expect(tokenProbability('t', [{ counts: a, weight: 1 }])).toBeCloseTo(3.225 / 4.45, 12);
    // Weighed twice, alone: the same ratios, twice the evidence.
    expect(tokenProbability('t', [{ counts: a, weight: 2 }])).toBeCloseTo((0.225 + 8 * 0.75) / 8.45, 12);
    // With another model that never saw it: its messages dilute the spam side only.
    const b = counts(0, 20, []);
    expect(
      tokenProbability('t', [
        { counts: a, weight: 1 },
        { counts: b, weight: 1 },
      ]),
    ).toBeCloseTo((0.225 + 4 * (0.1 / (0.1 + 0.1))) / 4.45, 12);
    expect(tokenProbability('unseen', [{ counts: a, weight: 1 }])).toBeUndefined();
    expect(tokenProbability('t', [{ counts: counts(0, 10, [['t', 0, 3]]), weight: 1 }])).toBeUndefined();
    expect(tokenProbability('t', [{ counts: counts(10, 0, [['t', 3, 0]]), weight: 1 }])).toBeUndefined();
  });

  it('combines clues into a score, keeps those that say something, names the strongest each way, counts the strong', () => {
    const c = counts(100, 100, [
      ['spammy', 0, 50],
      ['hammy', 50, 0],
      ['bland', 10, 10],
      ['lean', 4, 6],
    ]);
    const models = [{ counts: c, weight: 1 }];
    const pSpam = tokenProbability('spammy', models) ?? 0;
    const pHam = tokenProbability('hammy', models) ?? 0;
    const result = classify(['bland', 'lean', 'spammy', 'hammy'], models, 1);
    // 'bland' (0.5) and 'lean' (0.59) say too little to be used.
    expect(result.signals).toEqual([
      { feature: 'spammy', p: pSpam },
      { feature: 'hammy', p: pHam },
    ]);
    expect(result.strong).toBe(1);
    expect(result.score).toBeCloseTo(0.5, 6);
    const spam = classify(['spammy'], models);
    const ham = classify(['hammy'], models);
    expect(spam.score).toBeGreaterThan(0.95);
    expect(ham.score).toBeLessThan(0.05);
    expect(spam.score + ham.score).toBeCloseTo(1, 9);
    expect(ham.strong).toBe(0);
    expect(classify(['bland'], models)).toEqual({ score: 0.5, signals: [], strong: 0 });
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
