// C23–C25: the read API, end to end through the worker: secret keys, listing with cursors, reading,
// deleting and erasing; and retention through the scheduled handler.
import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BOOKMARK_HEADER } from '../src/api/submissions/routes.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { createKey } from '../src/ops/keys.ts';
import { database } from '../src/store/db.ts';
import { MAX_PAGE_BYTES } from '../src/store/inbox.ts';
import { insertSubmissions, type NewSubmission } from '../src/store/intake.ts';
import { updateProjectSettings } from '../src/store/projects.ts';
import { isWrite, spyD1 } from './d1-spy.ts';
import {
  asTool,
  expectEnvelope,
  seedProject,
  storedRows,
  submit,
  submitWithEnv,
  VALID_BODY,
} from './helpers.ts';

const BASE = 'https://forms.test/api/v1/submissions';

type Item = { id: string; receivedAt: string; fields: Record<string, unknown>; spam: boolean };
type ListData = { message: string; submissions: Item[]; nextCursor?: string };

async function withSecret(spec: Parameters<typeof seedProject>[0] = {}) {
  const p = await seedProject(spec);
  const secret = await createKey(asTool(), p.projectId, 'secret');
  return { ...p, secret };
}

function read(key: string, path = '', init: RequestInit & { headers?: Record<string, string> } = {}) {
  return submit({
    url: `${BASE}${path}`,
    key,
    method: init.method ?? 'GET',
    contentType: init.method === 'POST' ? 'application/json' : null,
    headers: init.headers ?? {},
    body: (init.body as string | undefined) ?? null,
  });
}

async function okData<T>(res: Response): Promise<T> {
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
  const body = (await res.json()) as { data: T; status: unknown };
  expect(body.status).toEqual({ code: 200, message: 'OK' });
  return body.data;
}

/** Rows with ids and times in arrival order, inserted directly (many, quickly). */
async function insertRows(
  projectId: string,
  count: number,
  make: (i: number) => Partial<NewSubmission> = () => ({}),
) {
  const base = Date.parse('2026-01-01T00:00:00Z');
  const rows: NewSubmission[] = Array.from({ length: count }, (_, i) => ({
    id: uuidv7(base + i * 1000),
    projectId,
    data: JSON.stringify({ name: `n${i}` }),
    receivedAt: new Date(base + i * 1000).toISOString(),
    ...make(i),
  }));
  for (let i = 0; i < rows.length; i += 100) await insertSubmissions(env.DB, rows.slice(i, i + 100));
  return rows;
}

