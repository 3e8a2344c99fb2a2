// C39: the form's signals as the judge reads them (src/spam/signals.ts, src/spam/judge.ts): which
// hold a submission whatever its text, which only move its score and by how much, and how a
// script's user agent is told from a browser's; the widget's token (src/accept/widget-token.ts)
// signed, checked and renewed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkToken,
  issueToken,
  MAX_CARRY_MS,
  ROTATION_GRACE_MS,
  TOKEN_LIFETIME_MS,
} from '../../src/accept/widget-token.ts';
import { ROTATION_MS, widgetKeys } from '../../src/auth/operator-secret.ts';
import { Learner, type Prior } from '../../src/spam/classifier.ts';
import { judge, modelsOf, SIGNALS_ALONE } from '../../src/spam/judge.ts';
import { charsOf, scriptAgent } from '../../src/spam/request-signals.ts';
import { SIGNALS_OFF, type SpamSettings } from '../../src/spam/settings.ts';
import {
  heldBy,
  MAX_REQUEST,
  MIN_FILL_MS,
  type Signals,
  signalParts,
  signalsOf,
  tooFast,
  typingFloorMs,
  WEIGHTS,
} from '../../src/spam/signals.ts';

const SECRET = { current: 'a'.repeat(43) };
const NOT_REUSED = { token: false, pow: false };
const settings = (over: Partial<SpamSettings> = {}): SpamSettings => ({
  mode: 'hold',
  threshold: 0.78,
  sharing: 'none',
  allow: [],
  block: [],
  ...SIGNALS_OFF,
  ...over,
});
// A prior that knows nothing: the score is the signals' alone (the base rate 0.5).
const NO_PRIOR: Prior = { bias: 0, calibration: [1, 0], common: new Set(), weights: new Map() };
const judged = (signals: Signals | undefined, over: Partial<SpamSettings> = {}, language?: string) =>
  judge(
    { values: { message: 'hello' }, honeypot: false, found: [], copiesBefore: 0, signals, language },
    settings(over),
    modelsOf(NO_PRIOR, new Learner()),
  );
const valid: Signals = { page: true, token: 'valid', nonce: 'n', fillMs: 60_000, chars: 100 };

