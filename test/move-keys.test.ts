// C41: a project's secret key, cached warm in this isolate, around a move of its project: while it
// moves, the key's calls answer 503 with Retry-After and change nothing; once it has moved, no call
// reads or writes the place it left (503 once, then right in its new place), never a wrong 200 or
// 404; a key of a project deleted meanwhile is 401. Operators' writes meet the same fence.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, submissions } from '../schema/tables.ts';
import { ProjectLeft, ProjectMoving } from '../src/lib/faults.ts';
import { database, fencedDatabase, storage } from '../src/store/db.ts';
import { abandonMove, beginMove } from '../src/store/directory.ts';
import { fetchWorkerWith, submitWithEnv } from './helpers.ts';
import { api, newProject, ok, request, secretKeyOf } from './manage/helpers.ts';

const home = () => database(env.DB);
const eu = () => database(env.DB_EU);
const rowsIn = (db: ReturnType<typeof database>, projectId: string) =>
  db.select().from(submissions).where(eq(submissions.projectId, projectId));

/** A call with the key, straight into this isolate's worker: the key's cache is this isolate's. */
const withKey = (key: string, method: string, path: string, body?: unknown) =>
  fetchWorkerWith(env, request(method, path, { token: key, ...(body === undefined ? {} : { body }) }));

const submitted = (key: string, email: string) => submitWithEnv(env, { key, json: { email } });

/** A project in `default` with one submission and a secret key whose project is cached here. */
async function warmProject() {
  const { projectId, apiKey } = await newProject([{ name: 'email', type: 'string' }]);
  const secret = await secretKeyOf(projectId);
  expect((await submitted(apiKey, 'ada@example.com')).status).toBe(201);
  const [row] = await rowsIn(home(), projectId);
  // Warm: the key's project and place are now in this isolate's cache.
  const list = await ok<{ submissions: unknown[] }>(await withKey(secret, 'GET', '/submissions'));
  expect(list.submissions).toHaveLength(1);
  return { projectId, secret, id: row?.id ?? '' };
}

/** A reply that is right, or 503 with Retry-After; the second call (the retry) must be right. */
async function rightOrRetried(call: () => Promise<Response>, status: number): Promise<Response> {
  const first = await call();
  if (first.status !== 503) {
    expect(first.status).toBe(status);
    return first;
  }
  expect(first.headers.get('Retry-After')).toMatch(/^\d+$/);
  const second = await call();
  expect(second.status).toBe(status);
  return second;
}

describe('C41: a warm key after its project moved', () => {
  it('erasure finds the row in its new place, never "Erased 0" while it exists there', async () => {
    const { projectId, secret } = await warmProject();
    await ok(await api('POST', `/projects/${projectId}/move`, { body: { to: 'eu' } }));
    const res = await rightOrRetried(
      () => withKey(secret, 'POST', '/submissions/erase', { field: 'email', value: 'ada@example.com' }),
      200,
    );
    expect(((await res.json()) as { data: { erased: number } }).data.erased).toBe(1);
    expect(await rowsIn(eu(), projectId)).toEqual([]);
  });

  it('a delete and a read reach the new place: 503 once at most, never 404 for a row that exists', async () => {
    const { projectId, secret, id } = await warmProject();
    await ok(await api('POST', `/projects/${projectId}/move`, { body: { to: 'eu' } }));
    const got = await rightOrRetried(() => withKey(secret, 'GET', `/submissions/${id}`), 200);
    expect(((await got.json()) as { data: { submission: { id: string } } }).data.submission.id).toBe(id);
    await rightOrRetried(() => withKey(secret, 'DELETE', `/submissions/${id}`), 200);
    expect(await rowsIn(eu(), projectId)).toEqual([]);
  });

  it('the management API with the key changes the project where it lives, and the place it left gets no audit row', async () => {
    const { projectId, secret, id } = await warmProject();
    // The key's management view of the project is cached too.
    await ok(await withKey(secret, 'GET', `/projects/${projectId}`));
    await ok(await api('POST', `/projects/${projectId}/move`, { body: { to: 'eu' } }));
    await rightOrRetried(
      () => withKey(secret, 'PATCH', `/projects/${projectId}/submissions/${id}`, { starred: true }),
      200,
    );
    const [row] = await rowsIn(eu(), projectId);
    expect(row?.starred).toBe(true);
    expect(await home().select().from(auditLog).where(eq(auditLog.projectId, projectId))).toEqual([]);
    const log = await eu().select().from(auditLog).where(eq(auditLog.projectId, projectId));
    expect(log.map((e) => e.action)).toContain('submission.update');
  });

  it('a key of a project deleted meanwhile is 401, not an empty list', async () => {
    const { projectId, secret } = await warmProject();
    await ok(await api('DELETE', `/projects/${projectId}`));
    const res = await withKey(secret, 'GET', '/submissions');
    expect(res.status).toBe(401);
  });
});

