// C22, C24: the read API's listing: a page in the envelope, cursors through any number of rows in
// both orders, pages bounded in bytes, the filters (since, until, spam), a project's own rows only,
// and each bad parameter named.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOOKMARK_HEADER } from '../src/api/submissions/routes.ts';
import { MAX_PAGE_BYTES } from '../src/store/inbox.ts';
import { expectEnvelope, storedRows, submit, VALID_BODY } from './helpers.ts';
import { insertRows, type ListData, listAll, okData, read, withSecret } from './read-api.ts';

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