describe('C39: the signals that hold a submission', () => {
  it('a forged token, a token or proof used before; nothing else unless the owner chose the strict widget', () => {
    expect(heldBy({ page: true, token: 'forged' }, settings(), NOT_REUSED)?.signal).toBe(
      'forged widget token',
    );
    expect(heldBy(valid, settings(), { token: true, pow: false })?.signal).toBe('widget token used before');
    expect(heldBy(valid, settings(), { token: false, pow: true })).toEqual({
      layer: 'proof of work',
      signal: 'proof of work used before',
    });
    // Whatever its key: a proof is a page's, and its reuse holds a server's post too.
    expect(heldBy({ page: false }, settings(), { token: false, pow: true })?.signal).toBe(
      'proof of work used before',
    );
    // How a form was filled holds nobody on its own...
    expect(heldBy({ ...valid, fillMs: 400 }, settings(), NOT_REUSED)).toBeUndefined();
    // ...unless its owner asked for every post through the widget, at a person's pace.
    expect(heldBy({ ...valid, fillMs: 400 }, settings({ requireWidget: true }), NOT_REUSED)?.signal).toBe(
      'filled in 0.4 s',
    );
    expect(heldBy(valid, settings(), NOT_REUSED)).toBeUndefined();
    expect(heldBy(valid, settings({ requireWidget: true }), NOT_REUSED)).toBeUndefined();
  });

  it('no token holds only when the project requires the widget, and never a server (secret key)', () => {
    const missing: Signals = { page: true, token: 'missing' };
    expect(heldBy(missing, settings(), NOT_REUSED)).toBeUndefined();
    expect(heldBy(missing, settings({ requireWidget: true }), NOT_REUSED)?.signal).toBe('no widget token');
    expect(heldBy({ page: false }, settings({ requireWidget: true }), NOT_REUSED)).toBeUndefined();
  });

  it('a person: at least MIN_FILL_MS since the form was first seen, and the typed characters at a person’s pace', () => {
    expect(typingFloorMs(0)).toBe(0);
    expect(typingFloorMs(50)).toBe(2_000);
    expect(typingFloorMs(100_000)).toBe(8_500);
    // Read for six seconds, pasted 290 characters, sent: a person.
    expect(tooFast({ ...valid, fillMs: 6_100, chars: 290, pasted: 290, typingMs: 100 })).toBeUndefined();
    // The same, with an old widget that says nothing of pasting: the typing counts from the token.
    expect(tooFast({ ...valid, fillMs: 6_100, chars: 290 })).toBe('typed 290 characters in 6.1 s');
    expect(tooFast({ ...valid, fillMs: 1_400, chars: 0 })).toBe('filled in 1.4 s');
    // The widget's count of the typing is never longer than the token has existed: a late token
    // shortens it (no "claimed"), a script's report gains nothing.
    expect(tooFast({ ...valid, fillMs: 3_000, chars: 100, typingMs: 90_000 })).toBe(
      'typed 100 characters in 3.0 s',
    );
    expect(tooFast({ ...valid, fillMs: 30_000, chars: 100, typingMs: 3_000 })).toBe(
      'typed 100 characters in 3.0 s',
    );
    // A widget that saw no interaction (0) says nothing of the typing.
    expect(tooFast({ ...valid, fillMs: 30_000, chars: 100, typingMs: 0 })).toBeUndefined();
    expect(tooFast({ page: true, token: 'expired', fillMs: 10 })).toBeUndefined();
  });

  it('whatever was pasted, typed or reported, a person who took as long as a person types is never too fast', () => {
    fc.assert(
      fc.property(
        fc.nat(20_000),
        fc.nat(20_000),
        fc.nat(600_000),
        fc.option(fc.nat(600_000), { nil: undefined }),
        (chars, pasted, extra, reported) => {
          const typed = Math.max(0, chars - pasted);
          // Took MIN_FILL_MS and the typing's floor, however the widget counted it.
          const fillMs = Math.max(MIN_FILL_MS, typingFloorMs(typed)) + extra;
          const typingMs = reported === undefined ? undefined : typingFloorMs(typed) + reported;
          expect(
            tooFast({ ...valid, fillMs, chars, pasted, ...(typingMs === undefined ? {} : { typingMs }) }),
          ).toBeUndefined();
        },
      ),
    );
    expect(charsOf({ a: 'héllo', b: 3, c: '👋🏽' })).toBe(7);
  });

  it('signals alone make a message unsure at most; with its text leaning spam, or the strict widget, spam', () => {
    const bot: Signals = { ...valid, fillMs: 300, agent: 'curl', noLanguage: true };
    // A prior whose base rate is a new project's (0.41): a text it knows nothing of is ham.
    const prior: Prior = { ...NO_PRIOR, bias: -0.36, weights: new Map([['pitch', 0.7]]) };
    const of = (found: string[], over: Partial<SpamSettings> = {}) =>
      judge(
        { values: {}, honeypot: false, found, copiesBefore: 0, signals: bot },
        settings(over),
        modelsOf(prior, new Learner()),
      );
    const alone = of([]);
    expect(alone.verdict).toBe('unsure');
    expect(alone.score ?? 0).toBeGreaterThan(0.78);
    expect(alone.reason?.signals).toContain(SIGNALS_ALONE);
    expect(alone.reason?.signals).toContain('filled in 0.3 s');
    expect(of([], { requireWidget: true }).verdict).toBe('spam');
    // A text that leans spam (unsure on its own) and the same signals: spam.
    const leaning = of(['pitch']);
    expect(leaning.verdict).toBe('spam');
    expect(leaning.reason?.signals).not.toContain(SIGNALS_ALONE);
  });

  it('the layer that holds comes after the allow list: an address its owner trusts is never held', () => {
    const trusted = judge(
      {
        values: { email: 'friend@example.com' },
        honeypot: false,
        found: [],
        copiesBefore: 0,
        signals: { page: true, token: 'forged' },
      },
      settings({ allow: [{ kind: 'address', value: 'friend@example.com' }] }),
      modelsOf(NO_PRIOR, new Learner()),
    );
    expect(trusted.verdict).toBe('ham');
  });
});

