// C39: campaign memory: a spun copy of a pitch an owner marked spam is the same campaign (near enough
// and found by its band keys), while no genuine message of the form corpus is the campaign of any
// other message; too short a text is never compared; signatures are the same in every isolate and
// read back from storage safely; whatever a stranger sends, the work is bounded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generator, spin, TEMPLATES } from '../../bench/spun.ts';
import {
  BANDS,
  bandKeys,
  campaignText,
  MAX_SHINGLES,
  packSignature,
  ROWS,
  SAME_CAMPAIGN,
  SIGNATURE_SIZE,
  shingles,
  signature,
  similarity,
  unpackSignature,
} from '../../src/spam/campaign.ts';
import { MAX_TEXT } from '../../src/spam/features.ts';
import { loadFormCorpus } from '../../toolkit/form-corpus.ts';

const NAMES = ['John Smith', 'Amit Sharma', 'Emma', 'Robert Brown', 'Alex Lee', 'Oliver Clark'];
const COPIES = 15;

/** The campaign's copies as forms receive them: the sender's name and address spun too. */
function copies(template: string, seed: number) {
  const random = generator(seed);
  return Array.from({ length: COPIES }, (_, i) => {
    const text = campaignText({
      name: NAMES[Math.floor(random() * NAMES.length)],
      email: `sales${i}@mail${Math.floor(random() * 1000)}.example`,
      message: spin(template, random),
    });
    if (text === undefined) throw new Error('a copy too short to compare');
    const sig = signature(text);
    return { sig, keys: new Set(bandKeys(sig)) };
  });
}

type Copy = ReturnType<typeof copies>[number];
const oneCampaign = (a: Copy, b: Copy) =>
  similarity(a.sig, b.sig) >= SAME_CAMPAIGN && [...b.keys].some((k) => a.keys.has(k));

const campaigns = Object.fromEntries(
  Object.entries(TEMPLATES).map(([name, t], i) => [name, copies(t, 39 + i)]),
);

describe('C39: campaign memory: spun copies of one pitch', () => {
  it('are one campaign, near enough and found by a band key, nearly always pair by pair', () => {
    // Measured on 100 copies of each pitch, 95.8% of pairs are both (92% to 100% by pitch: these
    // pitches are spun harder than most campaigns are); of these 15, fixed by their seed, 95.4%.
    // The bounds leave room for a change of folding, not for a change of the scheme.
    let same = 0;
    let pairs = 0;
    for (const [name, group] of Object.entries(campaigns)) {
      let here = 0;
      for (let i = 0; i < group.length; i++)
        for (let j = i + 1; j < group.length; j++) {
          const found = oneCampaign(group[i] as Copy, group[j] as Copy);
          here += found ? 1 : 0;
          pairs++;
        }
      same += here;
      expect(here / ((COPIES * (COPIES - 1)) / 2), name).toBeGreaterThanOrEqual(0.88);
    }
    expect(same / pairs).toBeGreaterThanOrEqual(0.93);
  });

  it('are held once the owner has marked two copies: nearly every other copy is near one of them', () => {
    // The store compares a message with every signature its band keys find, so two marked copies
    // catch what one misses (measured: 99.4% to 99.7% of copies).
    let held = 0;
    let tried = 0;
    for (const group of Object.values(campaigns))
      for (let a = 0; a < group.length; a++) {
        const b = (a + 1) % group.length;
        for (let i = 0; i < group.length; i++) {
          if (i === a || i === b) continue;
          tried++;
          if ([a, b].some((m) => oneCampaign(group[m] as Copy, group[i] as Copy))) held++;
        }
      }
    expect(held / tried).toBeGreaterThanOrEqual(0.98);
  });

  it('are not the campaign of another pitch', () => {
    const names = Object.keys(campaigns);
    for (const [x, first] of names.entries())
      for (const second of names.slice(x + 1))
        for (const a of campaigns[first] ?? [])
          for (const b of campaigns[second] ?? [])
            expect(similarity(a.sig, b.sig), `${first} × ${second}`).toBeLessThan(SAME_CAMPAIGN);
  });
});