async function listAll(key: string, query: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const q = `${query}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const data = await okData<ListData>(await read(key, `?${q}`));
    ids.push(...data.submissions.map((s) => s.id));
    cursor = data.nextCursor;
    pages++;
  } while (cursor !== undefined && pages < 10_000);
  return { ids, pages };
}

describe('C23: keys for the read API', () => {
  let p: Awaited<ReturnType<typeof withSecret>>;
  beforeAll(async () => {
    p = await withSecret();
  });

  it('C23: a publishable key is refused with 403, saying a secret key is needed', async () => {
    await expectEnvelope(await read(p.apiKey), 403, {
      message: 'Request refused',
      error: { message: 'This route needs a secret key (edgeform_sk_…); a publishable key can only submit' },
    });
  });

  it('C6 + C24: no key or a wrong key is 401, as on the submit path', async () => {
    await expectEnvelope(await submit({ url: BASE, method: 'GET', contentType: null }), 401);
    await expectEnvelope(await read('edgeform_sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), 401, {
      message: 'Authentication failed',
      error: { message: 'Invalid API key' },
    });
  });

  it('C23: a secret key may submit too, from a server; in a browser request (Origin) it is refused', async () => {
    await expectEnvelope(await submit({ key: p.secret, json: VALID_BODY }), 201);
    await expectEnvelope(
      await submit({ key: p.secret, json: VALID_BODY, headers: { Origin: 'https://site.example' } }),
      403,
      {
        message: 'Request refused',
        error: {
          message:
            'A secret key must never be used in a web page: use a publishable key (edgeform_pk_…) there',
        },
      },
    );
  });

  it('C21 + C23: a secret key has its per-key limit only, not the per-address one', async () => {
    const q = await withSecret();
    const tight = { ...env, ADDRESS_RATE_LIMIT: env.TIGHT_ADDRESS_RATE_LIMIT };
    const server = { 'CF-Connecting-IP': '198.51.100.77' };
    // The tight per-address limit is 2: a server's third request goes through on its secret key.
    for (let i = 0; i < 4; i++) {
      await expectEnvelope(
        await submitWithEnv(tight, { key: q.secret, json: VALID_BODY, headers: server }),
        201,
      );
    }
    // Its publishable key has the address's two.
    for (let i = 0; i < 2; i++) {
      await expectEnvelope(
        await submitWithEnv(tight, { key: q.apiKey, json: VALID_BODY, headers: server }),
        201,
      );
    }
    await expectEnvelope(
      await submitWithEnv(tight, { key: q.apiKey, json: VALID_BODY, headers: server }),
      429,
    );
  });
});

describe('C24: listing', () => {
  it('C24: a page in the envelope: id, receivedAt, fields as stored, spam; no CORS headers; a bookmark', async () => {
    const p = await withSecret();
    await submit({ key: p.apiKey, json: VALID_BODY });
    // C23: from a page (with Origin), a secret key is refused on every route; no CORS either way.
    const fromPage = await read(p.secret, '', { headers: { Origin: 'https://site.example' } });
    await expectEnvelope(fromPage, 403, {
      message: 'Request refused',
      error: {
        message: 'A secret key must never be used in a web page: use a publishable key (edgeform_pk_…) there',
      },
    });
    expect(fromPage.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const res = await read(p.secret, '');
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect(res.headers.get('Access-Control-Expose-Headers')).toBeNull();
    expect(res.headers.get(BOOKMARK_HEADER)).toBeTruthy();
    const data = await okData<ListData>(res);
    expect(data.message).toBe('1 submission');
    expect(data.nextCursor).toBeUndefined();
    expect(data.submissions).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        receivedAt: expect.any(String),
        fields: VALID_BODY,
        spam: false,
        // C39: not judged yet (the queue's consumer has not run in this test).
        spamScore: null,
        spamReason: null,
      },
    ]);
    const [row] = await storedRows(p.projectId);
    expect(data.submissions[0]?.id).toBe(row?.id);
  });

  it('C24 (property): paging through N submissions with random page sizes, in both orders, yields each once, in order', async () => {
    const p = await withSecret();
    const rows = await insertRows(p.projectId, 60);
    const ids = rows.map((r) => r.id);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 70 }),
        fc.constantFrom('asc', 'desc'),
        async (limit, order) => {
          const { ids: seen, pages } = await listAll(p.secret, `limit=${limit}&order=${order}`);
          expect(seen).toEqual(order === 'asc' ? ids : [...ids].reverse());
          expect(pages).toBe(Math.max(1, Math.ceil(60 / limit)));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('C24: pages are bounded in bytes too: large rows come a few at a time, and every one comes', async () => {
    const p = await withSecret();
    const big = 'x'.repeat(900 * 1024);
    const rows = await insertRows(p.projectId, 10, (i) => ({
      data: JSON.stringify({ name: `${i}`, message: big }),
    }));
    const first = await okData<ListData>(await read(p.secret, '?limit=1000'));
    expect(first.submissions.length).toBe(Math.floor(MAX_PAGE_BYTES / (900 * 1024 + 30)));
    expect(first.nextCursor).toBeDefined();
    const { ids } = await listAll(p.secret, 'limit=1000');
    expect(ids).toEqual(rows.map((r) => r.id));
  });

  it('C24: since (inclusive) and until (exclusive) select by the time received', async () => {
    const p = await withSecret();
    const rows = await insertRows(p.projectId, 10);
    const at = (i: number) => rows[i]?.receivedAt ?? '';
    const { ids } = await listAll(p.secret, `since=${at(3)}&until=${at(7)}`);
    expect(ids).toEqual(rows.slice(3, 7).map((r) => r.id));
    const desc = await listAll(p.secret, `since=${at(3)}&until=${at(7)}&order=desc&limit=3`);
    expect(desc.ids).toEqual(
      rows
        .slice(3, 7)
        .map((r) => r.id)
        .reverse(),
    );
  });

  it('C22 + C24: spam is left out unless asked for; spam=only gives it alone', async () => {
    const p = await withSecret();
    const rows = await insertRows(p.projectId, 6, (i) => ({ spam: i % 3 === 0 }));
    const idsOf = async (q: string) => (await listAll(p.secret, q)).ids;
    expect(await idsOf('spam=exclude')).toEqual(rows.filter((r) => !r.spam).map((r) => r.id));
    expect(await idsOf('limit=2')).toEqual(rows.filter((r) => !r.spam).map((r) => r.id));
    expect(await idsOf('spam=include')).toEqual(rows.map((r) => r.id));
    expect(await idsOf('spam=only')).toEqual(rows.filter((r) => r.spam).map((r) => r.id));
  });

  it('C24: a project sees only its own submissions', async () => {
    const a = await withSecret();
    const b = await withSecret();
    await insertRows(a.projectId, 3);
    const bRows = await insertRows(b.projectId, 2);
    expect((await listAll(b.secret, 'limit=1')).ids).toEqual(bRows.map((r) => r.id));
  });

  it.each([
    ['limit=0', 'limit', 'must be a whole number from 1 to 1000'],
    ['limit=1001', 'limit', 'must be a whole number from 1 to 1000'],
    ['limit=ten', 'limit', 'must be a whole number from 1 to 1000'],
    ['limit=2.5', 'limit', 'must be a whole number from 1 to 1000'],
    ['order=sideways', 'order', 'must be one of: asc, desc'],
    ['spam=maybe', 'spam', 'must be one of: exclude, include, only'],
    ['since=yesterday', 'since', 'must be an ISO 8601 time, e.g. 2026-11-22T09:00:00Z'],
    ['until=2026-13-45', 'until', 'must be an ISO 8601 time, e.g. 2026-11-22T09:00:00Z'],
    ['since=2026-02-31', 'since', 'must be an ISO 8601 time, e.g. 2026-11-22T09:00:00Z'],
    ['since=2026-02-29T10:00:00Z', 'since', 'must be an ISO 8601 time, e.g. 2026-11-22T09:00:00Z'],
    ['until=2026-11-22T24:00:00Z', 'until', 'must be an ISO 8601 time, e.g. 2026-11-22T09:00:00Z'],
    ['until=2026-11-22T09:60Z', 'until', 'must be an ISO 8601 time, e.g. 2026-11-22T09:00:00Z'],
    [
      'cursor=garbage',
      'cursor',
      'is not a cursor of this listing (use nextCursor as given, with the same order)',
    ],
    ['page=2', 'page', 'is not known: use limit, cursor, since, until, order, spam'],
  ])('C24: a bad parameter (%s) is 400 naming it', async (query, name, expected) => {
    const p = await withSecret();
    await expectEnvelope(await read(p.secret, `?${query}`), 400, {
      message: 'Invalid request',
      error: { message: `Query parameter '${name}' ${expected}` },
    });
  });

  it('C24: limit=1000 is the largest page asked for, and is honoured; days and times without seconds are times', async () => {
    const p = await withSecret();
    await insertRows(p.projectId, 3);
    expect((await okData<ListData>(await read(p.secret, '?limit=1000'))).submissions).toHaveLength(3);
    expect(
      (await okData<ListData>(await read(p.secret, '?since=2026-01-01&until=2026-01-01T00:00:02Z')))
        .submissions,
    ).toHaveLength(2);
    expect(
      (await okData<ListData>(await read(p.secret, '?since=2024-02-29T00:00%2B01:00'))).submissions,
    ).toHaveLength(3);
  });

  it('C24: a cursor of one order cannot be used with the other', async () => {
    const p = await withSecret();
    await insertRows(p.projectId, 3);
    const page = await okData<ListData>(await read(p.secret, '?limit=1&order=asc'));
    const res = await read(p.secret, `?limit=1&order=desc&cursor=${page.nextCursor}`);
    await expectEnvelope(res, 400);
  });
});

describe('C24: one submission', () => {
  it("C24: GET reads it; another project's id, an unknown id and a malformed one are 404 alike", async () => {
    const a = await withSecret();
    const b = await withSecret();
    const [mine] = await insertRows(a.projectId, 1);
    const [theirs] = await insertRows(b.projectId, 1);
    const data = await okData<{ message: string; submission: Item }>(await read(a.secret, `/${mine?.id}`));
    expect(data).toEqual({
      message: 'Submission found',
      submission: {
        id: mine?.id,
        receivedAt: mine?.receivedAt,
        fields: { name: 'n0' },
        spam: false,
        spamScore: null,
        spamReason: null,
      },
    });
    const notFound = {
      message: 'Not found',
      error: { message: 'No submission with this id in this project' },
    };
    await expectEnvelope(await read(a.secret, `/${theirs?.id}`), 404, notFound);
    await expectEnvelope(await read(a.secret, `/${uuidv7()}`), 404, notFound);
    await expectEnvelope(await read(a.secret, '/not-an-id'), 404, notFound);
  });

  it("C24 + C25: DELETE removes it (200), then it is 404; another project's cannot be deleted", async () => {
    const a = await withSecret();
    const b = await withSecret();
    const [mine, kept] = await insertRows(a.projectId, 2);
    const [theirs] = await insertRows(b.projectId, 1);
    const data = await okData<{ message: string; deleted: string }>(
      await read(a.secret, `/${mine?.id}`, { method: 'DELETE' }),
    );
    expect(data).toEqual({ message: 'Submission deleted', deleted: mine?.id });
    await expectEnvelope(await read(a.secret, `/${mine?.id}`, { method: 'DELETE' }), 404);
    await expectEnvelope(await read(a.secret, `/${theirs?.id}`, { method: 'DELETE' }), 404);
    expect((await storedRows(a.projectId)).map((r) => r.id)).toEqual([kept?.id]);
    expect(await storedRows(b.projectId)).toHaveLength(1);
  });
});

describe('C25: erasure', () => {
  const erase = (key: string, body: unknown) =>
    read(key, '/erase', { method: 'POST', body: JSON.stringify(body) });

  it('C25: deletes exactly the submissions whose field holds that JSON value, in this project only', async () => {
    const a = await withSecret();
    const b = await withSecret();
    const values = ['ada@example.com', 'ADA@example.com', 42, '42', true, null, 'ada@example.com'];
    const rows = await insertRows(a.projectId, values.length, (i) => ({
      data: JSON.stringify({ email: values[i], note: 'ada@example.com' }),
    }));
    await insertRows(b.projectId, 1, () => ({ data: JSON.stringify({ email: 'ada@example.com' }) }));
    const data = await okData<{ message: string; erased: number }>(
      await erase(a.secret, { field: 'email', value: 'ada@example.com' }),
    );
    expect(data).toEqual({ message: 'Erased 2 submissions', erased: 2 });
    const left = (await storedRows(a.projectId)).map((r) => r.id);
    expect(left).toEqual(rows.filter((_, i) => values[i] !== 'ada@example.com').map((r) => r.id));
    expect(await storedRows(b.projectId)).toHaveLength(1);
    // Each JSON type matches only itself: 42 is not "42", true is not 1.
    expect(
      (await okData<{ erased: number }>(await erase(a.secret, { field: 'email', value: 42 }))).erased,
    ).toBe(1);
    expect(
      (await okData<{ erased: number }>(await erase(a.secret, { field: 'email', value: true }))).erased,
    ).toBe(1);
    expect(
      (await okData<{ erased: number }>(await erase(a.secret, { field: 'email', value: null }))).erased,
    ).toBe(1);
    expect((await storedRows(a.projectId)).map((r) => JSON.parse(r.data).email)).toEqual([
      'ADA@example.com',
      '42',
    ]);
  });

  it('C25 (property): erasure removes exactly the matching rows, whatever the field name and values', async () => {
    const p = await withSecret();
    const names = fc.constantFrom('email', 'a.b', 'we"ird', '$[0]', 'émail', '__proto__');
    const scalars = fc.oneof(
      fc.constantFrom('x', 'y', 1, 2, 1.5, true, false, null),
      fc.string({ maxLength: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(names, scalars), { minLength: 1, maxLength: 12 }),
        names,
        scalars,
        async (pairs, field, value) => {
          await read(p.secret, '/erase', {
            method: 'POST',
            body: JSON.stringify({ field: '__all__', value: 0 }),
          });
          for (const r of await storedRows(p.projectId)) {
            await read(p.secret, `/${r.id}`, { method: 'DELETE' });
          }
          const rows = await insertRows(p.projectId, pairs.length, (i) => {
            const [k, v] = pairs[i] ?? ['x', 'x'];
            return { data: JSON.stringify(Object.fromEntries([[k, v]])) };
          });
          const matches = (i: number) => pairs[i]?.[0] === field && Object.is(pairs[i]?.[1], value);
          const data = await okData<{ erased: number }>(await erase(p.secret, { field, value }));
          expect(data.erased).toBe(pairs.filter((_, i) => matches(i)).length);
          expect((await storedRows(p.projectId)).map((r) => r.id)).toEqual(
            rows.filter((_, i) => !matches(i)).map((r) => r.id),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it.each([
    ['not an object', [1, 2]],
    ['no field', { value: 'x' }],
    ['an empty field', { field: '', value: 'x' }],
    ['no value', { field: 'email' }],
    ['an object value', { field: 'email', value: { a: 1 } }],
    ['an extra member', { field: 'email', value: 'x', also: 1 }],
  ])('C25: a body with %s is 400', async (_, body) => {
    const p = await withSecret();
    await expectEnvelope(await erase(p.secret, body), 400, {
      message: 'Invalid request body',
      error: {
        message:
          'Body must be a JSON object {"field": "<name>", "value": <a string, number, boolean or null>}',
      },
    });
  });

  it('C25: an erasure body is read no further than 16 KiB: a larger one is 413 and the rest never read', async () => {
    const p = await withSecret();
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.length;
        if (pulled > 20 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const res = await submit({ url: `${BASE}/erase`, key: p.secret, body });
    await expectEnvelope(res, 413, {
      message: 'Request body too large',
      error: { message: 'Request body must not exceed 16384 bytes' },
    });
    expect(pulled).toBeLessThan(1024 * 1024);
  });

  it('C25: not JSON is 400, another media type 415, a publishable key 403', async () => {
    const p = await withSecret();
    await expectEnvelope(await read(p.secret, '/erase', { method: 'POST', body: '{nope' }), 400, {
      message: 'Invalid request body',
      error: { message: 'Request body is not valid JSON' },
    });
    const res = await submit({ url: `${BASE}/erase`, key: p.secret, contentType: 'text/plain', body: '{}' });
    await expectEnvelope(res, 415);
    await expectEnvelope(await erase(p.apiKey, { field: 'email', value: 'x' }), 403);
  });
});

describe('C16 + C24: methods and paths', () => {
  it.each([
    ['PUT', '', 'GET'],
    ['POST', '', 'GET'],
    ['OPTIONS', '', 'GET'],
    ['GET', '/erase', 'POST'],
    ['PUT', '/019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e', 'GET, DELETE'],
  ])('C16: %s %s is 405 with Allow: %s, in the envelope, without CORS', async (method, path, allow) => {
    const p = await withSecret();
    const res = await submit({
      url: `${BASE}${path}`,
      key: p.secret,
      method,
      contentType: null,
      headers: { Origin: 'https://site.example' },
      body: method === 'GET' ? null : '',
    });
    await expectEnvelope(res, 405);
    expect(res.headers.get('Allow')).toBe(allow);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('C17 + C24: D1 round trips of the read API', () => {
  it('C24 + C32 + C41: with the key cached, a read costs one round trip (its statement, and the fence’s check sent beside it); a change one, and its audit entry another', async () => {
    const p = await withSecret();
    const [row, other] = await insertRows(p.projectId, 2);
    const spy = spyD1(env.DB);
    const spied = { ...env, DB: spy.db };
    const call = (path: string, method = 'GET', body: string | null = null) =>
      submitWithEnv(spied, {
        url: `${BASE}${path}`,
        key: p.secret,
        method,
        contentType: body === null ? null : 'application/json',
        body,
      });
    await okData(await call('')); // warms the key
    const FENCE_CHECK = 'select 1 as settled from projects where id = ? and moving_since is null';
    for (const [path, method, body, trips] of [
      ['?limit=1', 'GET', null, [FENCE_CHECK, 'read']],
      [`/${row?.id}`, 'GET', null, [FENCE_CHECK, 'read']],
      [`/${row?.id}`, 'DELETE', null, ['batch: 2', 'batch: 2']],
      ['/erase', 'POST', JSON.stringify({ field: 'name', value: 'n1' }), ['batch: 2', 'batch: 2']],
    ] as const) {
      const before = spy.trips.length;
      await okData(await call(path, method, body));
      const made = spy.trips.slice(before);
      // C41: a read's check goes out with it, before either answers (no added wait); each write
      // goes behind the fence in its own batch (one round trip).
      expect(
        made.map((t) => (t === FENCE_CHECK ? t : t.startsWith('batch: ') ? t.split('\n')[0] : 'read')).sort(),
        `${method} ${path}`,
      ).toEqual([...trips].sort());
    }
    // The project and its secret key were made through the audited operations (as the tool): the
    // key's own entries are these.
    const log = await env.DB.prepare(
      "select actor, action from audit_log where project_id = ? and actor like 'key:%' order by id",
    )
      .bind(p.projectId)
      .all<{ actor: string; action: string }>();
    expect(log.results).toEqual([
      { actor: `key:${p.secret.slice(0, 20)}`, action: 'submission.delete' },
      { actor: `key:${p.secret.slice(0, 20)}`, action: 'submissions.erase' },
    ]);
    expect(spy.trips.filter(isWrite).length).toBeGreaterThanOrEqual(2);
    expect(await storedRows(p.projectId)).toEqual([]);
    expect(other).toBeDefined();
  });
});

describe('C25: retention', () => {
  it("C25: the hourly job deletes what is older than each project's period, and only that", async () => {
    const p = await withSecret();
    const keep = await withSecret();
    await updateProjectSettings(database(env.DB), p.projectId, { retentionDays: 30 });
    const now = Date.parse('2026-03-01T00:00:00Z');
    const day = 86_400_000;
    const ages = [90, 45, 31, 29, 1];
    const rows = await insertRows(p.projectId, ages.length, (i) => {
      const at = now - (ages[i] ?? 0) * day;
      return { id: uuidv7(at), receivedAt: new Date(at).toISOString() };
    });
    await insertRows(keep.projectId, 3);
    const logs: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logs.push(String(line)));
    const { scheduled } = await import('../src/cron.ts');
    await scheduled(createScheduledController({ scheduledTime: now, cron: '7 * * * *' }), env);
    vi.restoreAllMocks();
    expect((await storedRows(p.projectId)).map((r) => r.id)).toEqual(rows.slice(3).map((r) => r.id));
    expect(await storedRows(keep.projectId)).toHaveLength(3);
    const line = logs
      .map((l) => JSON.parse(l))
      .find((l) => l.job === 'retention' && l.projectId === p.projectId);
    expect(line).toEqual({
      level: 'info',
      job: 'retention',
      projectId: p.projectId,
      before: new Date(now - 30 * day).toISOString(),
      deleted: 3,
    });
  });
});

describe('C25: erasure of numbers and booleans', () => {
  const erase = (key: string, body: unknown) =>
    read(key, '/erase', { method: 'POST', body: JSON.stringify(body) });
  const erased = async (key: string, field: string, value: unknown) =>
    (await okData<{ erased: number }>(await erase(key, { field, value }))).erased;

  it('C25: true is not 1 and false is not 0, either way round', async () => {
    const p = await withSecret();
    const values = [true, false, 1, 0, 1.0, '1', 'true'];
    for (const [value, expected] of [
      [1, [true, false, 0, '1', 'true']],
      [true, [false, 0, '1', 'true']],
      [0, [false, '1', 'true']],
      [false, ['1', 'true']],
    ] as const) {
      if (value === 1)
        await insertRows(p.projectId, values.length, (i) => ({ data: JSON.stringify({ v: values[i] }) }));
      await erased(p.secret, 'v', value);
      expect((await storedRows(p.projectId)).map((r) => JSON.parse(r.data).v)).toEqual(expected);
    }
  });

  it.each([1e21, -2.5e25, 1e300, 2 ** 53, 2 ** 53 - 1, -(2 ** 53), 2 ** 63, 5e-324, 0.1])(
    'C25: %s is erased, whatever type SQLite holds it as',
    async (n) => {
      const p = await withSecret();
      await insertRows(p.projectId, 2, (i) => ({ data: JSON.stringify({ n: i === 0 ? n : 7 }) }));
      expect(await erased(p.secret, 'n', n)).toBe(1);
      expect((await storedRows(p.projectId)).map((r) => JSON.parse(r.data).n)).toEqual([7]);
    },
  );

  it('C25 (property): a number erases every row whose field holds an equal number, and nothing else', async () => {
    const p = await withSecret();
    const special = fc.constantFrom(
      0,
      -0,
      1,
      -1,
      1e21,
      -2.5e25,
      1e300,
      -1e300,
      5e-324,
      1.7976931348623157e308,
      2 ** 53 - 1,
      2 ** 53,
      2 ** 53 + 2,
      -(2 ** 53 - 1),
      -(2 ** 53),
      -(2 ** 53 + 2),
      2 ** 64,
      0.1,
      0.30000000000000004,
    );
    const numbers = fc.oneof(special, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    const scalars = fc.oneof(numbers, fc.constantFrom(true, false, '0', '1'));
    await fc.assert(
      fc.asyncProperty(fc.array(scalars, { minLength: 1, maxLength: 8 }), numbers, async (values, value) => {
        for (const r of await storedRows(p.projectId)) await read(p.secret, `/${r.id}`, { method: 'DELETE' });
        // As a submission stores them: JSON.stringify of each value.
        const rows = await insertRows(p.projectId, values.length, (i) => ({
          data: JSON.stringify({ n: values[i] }),
        }));
        const stored = values.map((v) => JSON.parse(JSON.stringify(v)) as unknown);
        const sent = JSON.parse(JSON.stringify(value)) as number;
        const matches = (i: number) => typeof stored[i] === 'number' && stored[i] === sent;
        expect(await erased(p.secret, 'n', sent)).toBe(stored.filter((_, i) => matches(i)).length);
        expect((await storedRows(p.projectId)).map((r) => r.id)).toEqual(
          rows.filter((_, i) => !matches(i)).map((r) => r.id),
        );
      }),
      { numRuns: 60 },
    );
  });
});

describe('C23: a secret key from a web page', () => {
  it('C23: a request with an Origin header and a secret key is 403 on every route of the read API', async () => {
    const p = await withSecret();
    const [row] = await insertRows(p.projectId, 1);
    const page = { Origin: 'https://site.example' };
    for (const [path, method, body] of [
      ['', 'GET', undefined],
      [`/${row?.id}`, 'GET', undefined],
      [`/${row?.id}`, 'DELETE', undefined],
      [`/${row?.id}/files/cv`, 'GET', undefined],
      ['/erase', 'POST', JSON.stringify({ field: 'name', value: 'n0' })],
    ] as const) {
      const res = await read(p.secret, path, { method, headers: page, ...(body ? { body } : {}) });
      await expectEnvelope(res, 403);
      expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
    }
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });
});
