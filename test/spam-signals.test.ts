// C39: the signals only a form has, as the worker runs them: the widget's token (valid, missing,
// forged, expired, used twice) and the time the form took, a private proof of work (required,
// valid, invalid, expired, replayed), what the request says (a script's user agent, no
// Accept-Language, the country), and the message's language; each named in the verdict's reason,
// none stored beyond it.
import { env } from 'cloudflare:workers';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { spamNonces, submissions } from '../schema/tables.ts';
import { newChallenge } from '../src/accept/proof-of-work.ts';
import { issueToken, TOKEN_LIFETIME_MS } from '../src/accept/widget-token.ts';
import { createKey } from '../src/ops/keys.ts';
import { updateProject } from '../src/ops/project-settings.ts';
import { database } from '../src/store/db.ts';
import {
  asTool,
  expectEnvelope,
  fetchWorker,
  seedProject,
  storedRows,
  submit,
  submitWithEnv,
} from './helpers.ts';
import { BROWSER_HEADERS, consumeOutbox, throughWidget, warmSubmissionTrips } from './queue.ts';

const db = database(env.DB);
const SECRET = env.ADMIN_TOKEN as string;
const KEYS = { current: SECRET };
const BROWSER = BROWSER_HEADERS;
const GENUINE = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello, could you tell me whether the workshop on Saturday still has places for two people?',
};

type Row = Awaited<ReturnType<typeof storedRows>>[number];
const reasonOf = (row: Row) => JSON.parse(row.spamReason ?? 'null') as { layer: string; signals: string[] };