describe('C39: campaign memory: what is compared', () => {
  it('leaves out names and addresses, keeps a link by its host, folds digits, drops invisible characters', () => {
    const text = campaignText({
      name: 'Daniel Ortega',
      company_name: 'Acme Rankings',
      email: ' daniel@acme.example ',
      reply: 'other@acme.example',
      message: 'WE BUILD 5,000 backlinks a month for 49 dollars: https://www.Acme.example/p/9x?r=a1 — ask us',
    });
    expect(text).toBe('we build 0 0 backlinks a month for 0 dollars acme example ask us');
    const plain = campaignText({
      message: 'We offer cheap backlinks and guest posts on news sites every month',
    });
    expect(
      campaignText({
        message: 'We offer che\u200Dap back\u00ADlinks and ｇｕｅｓｔ posts on news sites every month',
      }),
    ).toBe(plain);
  });

  it('is nothing for a text too short to call a campaign: a one-liner never matches another', () => {
    for (const message of [
      'Please call me back tomorrow.',
      'Hi, do you ship to Canada? Thanks!',
      'ok ok ok ok ok ok ok ok ok ok',
      'https://a.example/1 https://b.example/2 https://c.example/3',
    ])
      expect(
        campaignText({ name: 'Ada Lovelace', email: 'ada@example.com', message }),
        message,
      ).toBeUndefined();
    // Names and addresses do not count towards the length.
    expect(
      campaignText({ name: 'A very long name of many words that spins', email: 'someone@example.com' }),
    ).toBeUndefined();
  });
});

describe('C39: campaign memory: the form corpus', () => {
  it('no genuine message is the campaign of a spam message, nor of another genuine one', () => {
    // Hand-written messages, each its own: a genuine message held as a campaign is the one mistake
    // that costs. Measured: the nearest pair with a genuine message is 0.105 (27 of 256 positions).
    const corpus = loadFormCorpus();
    const signed = (isSpam: boolean) =>
      corpus
        .filter((l) => l.spam === isSpam)
        .flatMap((l) => {
          const text = campaignText(l.values);
          return text === undefined ? [] : [{ id: l.id, sig: signature(text) }];
        });
    const spam = signed(true);
    const genuine = signed(false);
    expect(spam.length).toBeGreaterThan(150);
    expect(genuine.length).toBeGreaterThan(150);
    let nearest = 0;
    for (const [i, g] of genuine.entries())
      for (const other of [...spam, ...genuine.slice(i + 1)]) {
        const s = similarity(g.sig, other.sig);
        nearest = Math.max(nearest, s);
        if (s >= SAME_CAMPAIGN) expect.fail(`${g.id} and ${other.id} are one campaign (${s})`);
      }
    expect(nearest).toBeGreaterThan(0);
  });
});

/** The first four values of signature('we build backlinks'), as packSignature writes them. */
const PINNED = '06f26b3a0370e97d0b09b1fa0d69efff';

