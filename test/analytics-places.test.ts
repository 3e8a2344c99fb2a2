// C40, C41: form analytics in a worker with several places: each place hashes its visitors with its
// own day salt, stored and used only there; a project's events sent while it moves, and right after
// (from an isolate that still has it in its old place), are counted where it went.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { visitorOf } from '../src/analytics/gather.ts';
import { EVENTS_PATH } from '../src/http/paths.ts';
import { database } from '../src/store/db.ts';
import { beginMove } from '../src/store/directory.ts';
import { fetchWorkerWith } from './helpers.ts';
import { api, newProject, ok } from './manage/helpers.ts';

const today = () => new Date().toISOString().slice(0, 10);

const view = (key: string, ip: string, wait = true) =>
  fetchWorkerWith(
    env,
    new Request(`https://forms.test${EVENTS_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'CF-Connecting-IP': ip, 'User-Agent': 'Places/1.0' },
      body: JSON.stringify({ key, type: 'view' }),
    }),
    wait,
  );

const saltIn = async (d1: D1Database) =>
  (await d1.prepare('select salt from analytics_salts where day = ?').bind(today()).first<{ salt: string }>())
    ?.salt;

const visitorsIn = async (d1: D1Database, projectId: string) =>
  (
    await d1
      .prepare('select visitor from analytics_visitors where project_id = ? and day = ?')
      .bind(projectId, today())
      .all<{ visitor: string }>()
  ).results.map((r) => r.visitor);

describe('C40, C41: analytics per place', () => {
  it("each place hashes its visitors with its own day's salt, kept in its own database", async () => {
    const here = await newProject();
    const there = await newProject(undefined, { region: 'eu' });
    // The default place's salt first, so that an isolate with one salt would use it for eu too.
    expect((await view(here.apiKey, '192.0.2.10')).status).toBe(204);
    expect((await view(there.apiKey, '192.0.2.11')).status).toBe(204);
    const [homeSalt, euSalt] = [await saltIn(env.DB), await saltIn(env.DB_EU)];
    expect(homeSalt).toBeDefined();
    expect(euSalt).toBeDefined();
    expect(euSalt).not.toBe(homeSalt);
    expect(await visitorsIn(env.DB_EU, there.projectId)).toEqual([
      await visitorOf(euSalt ?? '', '192.0.2.11', 'Places/1.0', there.projectId),
    ]);
    expect(await visitorsIn(env.DB, there.projectId)).toEqual([]);
  });

  it('events sent while the project moves, and after it from an isolate that had it in its old place, are counted where it went', async () => {
    const { projectId, apiKey } = await newProject();
    const home = database(env.DB);
    expect((await view(apiKey, '198.18.0.1')).status).toBe(204); // the key cached here, in default
    await beginMove(home, home, projectId, 'default', 'eu');
    const during = ['198.18.0.2', '198.18.0.3', '198.18.0.4', '198.18.0.5'];
    for (const ip of during) expect((await view(apiKey, ip, false)).status).toBe(204);
    // The move taken up again and finished (C41).
    await ok(await api('POST', `/projects/${projectId}/move`, { body: { to: 'eu' } }));
    for (const ip of ['198.18.0.6', '198.18.0.7']) expect((await view(apiKey, ip)).status).toBe(204);
    // The batches that waited for the move are written within a few intervals.
    let counted = 0;
    for (let i = 0; i < 60 && counted < 7; i++) {
      counted = (await visitorsIn(env.DB_EU, projectId)).length;
      if (counted < 7) await scheduler.wait(50);
    }
    expect(counted).toBe(7);
    expect(await visitorsIn(env.DB, projectId)).toEqual([]);
  });
});