describe('C39: the signals that move a score', () => {
  it('what a request says weighs at most MAX_REQUEST together, each named', () => {
    const curl: Signals = { page: true, token: 'missing', agent: 'curl', noLanguage: true };
    const parts = signalParts(curl, settings(), undefined);
    expect(parts.map((p) => p.feature)).toEqual([
      'script user agent (curl)',
      'no Accept-Language',
      'no widget token',
    ]);
    expect(parts.reduce((s, p) => s + p.weight, 0)).toBeCloseTo(MAX_REQUEST);
    // No token alone (a page with its own script, a plain form): nothing, however the score reads.
    expect(signalParts({ page: true, token: 'missing' }, settings(), undefined)).toEqual([]);
    expect(judged({ page: true, token: 'missing' }).score).toBe(0.5);
    const j = judged(curl);
    expect(j.score).toBeCloseTo(1 / (1 + Math.exp(-MAX_REQUEST)));
    expect(j.reason).toEqual({
      layer: 'request',
      signals: ['script user agent (curl)', 'no Accept-Language', 'no widget token'],
    });
    // Too fast, not strict: a signal of the widget's layer that moves the score.
    expect(signalParts({ ...valid, fillMs: 500 }, settings(), undefined)).toEqual([
      { feature: 'filled in 0.5 s', layer: 'widget', weight: WEIGHTS.tooFast },
    ]);
    expect(signalParts({ ...valid, fillMs: 500 }, settings({ requireWidget: true }), undefined)).toEqual([]);
  });

  it('a country or a language the owner did not expect, with what was expected', () => {
    const parts = signalParts(
      { page: true, token: 'valid', country: 'RU' },
      settings({ countries: ['DE', 'AT'] }),
      'ru',
    );
    expect(parts).toEqual([
      { feature: 'country RU; expected DE, AT', layer: 'request', weight: WEIGHTS.country },
      { feature: 'language ru; expected ', layer: 'language', weight: WEIGHTS.language },
    ]);
    const j = judged({ page: true, token: 'valid' }, { languages: ['de', 'en'] }, 'ru');
    expect(j.reason).toEqual({ layer: 'language', signals: ['language ru; expected de, en'] });
    expect(signalParts({ page: true, country: 'DE' }, settings({ countries: ['DE'] }), undefined)).toEqual(
      [],
    );
    expect(signalParts({ page: true, country: 'RU' }, settings(), undefined)).toEqual([]);
  });

  it("a server's request (a secret key) is judged by its text and language alone", () => {
    const server: Signals = { page: false, agent: 'curl', noLanguage: true, country: 'RU' };
    expect(signalParts(server, settings({ countries: ['DE'] }), undefined)).toEqual([]);
    expect(signalParts(server, settings({ languages: ['de'] }), 'ru').map((p) => p.layer)).toEqual([
      'language',
    ]);
  });

  it('stored signals that cannot be read count as none', () => {
    expect(signalsOf(null)).toBeUndefined();
    expect(signalsOf('not json')).toBeUndefined();
    expect(signalsOf('[1]')).toBeUndefined();
    expect(signalsOf(JSON.stringify(valid))).toEqual(valid);
  });
});

describe("C39: a script's user agent", () => {
  it('names the scripts and headless browsers that say so, and none of the browsers people use', () => {
    expect(scriptAgent('curl/8.5.0')).toBe('curl');
    expect(scriptAgent('python-requests/2.32.3')).toBe('Python');
    expect(scriptAgent('Go-http-client/2.0')).toBe('Go-http-client');
    expect(
      scriptAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/131.0 Safari/537.36'),
    ).toBe('headless browser');
    expect(scriptAgent(undefined)).toBe('none');
    expect(scriptAgent('  ')).toBe('none');
    for (const ua of [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    ])
      expect(scriptAgent(ua)).toBeUndefined();
  });

  it('never throws on any header value', () => {
    fc.assert(fc.property(fc.string(), (ua) => void scriptAgent(ua)));
  });
});

