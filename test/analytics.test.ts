// C40: form analytics as the worker counts them: events from the widget, gathered per isolate and
// written in batches; a visitor a daily hash, deduplicated per form and day; no cookie, no stored
// address or user agent, nothing for a visitor who asks not to be tracked; the day rolled up and
// its hashes and salt deleted once it is over.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyticsDays, analyticsSalts, analyticsVisitors } from '../schema/tables.ts';
import { COUNTED_MS, VISITORS_PER_ADDRESS, visitorOf } from '../src/analytics/gather.ts';
import { EVENTS_PATH } from '../src/http/paths.ts';
import { deleteProject } from '../src/ops/projects.ts';
import { submissionStats } from '../src/ops/stats.ts';
import { rollUp } from '../src/store/analytics.ts';
import { database } from '../src/store/db.ts';
import { spyD1 } from './d1-spy.ts';
import { asTool, fetchWorkerWith, seedProject } from './helpers.ts';
import { secretKeyOf } from './manage/helpers.ts';

const db = database(env.DB);
const today = () => new Date().toISOString().slice(0, 10);

type Visitor = { ip?: string; ua?: string; headers?: Record<string, string> };

function eventRequest(body: unknown, who: Visitor = {}): Request {
  return new Request(`https://forms.test${EVENTS_PATH}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'text/plain;charset=UTF-8',
      'CF-Connecting-IP': who.ip ?? '203.0.113.7',
      'User-Agent': who.ua ?? 'Mozilla/5.0 (test)',
      ...who.headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Sends one event and waits for what it does after its reply (the batch written). */
const send = (body: unknown, who?: Visitor, testEnv: Env = env, wait = true) =>
  fetchWorkerWith(testEnv, eventRequest(body, who), wait);

/** A different address for each visitor (one address adds a bounded number of them). */
const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

async function statsOf(projectId: string) {
  return submissionStats(asTool(), projectId, 1);
}

const todayOf = async (projectId: string) => {
  const stats = await statsOf(projectId);
  return stats.days[stats.days.length - 1];
};

describe('C40: events count views, starts, submissions and where visitors give up', () => {
  it('a view, a start, a leave at a field: the stats show them, the drop-off in field order', async () => {
    const p = await seedProject();
    const who = { ua: 'visitor one' };
    for (const e of [{ type: 'view' }, { type: 'start' }, { type: 'leave', field: 'phone', ms: 12_000 }])
      expect((await send({ key: p.apiKey, ...e }, who)).status).toBe(204);
    await send({ key: p.apiKey, type: 'view' }, { ua: 'visitor two' });
    const stats = await statsOf(p.projectId);
    const day = stats.days[stats.days.length - 1];
    expect(day).toMatchObject({ views: 2, starts: 1, accepted: 0, completionRate: 0, conversionRate: 0 });
    expect(stats.dropOff.map((d) => d.field)).toEqual(['name', 'email', 'phone', 'enquiry', 'message']);
    expect(stats.dropOff.find((d) => d.field === 'phone')).toEqual({
      field: 'phone',
      step: 1,
      visitors: 1,
      averageSeconds: 12,
    });
    expect(stats.dropOff.filter((d) => d.visitors > 0)).toHaveLength(1);
  });

  it('C46: a field of a page in steps says its step: a visitor who left there left at that step', async () => {
    const p = await seedProject();
    await env.DB.prepare("update fields set step = 2 where project_id = ? and name in ('enquiry', 'message')")
      .bind(p.projectId)
      .run();
    const who = { ua: 'visitor in steps' };
    for (const e of [{ type: 'start' }, { type: 'leave', field: 'message', ms: 30_000 }])
      await send({ key: p.apiKey, ...e }, who);
    const stats = await statsOf(p.projectId);
    expect(stats.dropOff.map((d) => [d.field, d.step])).toEqual([
      ['name', 1],
      ['email', 1],
      ['phone', 1],
      ['enquiry', 2],
      ['message', 2],
    ]);
    expect(stats.dropOff.find((d) => d.visitors > 0)).toEqual({
      field: 'message',
      step: 2,
      visitors: 1,
      averageSeconds: 30,
    });
  });

  it('a visitor who leaves and comes back to submit did not give up; the median time to submit is theirs', async () => {
    const p = await seedProject();
    const who = { ua: 'comes back' };
    await send({ key: p.apiKey, type: 'start' }, who);
    await send({ key: p.apiKey, type: 'leave', field: 'email', ms: 5000 }, who);
    await send({ key: p.apiKey, type: 'submit', ms: 30_000 }, who);
    await send({ key: p.apiKey, type: 'submit', ms: 10_000 }, { ua: 'quick' });
    await send({ key: p.apiKey, type: 'submit', ms: 50_000 }, { ua: 'slow' });
    const stats = await statsOf(p.projectId);
    expect(stats.dropOff.every((d) => d.visitors === 0)).toBe(true);
    expect(stats.medianSecondsToSubmit).toBe(30);
  });

  it('a form id counts as its key does; a leave at a name that is not a field counts in no field', async () => {
    const p = await seedProject();
    expect((await send({ form: p.formId, type: 'start' })).status).toBe(204);
    await send({ form: p.formId, type: 'leave', field: '_gotcha', ms: 100 });
    const day = await todayOf(p.projectId);
    expect(day?.starts).toBe(1);
    expect((await statsOf(p.projectId)).dropOff.every((d) => d.visitors === 0)).toBe(true);
  });
});

describe('C40: one visitor counts once per form and day', () => {
  it('reloads are not new views; another browser or address is a new visitor', async () => {
    const p = await seedProject();
    for (let i = 0; i < 5; i++)
      await send({ key: p.apiKey, type: 'view' }, { ua: 'same', ip: '198.51.100.1' });
    expect((await todayOf(p.projectId))?.views).toBe(1);
    await send({ key: p.apiKey, type: 'view' }, { ua: 'other', ip: '198.51.100.1' });
    await send({ key: p.apiKey, type: 'view' }, { ua: 'same', ip: '198.51.100.2' });
    expect((await todayOf(p.projectId))?.views).toBe(3);
  });

  it('the same visitor on two forms counts on each', async () => {
    const a = await seedProject();
    const b = await seedProject();
    await send({ key: a.apiKey, type: 'view' }, { ua: 'both' });
    await send({ key: b.apiKey, type: 'view' }, { ua: 'both' });
    expect((await todayOf(a.projectId))?.views).toBe(1);
    expect((await todayOf(b.projectId))?.views).toBe(1);
  });

  it('stores no address or user agent: only a hash, which the next day salt makes different', async () => {
    const p = await seedProject();
    const ip = '192.0.2.77';
    const ua = 'A very particular browser 1.0';
    await send({ key: p.apiKey, type: 'view' }, { ip, ua });
    const rows = await db
      .select()
      .from(analyticsVisitors)
      .where(eq(analyticsVisitors.projectId, p.projectId));
    expect(rows).toHaveLength(1);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(ip);
    expect(text).not.toContain('particular');
    const [salt] = await db.select().from(analyticsSalts).where(eq(analyticsSalts.day, today()));
    expect(rows[0]?.visitor).toBe(await visitorOf(salt?.salt ?? '', ip, ua, p.projectId));
    expect(await visitorOf('another day', ip, ua, p.projectId)).not.toBe(rows[0]?.visitor);
  });
});

describe('C40: a day that is over is rolled up, and its hashes and salt deleted', () => {
  it('keeps the counts, deletes every visitor row and the salt of the days before', async () => {
    const p = await seedProject();
    await send({ key: p.apiKey, type: 'view' }, { ua: 'a' });
    await send({ key: p.apiKey, type: 'start' }, { ua: 'a' });
    await send({ key: p.apiKey, type: 'leave', field: 'message', ms: 4000 }, { ua: 'a' });
    await send({ key: p.apiKey, type: 'view' }, { ua: 'b' });
    await send({ key: p.apiKey, type: 'submit', ms: 20_000 }, { ua: 'b' });
    const before = await statsOf(p.projectId);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await rollUp(db, tomorrow);
    expect(await db.select().from(analyticsVisitors)).toEqual([]);
    expect(await db.select().from(analyticsSalts)).toEqual([]);
    const [rolled] = await db.select().from(analyticsDays).where(eq(analyticsDays.projectId, p.projectId));
    expect(rolled).toMatchObject({ day: today(), views: 2, starts: 2, timed: 1, medianSubmitMs: 20_000 });
    const after = await statsOf(p.projectId);
    expect(after).toEqual(before);
    // The next event of the day makes a new salt: the old hashes cannot be made again.
    await send({ key: p.apiKey, type: 'view' }, { ua: 'a' });
    expect((await todayOf(p.projectId))?.views).toBe(3);
  });
});

describe('C40: privacy', () => {
  it('Sec-GPC: 1 and DNT: 1 are answered 204 and not counted', async () => {
    const p = await seedProject();
    for (const headers of [{ 'Sec-GPC': '1' }, { DNT: '1' }]) {
      const res = await send({ key: p.apiKey, type: 'view' }, { headers });
      expect(res.status).toBe(204);
    }
    expect((await todayOf(p.projectId))?.views).toBe(0);
    await send({ key: p.apiKey, type: 'view' }, { headers: { 'Sec-GPC': '0' } });
    expect((await todayOf(p.projectId))?.views).toBe(1);
  });

  it('sets no cookie, and a cookie sent changes nothing', async () => {
    const p = await seedProject();
    const res = await send(
      { key: p.apiKey, type: 'view' },
      { headers: { Cookie: 'visitor=123', Origin: 'https://site.example' } },
    );
    expect(res.status).toBe(204);
    expect(res.headers.get('Set-Cookie')).toBeNull();
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('https://site.example');
    expect(await res.text()).toBe('');
    const again = await send({ key: p.apiKey, type: 'view' }, { headers: { Cookie: 'visitor=456' } });
    expect(again.headers.get('Set-Cookie')).toBeNull();
    expect((await todayOf(p.projectId))?.views).toBe(1);
  });
});

describe('C40: counting costs no D1 write per event', () => {
  it('200 concurrent events of 200 visitors: every one counted, in a few batches', async () => {
    const p = await seedProject();
    const spy = spyD1(env.DB);
    const spied = { ...env, DB: spy.db } as Env;
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        send({ key: p.apiKey, type: 'view' }, { ua: `visitor ${i}`, ip: addressOf(i) }, spied),
      ),
    );
    expect((await todayOf(p.projectId))?.views).toBe(200);
    const writes = spy.trips.filter((t) => t.includes('insert into analytics_visitors'));
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.length).toBeLessThanOrEqual(5);
  });

  it('a batch that fails is written with the next one: no increment lost', async () => {
    const p = await seedProject();
    let failing = true;
    const spy = spyD1(env.DB, (sql) => failing && sql.includes('analytics_visitors'));
    const spied = { ...env, DB: spy.db } as Env;
    await send({ key: p.apiKey, type: 'view' }, { ua: 'first' }, spied);
    expect((await todayOf(p.projectId))?.views).toBe(0);
    failing = false;
    await send({ key: p.apiKey, type: 'view' }, { ua: 'second' }, spied);
    expect((await todayOf(p.projectId))?.views).toBe(2);
  });

  it('while D1 fails, the visitors kept wait for the interval: never a batch per event', async () => {
    const p = await seedProject();
    const spy = spyD1(env.DB, (sql) => sql.includes('analytics_visitors'));
    const spied = { ...env, DB: spy.db } as Env;
    const writes = () => spy.trips.filter((t) => t.includes('insert into analytics_visitors')).length;
    await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        send({ key: p.apiKey, type: 'view' }, { ua: `outage ${i}`, ip: addressOf(i) }, spied),
      ),
    );
    const afterFirst = writes();
    expect(afterFirst).toBeGreaterThan(0);
    // 500 visitors kept: each further event would otherwise start a batch at once (D1 fails fast).
    for (let i = 0; i < 20; i++) {
      await send(
        { key: p.apiKey, type: 'view' },
        { ua: `later ${i}`, ip: addressOf(1000 + i) },
        spied,
        false,
      );
      await scheduler.wait(10);
    }
    // About 200 ms of events: a batch per 50 ms interval at most, not one per event.
    expect(writes() - afterFirst).toBeLessThanOrEqual(6);
  });

  it("a deleted project's events never fail another project's batch", async () => {
    const gone = await seedProject();
    const kept = await seedProject();
    const spy = spyD1(env.DB);
    const spied = { ...env, DB: spy.db } as Env;
    // Both in one batch: the first event's reply is not awaited past its flush.
    const first = send({ key: gone.apiKey, type: 'view' }, { ua: 'x' }, spied);
    const second = send({ key: kept.apiKey, type: 'view' }, { ua: 'x' }, spied);
    await deleteProject(asTool(), gone.projectId);
    await Promise.all([first, second]);
    expect((await todayOf(kept.projectId))?.views).toBe(1);
  });

  it('a script replaying the beacon from one address moves the counts by a bounded amount', async () => {
    const p = await seedProject();
    const tight = { ...env, EVENT_RATE_LIMIT: env.TIGHT_EVENT_RATE_LIMIT } as Env;
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      statuses.push(
        (await send({ key: p.apiKey, type: 'view' }, { ua: `forged ${i}`, ip: '203.0.113.99' }, tight))
          .status,
      );
    }
    expect(statuses.filter((s) => s === 204)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(27);
    expect((await todayOf(p.projectId))?.views).toBe(3);
  });
});

describe('C40: what one address can make up', () => {
  it(`a script rotating its user agent adds at most ${VISITORS_PER_ADDRESS} visitors to a form in a day`, async () => {
    const p = await seedProject();
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        send({ key: p.apiKey, type: 'view' }, { ua: `Forged/${i}`, ip: '198.51.100.250' }),
      ),
    );
    const views = (await todayOf(p.projectId))?.views ?? 0;
    expect(views).toBeLessThanOrEqual(VISITORS_PER_ADDRESS);
    // Browsers behind one address are still told apart, up to the bound (an office, a home).
    expect(views).toBeGreaterThan(VISITORS_PER_ADDRESS / 2);
  });

  it('an IPv6 /64 is one address: its every address and user agent add no more', async () => {
    const p = await seedProject();
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        send({ key: p.apiKey, type: 'view' }, { ua: `Six/${i}`, ip: `2001:db8:5:6::${i.toString(16)}` }),
      ),
    );
    expect((await todayOf(p.projectId))?.views).toBeLessThanOrEqual(VISITORS_PER_ADDRESS);
    const before = (await todayOf(p.projectId))?.views ?? 0;
    await send({ key: p.apiKey, type: 'view' }, { ua: 'Six/last', ip: '2001:db8:5:7::1' });
    expect((await todayOf(p.projectId))?.views).toBe(before + 1);
  });

  it('a forged or replayed time counts as at most an hour: the median and the drop-off move that far only', async () => {
    const p = await seedProject();
    await send({ key: p.apiKey, type: 'submit', ms: 20_000 }, { ip: '198.51.100.31' });
    for (let i = 0; i < 3; i++) {
      const who = { ip: '198.51.100.32' };
      await send({ key: p.apiKey, type: 'start' }, who);
      await send({ key: p.apiKey, type: 'leave', field: 'email', ms: 86_400_000 }, who);
    }
    await send({ key: p.apiKey, type: 'submit', ms: 86_400_000 }, { ip: '198.51.100.33' });
    const stats = await statsOf(p.projectId);
    expect(stats.dropOff.find((d) => d.field === 'email')).toEqual({
      field: 'email',
      step: 1,
      visitors: 1,
      averageSeconds: COUNTED_MS / 1000,
    });
    // Two timed submissions: 20 s and the forged day, counted as an hour.
    expect(stats.medianSecondsToSubmit).toBe((20 + COUNTED_MS / 1000) / 2);
    const rows = await db
      .select()
      .from(analyticsVisitors)
      .where(eq(analyticsVisitors.projectId, p.projectId));
    expect(Math.max(...rows.map((r) => Math.max(r.leftMs ?? 0, r.submitMs ?? 0)))).toBe(COUNTED_MS);
  });
});

describe('C40: a malformed or oversized event is refused, and nothing counted', () => {
  const cases: [string, unknown][] = [
    ['not JSON', '{"type":'],
    ['no type', { key: 'k' }],
    ['an unknown type', { type: 'click' }],
    ['an unknown member', { type: 'view', visitorId: 'abc' }],
    ['both key and form', { type: 'view', form: 'f_abcd1234' }],
    ['a negative time', { type: 'leave', ms: -1 }],
    ['a time past a day', { type: 'submit', ms: 86_400_001 }],
    ['a 10 KB field name', { type: 'leave', field: 'x'.repeat(10_000) }],
    ['an oversized body', { type: 'view', pad: 'y'.repeat(2000) }],
  ];
  for (const [name, body] of cases) {
    it(name, async () => {
      const p = await seedProject();
      const withKey =
        typeof body === 'object' && body !== null && !('key' in body) ? { key: p.apiKey, ...body } : body;
      const res = await send(withKey);
      expect(res.status).toBe(400);
      expect((await todayOf(p.projectId))?.views).toBe(0);
      expect((await todayOf(p.projectId))?.starts).toBe(0);
    });
  }

  it('any JSON at all: 204 or 400, never a fault (property)', async () => {
    const p = await seedProject();
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            type: fc.oneof(fc.constantFrom('view', 'start', 'leave', 'submit'), fc.string()),
            field: fc.oneof(fc.string({ maxLength: 300 }), fc.integer()),
            ms: fc.oneof(fc.integer({ min: -10, max: 90_000_000 }), fc.double(), fc.string()),
          },
          { requiredKeys: ['type'] },
        ),
        async (event) => {
          const res = await send({ key: p.apiKey, ...event }, { ua: 'property' });
          expect([204, 400]).toContain(res.status);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('an unknown key is 401, a secret key 403, an origin the project does not allow 403, an unknown form 404', async () => {
    const p = await seedProject({ origins: ['https://allowed.example'] });
    expect((await send({ key: 'edgeform_pk_nothing', type: 'view' })).status).toBe(401);
    expect((await send({ key: await secretKeyOf(p.projectId), type: 'view' })).status).toBe(403);
    expect(
      (await send({ key: p.apiKey, type: 'view' }, { headers: { Origin: 'https://elsewhere.example' } }))
        .status,
    ).toBe(403);
    expect((await send({ form: 'f_unknown0', type: 'view' })).status).toBe(404);
    expect((await todayOf(p.projectId))?.views).toBe(0);
    expect(
      (await send({ key: p.apiKey, type: 'view' }, { headers: { Origin: 'https://allowed.example' } }))
        .status,
    ).toBe(204);
    expect((await todayOf(p.projectId))?.views).toBe(1);
  });
});
