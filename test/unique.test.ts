// C45: `rules.unique`, one accepted submission per value in a project, judged by the store in the
// submission's own insert: an address compared case-insensitively, a text after NFC and trimming;
// a second is 400 with the issue code `unique`; posts of one new value at once, exactly one stored;
// a value freed when its submission is marked spam or deleted; a retry of the submission that holds
// it is its replay, not a second use; another project's values are its own.
import { describe, expect, it } from 'vitest';
import { storedRows, submit } from './helpers.ts';
import { api, newProject, ok, problem } from './manage/helpers.ts';

const FIELDS = [
  { name: 'email', type: 'string', required: true, rules: { format: 'email', unique: true } },
  { name: 'code', type: 'string', rules: { unique: true } },
  { name: 'seat', type: 'number', rules: { unique: true } },
  { name: 'note', type: 'string' },
];

type Reply = { data: { errors?: string[]; issues?: { field: string; code: string }[] } };

async function project() {
  const p = await newProject(FIELDS);
  const post = (json: unknown, headers: Record<string, string> = {}) =>
    submit({ key: p.apiKey, json, headers });
  return { ...p, post };
}

describe('C45: unique values', () => {
  it('refuses a value the project holds: an address in any case, a text after NFC and trimming, a number however written', async () => {
    const p = await project();
    expect((await p.post({ email: 'Ada@Example.com', code: 'caf\u00e9', seat: 1.5 })).status).toBe(201);
    for (const [json, field] of [
      [{ email: 'ada@example.COM' }, 'email'],
      [{ email: 'b@example.com', code: ' cafe\u0301 ' }, 'code'],
      [{ email: 'c@example.com', seat: 1.5 }, 'seat'],
    ] as const) {
      const res = await p.post(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      const body = (await res.json()) as Reply;
      expect(body.data.issues).toEqual([{ field, code: 'unique' }]);
      expect(body.data.errors).toEqual([`Field '${field}' must be unique: this value was already sent`]);
    }
    expect((await p.post({ email: 'b@example.com', code: 'cafe', seat: 2 })).status).toBe(201);
    expect(await storedRows(p.projectId)).toHaveLength(2);
    // Another project's values are its own.
    const other = await project();
    expect((await other.post({ email: 'ada@example.com', code: 'café' })).status).toBe(201);
  });

  it('stores exactly one of several posts of one new value sent at the same moment', async () => {
    const p = await project();
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => p.post({ email: 'race@example.com', note: `try ${i}` })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('frees a value when its submission is marked spam or deleted, and takes it back when marked not spam if still free', async () => {
    const p = await project();
    expect((await p.post({ email: 'free@example.com' })).status).toBe(201);
    const [first] = await storedRows(p.projectId);
    const path = `/projects/${p.projectId}/submissions/${first?.id}`;
    await ok(await api('PATCH', path, { body: { spam: true } }));
    expect((await p.post({ email: 'free@example.com', note: 'second' })).status).toBe(201);
    // The first, marked not spam again, cannot take back what the second holds: nothing fails.
    await ok(await api('PATCH', path, { body: { spam: false } }));
    expect((await p.post({ email: 'free@example.com', note: 'third' })).status).toBe(400);
    const second = (await storedRows(p.projectId)).find((r) => r.data.includes('second'));
    await ok(await api('DELETE', `/projects/${p.projectId}/submissions/${second?.id}`));
    expect((await p.post({ email: 'free@example.com', note: 'fourth' })).status).toBe(201);
  });

  it('answers a retry of the submission that holds a value as its replay, not as a second use', async () => {
    const p = await project();
    const headers = { 'Idempotency-Key': 'retry-1' };
    const first = await p.post({ email: 'once@example.com' }, headers);
    expect(first.status).toBe(201);
    const again = await p.post({ email: 'once@example.com' }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('is a rule of string, integer and number fields, given as the API and the tool give rules', async () => {
    const p = await newProject([{ name: 'email', type: 'string', rules: { unique: true } }]);
    const shown = await ok<{ project: { fields: { rules?: unknown }[] } }>(
      await api('GET', `/projects/${p.projectId}`),
    );
    expect(shown.project.fields[0]?.rules).toEqual({ unique: true });
    const res = await api('PUT', `/projects/${p.projectId}/fields/ok`, {
      body: { type: 'boolean', rules: { unique: true } },
    });
    expect(await problem(res, 400)).toBe(
      "Rule 'unique' does not fit type boolean in field 'ok': a string, integer or number field takes it",
    );
    const bad = await api('PUT', `/projects/${p.projectId}/fields/email`, {
      body: { type: 'string', rules: { unique: 'yes' } },
    });
    expect(await problem(bad, 400)).toBe("Invalid unique 'yes' in field 'email': true or false");
  });

  it('goes with a moved project: in its new place a value it holds is still taken, one it freed still free', async () => {
    const p = await project();
    expect((await p.post({ email: 'kept@example.com' })).status).toBe(201);
    expect((await p.post({ email: 'freed@example.com' })).status).toBe(201);
    const freed = (await storedRows(p.projectId)).find((r) => r.data.includes('freed'));
    await ok(
      await api('PATCH', `/projects/${p.projectId}/submissions/${freed?.id}`, { body: { spam: true } }),
    );
    await ok(await api('POST', `/projects/${p.projectId}/move`, { body: { to: 'eu' } }));
    // The first post after a move may still find the old place in the key's cache: 503, retry (C41).
    const post = async (json: unknown) => {
      const res = await p.post(json);
      return res.status === 503 ? p.post(json) : res;
    };
    expect((await post({ email: 'KEPT@example.com' })).status).toBe(400);
    expect((await post({ email: 'freed@example.com', note: 'again' })).status).toBe(201);
  });
});