describe("C39: the widget's token", () => {
  it('is valid for its project until it expires, and forged for any other or once altered', async () => {
    const now = Date.now();
    const { token, expiresAt } = await issueToken(SECRET, 'p1', now);
    expect(expiresAt).toBe(now + TOKEN_LIFETIME_MS);
    expect(await checkToken(SECRET, 'p1', token, now + 1_000)).toMatchObject({
      state: 'valid',
      startMs: now,
    });
    expect((await checkToken(SECRET, 'p2', token, now)).state).toBe('forged');
    expect((await checkToken({ current: 'b'.repeat(43) }, 'p1', token, now)).state).toBe('forged');
    expect((await checkToken(SECRET, 'p1', token, now + TOKEN_LIFETIME_MS + 1)).state).toBe('expired');
    // Its first time, dated back to pass the fill-time floor: the MAC covers it.
    const [start = '', ...rest] = token.split('.');
    const datedBack = [(Number.parseInt(start, 36) - 600_000).toString(36), ...rest].join('.');
    expect((await checkToken(SECRET, 'p1', datedBack, now + 1_000)).state).toBe('forged');
    // Issued in the future (beyond clocks' disagreement): not ours.
    expect((await checkToken(SECRET, 'p1', token, now - 5 * 60_000)).state).toBe('forged');
  });

  it('renewed, keeps the time the form was first seen, for at most a day', async () => {
    const start = Date.now() - 50 * 60_000;
    const first = await issueToken(SECRET, 'p1', start);
    const renewedAt = Date.now();
    const renewed = await issueToken(SECRET, 'p1', renewedAt, first.token);
    expect((await checkToken(SECRET, 'p1', renewed.token, Date.now())).startMs).toBe(start);
    // Good for its own lifetime from its issue, not from the form's first time.
    expect(renewed.expiresAt).toBe(renewedAt + TOKEN_LIFETIME_MS);
    expect((await checkToken(SECRET, 'p1', renewed.token, renewedAt + 30 * 60_000)).state).toBe('valid');
    expect((await checkToken(SECRET, 'p1', renewed.token, renewedAt + TOKEN_LIFETIME_MS + 1)).state).toBe(
      'expired',
    );
    const old = await issueToken(SECRET, 'p1', Date.now() - MAX_CARRY_MS - 60_000);
    const fresh = await issueToken(SECRET, 'p1', Date.now(), old.token);
    expect((await checkToken(SECRET, 'p1', fresh.token, Date.now())).startMs).toBeGreaterThan(
      Date.now() - 5_000,
    );
    // Another project's token starts nothing over.
    const other = await issueToken(SECRET, 'p2', start);
    const mine = await issueToken(SECRET, 'p1', Date.now(), other.token);
    expect((await checkToken(SECRET, 'p1', mine.token, Date.now())).startMs).toBeGreaterThan(start);
  });

  it('its own key (WIDGET_KEY) before the operator token; a short one is none', () => {
    const admin = 'o'.repeat(43);
    const own = 'w'.repeat(43);
    expect(widgetKeys({ ADMIN_TOKEN: admin }, 0)).toEqual({ current: admin });
    expect(widgetKeys({ ADMIN_TOKEN: admin, WIDGET_KEY: own }, 0)).toEqual({ current: own });
    expect(widgetKeys({ ADMIN_TOKEN: admin, WIDGET_KEY: 'short' }, 0)).toEqual({ current: admin });
    expect(widgetKeys({ ADMIN_TOKEN: 'short' }, 0)).toBeUndefined();
  });

  it('rotated, accepts what the previous key signed before the rotation, for a day after it', async () => {
    const before = 'p'.repeat(43);
    const after = 'n'.repeat(43);
    const rotatedAt = Date.parse('2026-11-28T10:00:00Z');
    const env = { WIDGET_KEY: after, WIDGET_KEY_PREVIOUS: `2026-11-28T10:00:00Z ${before}` };
    // A page opened ten minutes before the rotation holds a token of the previous key.
    const open = await issueToken({ current: before }, 'p1', rotatedAt - 10 * 60_000);
    const keys = widgetKeys(env, rotatedAt + 5 * 60_000);
    expect(keys?.previous).toEqual({ key: before, until: rotatedAt });
    expect((await checkToken(keys as never, 'p1', open.token, rotatedAt + 5 * 60_000)).state).toBe('valid');
    // Renewed under the new key, it keeps the time the form was first seen.
    const renewed = await issueToken(keys as never, 'p1', rotatedAt + 5 * 60_000, open.token);
    expect((await checkToken({ current: after }, 'p1', renewed.token, rotatedAt + 6 * 60_000)).startMs).toBe(
      rotatedAt - 10 * 60_000,
    );
    // The new key takes minutes to reach everywhere: what the old one signed meanwhile is good...
    const meanwhile = await issueToken({ current: before }, 'p1', rotatedAt + 5 * 60_000);
    expect((await checkToken(keys as never, 'p1', meanwhile.token, rotatedAt + 6 * 60_000)).state).toBe(
      'valid',
    );
    // ...but the previous key signs nothing new after that: a token it made later is forged.
    const late = await issueToken({ current: before }, 'p1', rotatedAt + ROTATION_GRACE_MS + 60_000);
    expect(
      (await checkToken(keys as never, 'p1', late.token, rotatedAt + ROTATION_GRACE_MS + 2 * 60_000)).state,
    ).toBe('forged');
    // A day after the rotation the previous key is forgotten; without a time it is never taken.
    expect(widgetKeys(env, rotatedAt + ROTATION_MS + 1)?.previous).toBeUndefined();
    expect(
      widgetKeys({ WIDGET_KEY: after, WIDGET_KEY_PREVIOUS: before }, rotatedAt)?.previous,
    ).toBeUndefined();
  });

  it('any string sent as a token is forged or checked, never an error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), async (t) => {
        const { state } = await checkToken(SECRET, 'p1', t, Date.now());
        expect(state).toBe('forged');
      }),
      { numRuns: 200 },
    );
  });
});
