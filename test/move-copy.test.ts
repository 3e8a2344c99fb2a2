// C41: what a move must copy, compare and keep, each rule once a surviving mutation
// (docs/testing.md): a copy with the same row counts but other content is undone; the source is
// deleted only once routing has switched; the project's learnt spam tokens go with it.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { projects, spamTokens, submissions } from '../schema/tables.ts';
import { database } from '../src/store/db.ts';
import { submitWithEnv } from './helpers.ts';
import { api, newProject, ok, problem } from './manage/helpers.ts';

const home = () => database(env.DB);
const eu = () => database(env.DB_EU);
const rowsIn = (db: ReturnType<typeof database>, projectId: string) =>
  db.select().from(submissions).where(eq(submissions.projectId, projectId));

const send = (key: string, email: string) => submitWithEnv(env, { key, json: { email } });

/** A project in default with three submissions. */
async function withRows() {
  const p = await newProject([{ name: 'email', type: 'string' }]);
  for (const email of ['a@example.com', 'b@example.com', 'c@example.com'])
    expect((await send(p.apiKey, email)).status).toBe(201);
  return p;
}

/** Runs `work` with a trigger in a database, removed afterwards whatever happens. */
async function withTrigger<T>(d1: D1Database, name: string, sql: string, work: () => Promise<T>) {
  await d1.prepare(`create trigger ${name} ${sql}`).run();
  try {
    return await work();
  } finally {
    await d1.prepare(`drop trigger if exists ${name}`).run();
  }
}

describe('C41: a move compares content, not only counts', () => {
  it('a copy with the same number of rows but another content is undone (409); the project stays, whole', async () => {
    const p = await withRows();
    const message = await withTrigger(
      env.DB_EU,
      'test_copy_altered',
      `after insert on submissions begin update submissions set data = '{"email":"altered"}' where id = new.id; end`,
      async () => problem(await api('POST', `/projects/${p.projectId}/move`, { body: { to: 'eu' } }), 409),
    );
    expect(message).toMatch(
      /^The move of '.+' to 'eu' was undone: .*submissions differs \(3 rows there, 3 here\)/,
    );
    expect(await rowsIn(home(), p.projectId)).toHaveLength(3);
    expect(await rowsIn(eu(), p.projectId)).toEqual([]);
    expect((await send(p.apiKey, 'd@example.com')).status).toBe(201);
  });
});

describe('C41: the source copy goes only after the switch', () => {
  it('a switch that fails leaves every row where it was; the move run again finishes with all of them', async () => {
    const p = await withRows();
    const res = await withTrigger(
      env.DB,
      'test_switch_refused',
      `before insert on directory when new.lookup like 'k:%' begin select raise(abort, 'switch refused'); end`,
      () => api('POST', `/projects/${p.projectId}/move`, { body: { to: 'eu' } }),
    );
    expect(res.status).toBeGreaterThanOrEqual(500);
    // Copied and verified, but not switched: the source keeps every row.
    expect(await rowsIn(home(), p.projectId)).toHaveLength(3);
    await ok(await api('POST', `/projects/${p.projectId}/move`, { body: { to: 'eu' } }));
    expect((await rowsIn(eu(), p.projectId)).map((r) => JSON.parse(r.data).email).sort()).toEqual([
      'a@example.com',
      'b@example.com',
      'c@example.com',
    ]);
    expect(await rowsIn(home(), p.projectId)).toEqual([]);
    expect(await home().select().from(projects).where(eq(projects.id, p.projectId))).toEqual([]);
  });
});

describe('C41: a move takes everything of the project', () => {
  it('its classifier’s learnt tokens and counts go with it', async () => {
    const p = await withRows();
    await home()
      .insert(spamTokens)
      .values([
        { projectId: p.projectId, token: 'word "backlinks"', ham: 0, spam: 4 },
        { projectId: p.projectId, token: 'word "invoice"', ham: 3, spam: 0 },
      ]);
    await home().update(projects).set({ learnedHam: 3, learnedSpam: 4 }).where(eq(projects.id, p.projectId));
    await ok(await api('POST', `/projects/${p.projectId}/move`, { body: { to: 'eu' } }));
    const tokens = await eu().select().from(spamTokens).where(eq(spamTokens.projectId, p.projectId));
    expect(tokens.map((t) => [t.token, t.ham, t.spam]).sort()).toEqual([
      ['word "backlinks"', 0, 4],
      ['word "invoice"', 3, 0],
    ]);
    expect(await home().select().from(spamTokens).where(eq(spamTokens.projectId, p.projectId))).toEqual([]);
    const [moved] = await eu().select().from(projects).where(eq(projects.id, p.projectId));
    expect(moved).toMatchObject({ learnedHam: 3, learnedSpam: 4 });
  });

  it('its marks count in the deployment of the place it moved to, and no longer where it was', async () => {
    const p = await withRows();
    await home()
      .insert(spamTokens)
      .values({ projectId: p.projectId, token: 'word "moved"', ham: 1, spam: 3, operatorSpam: 1 });
    await ok(await api('POST', `/projects/${p.projectId}/move`, { body: { to: 'eu' } }));
    const there = await eu().select().from(spamTokens).where(eq(spamTokens.projectId, p.projectId));
    expect(there.map((t) => [t.token, t.ham, t.spam, t.operatorSpam])).toEqual([['word "moved"', 1, 3, 1]]);
    expect(await home().select().from(spamTokens).where(eq(spamTokens.projectId, p.projectId))).toEqual([]);
  });
});