/** Sends a submission as told, lets the consumer judge it, and returns its row. */
async function send(
  p: { apiKey: string; projectId: string },
  values: Record<string, unknown>,
  options: { headers?: Record<string, string>; key?: string; status?: number; init?: RequestInit } = {},
): Promise<Row> {
  const before = new Set((await storedRows(p.projectId)).map((r) => r.id));
  const res = await fetchWorker(
    new Request('https://forms.test/api/v1/submit', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${options.key ?? p.apiKey}`,
        'Content-Type': 'application/json',
        ...(options.headers ?? BROWSER),
      },
      body: JSON.stringify(values),
      ...options.init,
    }),
  );
  await expectEnvelope(res, (options.status ?? 201) as 201);
  const row = (await storedRows(p.projectId)).find((r) => !before.has(r.id));
  if (row === undefined) throw new Error('not stored');
  await consumeOutbox([row.id]);
  return (await storedRows(p.projectId)).find((r) => r.id === row.id) as Row;
}

/** A token the widget would hold, issued `ago` milliseconds before now. */
const tokenOf = async (projectId: string, ago = 60_000) =>
  (await issueToken(KEYS, projectId, Date.now() - ago)).token;

const widget = (projectId: string, values = GENUINE, ago?: number) => throughWidget(projectId, values, ago);

describe("C39: the widget's token", () => {
  it('is issued to a publishable key, signed for its project, with no challenge unless the project asks for one', async () => {
    const p = await seedProject();
    const res = await fetchWorker(
      new Request('https://forms.test/api/v1/widget-token', {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ key: p.apiKey }),
      }),
    );
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as {
      data: { token: string; expiresAt: string; challenge?: unknown };
    };
    expect(data.token).toMatch(/^[0-9a-z]+\.[0-9a-z]+\.[\w-]{16}\.[\w-]{22}$/);
    expect(Date.parse(data.expiresAt) - Date.now()).toBeGreaterThan(TOKEN_LIFETIME_MS - 60_000);
    expect(data.challenge).toBeUndefined();
    const unknown = await fetchWorker(
      new Request('https://forms.test/api/v1/widget-token', {
        method: 'POST',
        body: JSON.stringify({ key: 'edgeform_pk_nope' }),
      }),
    );
    expect(unknown.status).toBe(401);
  });

  it('valid and sent by a person: ham, and nothing of the request is kept once judged', async () => {
    const p = await seedProject();
    const row = await send(p, await widget(p.projectId));
    expect(row.verdict).toBe('ham');
    expect(JSON.stringify(row.data)).not.toContain('_widget_token');
    const [stored] = await db.select().from(submissions).where(eq(submissions.id, row.id));
    expect(stored?.signals).toBeNull();
  });

  it('missing, when the project requires the widget: spam, "no widget token"; not required: one signal among others', async () => {
    const p = await seedProject();
    const curl = { 'User-Agent': 'curl/8.5.0', Accept: '*/*' };
    const loose = await send(p, GENUINE, { headers: curl });
    expect(loose.verdict).not.toBe('spam');
    await updateProject(asTool(), p.projectId, { spamFilter: { requireWidget: true } });
    const held = await send(p, GENUINE, { headers: curl });
    expect([held.verdict, reasonOf(held)]).toEqual([
      'spam',
      { layer: 'widget', signals: ['no widget token'] },
    ]);
    // A server posts with a secret key: no widget, no browser, nothing held for it.
    const secret = await createKey(asTool(), p.projectId, 'secret');
    // (Another text: a third copy of one within a day would be a duplicate.)
    const server = await send(
      p,
      { ...GENUINE, message: 'Our order 1182 arrived, thank you very much!' },
      {
        headers: curl,
        key: secret,
      },
    );
    expect(server.verdict).toBe('ham');
  });

  it('forged: spam, "forged widget token"', async () => {
    const p = await seedProject();
    const token = await tokenOf(p.projectId);
    const forged = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const row = await send(p, { ...GENUINE, _widget_token: forged });
    expect([row.verdict, reasonOf(row)]).toEqual([
      'spam',
      { layer: 'widget', signals: ['forged widget token'] },
    ]);
    // Another project's token is forged here too.
    const other = await seedProject();
    const stolen = await send(p, { ...GENUINE, _widget_token: await tokenOf(other.projectId) });
    expect(reasonOf(stolen).signals).toEqual(['forged widget token']);
  });

  it('expired: a signal that moves the score, never a hold on its own', async () => {
    const p = await seedProject();
    const fresh = await send(p, await widget(p.projectId));
    const old = await send(p, await widget(p.projectId, GENUINE, TOKEN_LIFETIME_MS + 60_000));
    expect(old.verdict).not.toBe('spam');
    expect(old.spamScore ?? 0).toBeGreaterThan(fresh.spamScore ?? 1);
  });

  it('used twice: the first submission is ham, the second spam, "widget token used before"', async () => {
    const p = await seedProject();
    const values = await widget(p.projectId);
    const first = await send(p, values);
    const second = await send(p, { ...values, message: `${GENUINE.message} Thanks!` });
    expect(first.verdict).toBe('ham');
    expect([second.verdict, reasonOf(second)]).toEqual([
      'spam',
      { layer: 'widget', signals: ['widget token used before'] },
    ]);
    // Judged again (a message given twice), the first keeps its token.
    await consumeOutbox([first.id]);
    const [nonce] = await db.select().from(spamNonces).where(eq(spamNonces.submissionId, first.id));
    expect(nonce?.nonce).toMatch(/^t:/);
  });

  it('filled faster than a person can: spam only with the strict widget; otherwise it moves the score', async () => {
    const p = await seedProject();
    const person = await send(p, await widget(p.projectId));
    const fast = await send(p, { ...(await widget(p.projectId, GENUINE, 300)), name: 'Al' });
    expect(fast.verdict).not.toBe('spam');
    expect(fast.spamScore ?? 0).toBeGreaterThan((person.spamScore ?? 1) * 2);
    await updateProject(asTool(), p.projectId, { spamFilter: { requireWidget: true } });
    const strict = await send(p, { ...(await widget(p.projectId, GENUINE, 300)), name: 'Bo' });
    expect(strict.verdict).toBe('spam');
    expect(reasonOf(strict).layer).toBe('widget');
    expect(reasonOf(strict).signals[0]).toMatch(/^filled in 0\.\d s$/);
  });

  it('a person who reads for six seconds and pastes a long message is a person, even with the strict widget', async () => {
    const p = await seedProject();
    await updateProject(asTool(), p.projectId, { spamFilter: { requireWidget: true } });
    const message = `${GENUINE.message} `.repeat(3).trim();
    const chars = [...GENUINE.name, ...GENUINE.email, ...message].length;
    const pasted = await send(p, {
      ...GENUINE,
      message,
      _widget_token: await tokenOf(p.projectId, 6_100),
      _fill_ms: 150,
      _pasted: chars,
    });
    expect(pasted.verdict).toBe('ham');
    // A widget that cannot tell (an old one): the typing counts from the token, and is too fast.
    const old = await send(p, {
      ...GENUINE,
      message,
      name: 'Ada L.',
      _widget_token: await tokenOf(p.projectId, 6_100),
    });
    expect(reasonOf(old).signals[0]).toMatch(/^typed \d+ characters in 6\.\d s$/);
  });

  it('renewed, the fill time counts from when the form was first seen, not from the renewal', async () => {
    const p = await seedProject();
    await updateProject(asTool(), p.projectId, { spamFilter: { requireWidget: true } });
    const first = await issueToken(KEYS, p.projectId, Date.now() - 10 * 60_000);
    const renewed = await issueToken(KEYS, p.projectId, Date.now() - 1_000, first.token);
    const row = await send(p, { ...GENUINE, _widget_token: renewed.token });
    expect(row.verdict).toBe('ham');
  });

  it('a late token never makes a post "claimed": the widget’s count is taken no longer than the token’s age', async () => {
    const p = await seedProject();
    await updateProject(asTool(), p.projectId, { spamFilter: { requireWidget: true } });
    // Typed for two minutes; the token came 100 s late (a slow network), 20 s before the send.
    const row = await send(p, { ...(await widget(p.projectId, GENUINE, 20_000)), _fill_ms: 120_000 });
    expect(row.verdict).toBe('ham');
  });

  it('a token of the key before a rotation is accepted for a day after it; a token it signed later is forged', async () => {
    const p = await seedProject();
    const before = env.ADMIN_TOKEN as string;
    const rotated = {
      ...env,
      WIDGET_KEY: 'n'.repeat(43),
      WIDGET_KEY_PREVIOUS: `${new Date().toISOString()} ${before}`,
    } as Env;
    // A page opened a minute ago holds a token of the operator token's key; the operator rotates.
    const open = await widget(p.projectId);
    const res = await submitWithEnv(rotated, { key: p.apiKey, json: open, headers: BROWSER });
    await expectEnvelope(res, 201);
    const [row] = await storedRows(p.projectId);
    await consumeOutbox([row?.id as string], rotated);
    const [judged] = await storedRows(p.projectId);
    expect(judged?.verdict).toBe('ham');
    // Without the previous key, the same page's token would have been forged.
    const late = await tokenOf(p.projectId, 0);
    const unannounced = { ...env, WIDGET_KEY: 'n'.repeat(43) } as Env;
    await expectEnvelope(
      await submitWithEnv(unannounced, {
        key: p.apiKey,
        json: { ...GENUINE, message: 'Another question about Saturday, thank you!', _widget_token: late },
        headers: BROWSER,
      }),
      201,
    );
    const rows = await storedRows(p.projectId);
    await consumeOutbox(
      rows.map((r) => r.id),
      unannounced,
    );
    const forged = (await storedRows(p.projectId)).find((r) => r.id !== row?.id);
    expect(reasonOf(forged as Row).signals).toEqual(['forged widget token']);
  });

  it('adds no D1 round trip to the accepted path', async () => {
    const p = await seedProject();
    const { warm } = await warmSubmissionTrips(p.apiKey);
    expect(warm).toHaveLength(1);
  });
});

/** The payload ALTCHA's widgets send: the challenge, solved. */
async function solved(projectId: string, now = Date.now(), secret = SECRET): Promise<string> {
  const challenge = await newChallenge(secret, projectId, now);
  const solution = await solveChallenge({ challenge, deriveKey });
  if (solution === null) throw new Error('not solved');
  return btoa(JSON.stringify({ challenge, solution }));
}

describe('C39: a proof of work', () => {
  it('required: missing or invalid refused with 400; valid accepted; a second use is spam', async () => {
    const p = await seedProject();
    await updateProject(asTool(), p.projectId, { spamFilter: { proofOfWork: true } });
    const missing = await submit({ key: p.apiKey, json: GENUINE });
    await expectEnvelope(missing, 400, {
      message: 'Invalid request body',
      error: {
        message:
          "This form requires a proof of work (the 'altcha' field): send it through /widget.js, which solves it",
      },
    });
    const invalid = await submit({ key: p.apiKey, json: { ...GENUINE, altcha: btoa('{"challenge":{}}') } });
    expect(invalid.status).toBe(400);
    expect(await storedRows(p.projectId)).toHaveLength(0);
    const altcha = await solved(p.projectId);
    const first = await send(p, { ...(await widget(p.projectId)), altcha });
    expect(first.verdict).toBe('ham');
    const replay = await send(p, { ...(await widget(p.projectId)), altcha });
    expect([replay.verdict, reasonOf(replay)]).toEqual([
      'spam',
      { layer: 'proof of work', signals: ['proof of work used before'] },
    ]);
    // A site's own server (a secret key) is never asked for one, and judged on its text.
    const secret = await createKey(asTool(), p.projectId, 'secret');
    const server = await send(
      p,
      { ...GENUINE, message: 'Our order 1182 arrived, thank you very much!' },
      { key: secret, headers: { 'User-Agent': 'curl/8.5.0' } },
    );
    expect(server.verdict).toBe('ham');
  });

  it('solved under the key before a rotation: accepted for a day after it', async () => {
    const p = await seedProject();
    await updateProject(asTool(), p.projectId, { spamFilter: { proofOfWork: true } });
    const rotated = {
      ...env,
      WIDGET_KEY: 'n'.repeat(43),
      WIDGET_KEY_PREVIOUS: `${new Date().toISOString()} ${SECRET}`,
    } as Env;
    const altcha = await solved(p.projectId);
    await expectEnvelope(await submitWithEnv(rotated, { key: p.apiKey, json: { ...GENUINE, altcha } }), 201);
    const unannounced = { ...env, WIDGET_KEY: 'n'.repeat(43) } as Env;
    const refused = await submitWithEnv(unannounced, {
      key: p.apiKey,
      json: { ...GENUINE, altcha: await solved(p.projectId) },
    });
    expect(refused.status).toBe(400);
  });

  it("expired, or another project's: refused", async () => {
    const p = await seedProject();
    const other = await seedProject();
    await updateProject(asTool(), p.projectId, { spamFilter: { proofOfWork: true } });
    const old = await solved(p.projectId, Date.now() - 2 * 60 * 60_000);
    const expired = await submit({ key: p.apiKey, json: { ...GENUINE, altcha: old } });
    expect(((await expired.json()) as { data: { error: { message: string } } }).data.error.message).toMatch(
      /is expired/,
    );
    const foreign = await submit({
      key: p.apiKey,
      json: { ...GENUINE, altcha: await solved(other.projectId) },
    });
    expect(foreign.status).toBe(400);
  });

  it('the token endpoint gives a challenge to a project that requires one', async () => {
    const p = await seedProject();
    await updateProject(asTool(), p.projectId, { spamFilter: { proofOfWork: true } });
    const res = await fetchWorker(
      new Request('https://forms.test/api/v1/widget-token', {
        method: 'POST',
        body: JSON.stringify({ key: p.apiKey }),
      }),
    );
    const { data } = (await res.json()) as { data: { challenge?: { parameters: { algorithm: string } } } };
    expect(data.challenge?.parameters.algorithm).toBe('SHA-256');
  });
});

describe('C39: what the request says', () => {
  it("a script's user agent and no Accept-Language are named, and move the score", async () => {
    const p = await seedProject();
    const python = { 'User-Agent': 'python-requests/2.32.3' };
    const person = await send(p, await widget(p.projectId));
    const script = await send(p, GENUINE, { headers: python });
    expect(script.spamScore ?? 0).toBeGreaterThan(person.spamScore ?? 1);
    // A doubtful text: from a person, unsure at most; from a script, further towards spam, and the
    // reason says why.
    const pitch = { ...GENUINE, message: 'We can help you grow your business with our marketing services.' };
    const fromPerson = await send(p, await widget(p.projectId, pitch));
    const fromScript = await send(p, { ...pitch, name: 'Bob' }, { headers: python });
    expect(fromScript.spamScore ?? 0).toBeGreaterThan(fromPerson.spamScore ?? 1);
    expect(fromScript.verdict).not.toBe('ham');
    expect(reasonOf(fromScript).signals).toEqual(
      expect.arrayContaining(['script user agent (Python)', 'no Accept-Language']),
    );
  });

  it('a country the project does not expect is named', async () => {
    const p = await seedProject();
    await updateProject(asTool(), p.projectId, { spamFilter: { countries: ['de', 'AT'] } });
    const pitch = { ...GENUINE, message: 'We can help you grow your business with our marketing services.' };
    const row = await send(p, await widget(p.projectId, pitch), {
      init: { cf: { country: 'RU' } } as RequestInit,
    });
    expect(reasonOf(row).signals).toContain('country RU; expected DE, AT');
  });

  it('a message surely in a language the project does not expect is named', async () => {
    const p = await seedProject();
    await updateProject(asTool(), p.projectId, { spamFilter: { languages: ['de', 'en'] } });
    const russian = {
      ...GENUINE,
      message: 'Здравствуйте! Мы предлагаем продвижение вашего сайта в поисковых системах по низкой цене.',
    };
    const row = await send(p, await widget(p.projectId, russian));
    expect(row.verdict).not.toBe('ham');
    expect(reasonOf(row).signals).toContain('language ru; expected de, en');
    const anyLanguage = await seedProject();
    const elsewhere = await send(anyLanguage, await widget(anyLanguage.projectId, russian));
    expect(row.spamScore ?? 0).toBeGreaterThan(elsewhere.spamScore ?? 1);
    const english = await send(p, await widget(p.projectId));
    expect(english.verdict).toBe('ham');
  });
});