describe('C39: campaign memory: signatures and their keys', () => {
  it('are the same for the same text in every isolate: fixed seeds, no randomness', () => {
    const text = campaignText({ message: spin(TEMPLATES.seo ?? '', generator(1)) }) ?? '';
    expect(signature(text)).toEqual(signature(text));
    expect(similarity(signature(text), signature(text))).toBe(1);
    // Signatures are stored: a change of hash would make every stored one unreadable as a campaign.
    expect(packSignature(signature('we build backlinks')).slice(0, 32)).toBe(PINNED);
  });

  it('have SIGNATURE_SIZE 32-bit values and BANDS short keys of ROWS values each', () => {
    expect(BANDS * ROWS).toBe(SIGNATURE_SIZE);
    const sig = signature('we offer cheap backlinks and guest posts on news sites every month');
    expect(sig).toHaveLength(SIGNATURE_SIZE);
    for (const v of sig) expect(Number.isInteger(v) && v >= 0 && v <= 0xffffffff).toBe(true);
    const keys = bandKeys(sig);
    expect(keys).toHaveLength(BANDS);
    expect(new Set(keys).size).toBe(BANDS);
    for (const [band, key] of keys.entries()) expect(key).toMatch(new RegExp(`^${band}:[0-9a-f]{8}$`));
    // A band's key changes with any of its rows, and with nothing else.
    const changed = [...sig];
    changed[ROWS] = ((changed[ROWS] ?? 0) + 1) >>> 0;
    const other = bandKeys(changed);
    expect(other.filter((k, i) => k !== keys[i])).toEqual([other[1]]);
  });

  it('read back from storage as written, and anything else as nothing', () => {
    const value = fc.integer({ min: 0, max: 0xffffffff });
    fc.assert(
      fc.property(fc.array(value, { minLength: SIGNATURE_SIZE, maxLength: SIGNATURE_SIZE }), (sig) => {
        const packed = packSignature(sig);
        expect(packed).toHaveLength(SIGNATURE_SIZE * 8);
        expect(unpackSignature(packed)).toEqual(sig);
      }),
      { numRuns: 50 },
    );
    const good = packSignature(signature('we offer cheap backlinks and guest posts on news sites'));
    for (const bad of [
      '',
      good.slice(1),
      `${good}0`,
      good.toUpperCase(),
      `${good.slice(0, -1)}g`,
      ` ${good.slice(1)}`,
    ])
      expect(unpackSignature(bad)).toBeUndefined();
    fc.assert(
      fc.property(fc.string({ maxLength: SIGNATURE_SIZE * 9 }), (s) => {
        const out = unpackSignature(s);
        expect(out === undefined || out.length === SIGNATURE_SIZE).toBe(true);
      }),
    );
  });
});

describe('C39: campaign memory: bounded whatever a stranger sends', () => {
  const random = generator(7);
  const word = () =>
    Array.from({ length: 2 + Math.floor(random() * 9) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join('');
  const link = (_: unknown, i: number) => `https://s${i}.example.com/${word()}?q=${i}`;

  it('reads at most MAX_TEXT characters and hashes at most MAX_SHINGLES shingles', () => {
    const hostile: Record<string, unknown>[] = [
      { message: Array.from({ length: 20_000 }, word).join(' ') },
      { message: Array.from({ length: 5_000 }, link).join(' ') },
      { message: Array.from({ length: 20_000 }, () => `${word()}\u200D`).join(' ') },
      { message: '\uFDFA'.repeat(MAX_TEXT) },
      Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`field${i}`, 'spun words '.repeat(1_000)])),
    ];
    for (const values of hostile) {
      const text = campaignText(values);
      expect(text).toBeDefined();
      expect((text ?? '').length).toBeLessThanOrEqual(MAX_TEXT);
      expect(shingles(text ?? '').size).toBeLessThanOrEqual(MAX_SHINGLES);
      expect(signature(text ?? '')).toHaveLength(SIGNATURE_SIZE);
    }
    expect(shingles(Array.from({ length: 20_000 }, word).join(' ')).size).toBe(MAX_SHINGLES);
  });

  it('never throws, on any values or any text', () => {
    const value = fc.oneof(fc.string({ maxLength: 3_000 }), fc.anything());
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 5 }),
        fc.string({ maxLength: 3_000, unit: 'binary' }),
        (values, text) => {
          const compared = campaignText(values);
          if (compared !== undefined) expect(signature(compared)).toHaveLength(SIGNATURE_SIZE);
          const sig = signature(text);
          expect(sig).toHaveLength(SIGNATURE_SIZE);
          expect(bandKeys(sig)).toHaveLength(BANDS);
          expect(shingles(text).size).toBeLessThanOrEqual(MAX_SHINGLES);
        },
      ),
      { numRuns: 200 },
    );
  });
});