describe('C41: a warm key while its project is moving', () => {
  it('every call answers 503 with Retry-After and changes nothing in the place it is leaving', async () => {
    const { projectId, secret, id } = await warmProject();
    await beginMove(home(), home(), projectId, 'default', 'eu');
    try {
      const calls: [string, string, unknown?][] = [
        ['GET', '/submissions'],
        ['GET', `/submissions/${id}`],
        ['DELETE', `/submissions/${id}`],
        ['POST', '/submissions/erase', { field: 'email', value: 'ada@example.com' }],
        ['PATCH', `/projects/${projectId}/submissions/${id}`, { starred: true }],
        ['GET', `/projects/${projectId}`],
      ];
      for (const [method, path, body] of calls) {
        const res = await withKey(secret, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(503);
        expect(res.headers.get('Retry-After'), `${method} ${path}`).toBe('2');
      }
      const [row] = await rowsIn(home(), projectId);
      expect(row).toMatchObject({ id, starred: false });
      expect(
        (await home().select().from(auditLog).where(eq(auditLog.projectId, projectId))).map((e) => e.action),
      ).not.toContain('submission.update');
    } finally {
      await abandonMove(home(), home(), projectId, 'default');
    }
    // The move given up: the key works again.
    await ok(await withKey(secret, 'GET', `/submissions/${id}`));
  });
});

describe('C41: the fence a project route writes through', () => {
  it("an operator's write that meets a move begun since its place was read is refused whole: nothing written", async () => {
    const { projectId, id } = await warmProject();
    const db = fencedDatabase(env.DB, { projectId, place: 'default', keyed: false });
    await beginMove(home(), home(), projectId, 'default', 'eu');
    try {
      await expect(
        storage(() => db.update(submissions).set({ starred: true }).where(eq(submissions.id, id))),
      ).rejects.toBeInstanceOf(ProjectMoving);
      expect((await rowsIn(home(), projectId))[0]?.starred).toBe(false);
    } finally {
      await abandonMove(home(), home(), projectId, 'default');
    }
    await db.update(submissions).set({ starred: true }).where(eq(submissions.id, id));
    expect((await rowsIn(home(), projectId))[0]?.starred).toBe(true);
  });

  it('a keyed read of a place the project has left is refused, naming the move; the key is forgotten', async () => {
    const { projectId, id } = await warmProject();
    const forgotten: boolean[] = [];
    const db = fencedDatabase(env.DB, {
      projectId,
      place: 'default',
      keyed: true,
      left: (moved) => void forgotten.push(moved),
    });
    await ok(await api('POST', `/projects/${projectId}/move`, { body: { to: 'eu' } }));
    const read = storage(() => db.select().from(submissions).where(eq(submissions.id, id)));
    await expect(read).rejects.toSatisfy((e) => e instanceof ProjectLeft && e.moved);
    expect(forgotten).toEqual([true]);
  });

  it('a read costs no added wait: the check goes beside it, once per request', async () => {
    const { projectId } = await warmProject();
    const db = fencedDatabase(env.DB, { projectId, place: 'default', keyed: true });
    const q = () => db.select().from(submissions).where(eq(submissions.projectId, projectId));
    const [a, b] = await Promise.all([q(), q()]);
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
  });
});

describe('C41: a submission with a warm key during and after a move', () => {
  it('refused with 503 while moving; the next request looks the key up again and is stored where it went', async () => {
    const { projectId } = await newProject([{ name: 'email', type: 'string' }]);
    const key = (
      await ok<{ key: string }>(
        await api('POST', `/projects/${projectId}/keys`, { body: { kind: 'publishable' } }),
        201,
      )
    ).key;
    expect((await submitted(key, 'warm@example.com')).status).toBe(201);
    await beginMove(home(), home(), projectId, 'default', 'eu');
    const refused = await submitted(key, 'during@example.com');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('Retry-After')).toBe('2');
    // The move taken up again and finished (C41): the key leads to eu at once, not after the
    // cache's seconds.
    await ok(await api('POST', `/projects/${projectId}/move`, { body: { to: 'eu' } }));
    expect((await submitted(key, 'after@example.com')).status).toBe(201);
    expect((await rowsIn(eu(), projectId)).map((r) => JSON.parse(r.data).email).sort()).toEqual([
      'after@example.com',
      'warm@example.com',
    ]);
  });
});

// A request through the deployed entry point agrees: its reply is documented (test/contract.ts).
describe('C41: the 503 of a moving project is in the document', () => {
  it('the management API answers it with Retry-After 2', async () => {
    const { projectId } = await warmProject();
    await beginMove(home(), home(), projectId, 'default', 'eu');
    try {
      const res = await fetchWorkerWith(env, request('GET', `/projects/${projectId}/submissions`));
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toBe('2');
    } finally {
      await abandonMove(home(), home(), projectId, 'default');
    }
  });
});
