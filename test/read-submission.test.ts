// C17, C24, C25: one submission through the read API, read and deleted by its id (another project's
// as unknown as one that does not exist); and what each route costs in D1 round trips.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/lib/ids.ts';
import { isWrite, spyD1 } from './d1-spy.ts';
import { expectEnvelope, storedRows, submitWithEnv } from './helpers.ts';
import { BASE, type Item, insertRows, okData, read, withSecret } from './read-api.ts';

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
      // C46: the drafts that hold the value go in the same round trip as the submissions.
      ['/erase', 'POST', JSON.stringify({ field: 'name', value: 'n1' }), ['batch: 3', 'batch: 2']],
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
