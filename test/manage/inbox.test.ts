// C34: an inbox over the management API: listing with its filters and cursor, read and starred
// state, spam and its rescue (delivered once), bulk changes and their limits, the export stream,
// the numbers per day.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { uuidv7 } from '../../src/lib/ids.ts';
import { insertSubmissions } from '../../src/store/intake.ts';
import { spyD1 } from '../d1-spy.ts';
import { fetchWorkerWith, submit } from '../helpers.ts';
import { consume, consumeOutbox } from '../queue.ts';
import { api, newProject, ok, problem, request } from './helpers.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

type Item = {
  id: string;
  fields: Record<string, unknown>;
  read: boolean;
  readAt: string | null;
  starred: boolean;
  spam: boolean;
  files: string[];
};
type Page = { submissions: Item[]; nextCursor?: string };

const list = async (projectId: string, query = '') =>
  ok<Page>(await api('GET', `/projects/${projectId}/submissions${query}`));

/** Rows stored straight into D1, `at` apart, oldest first; their ids. */
async function store(
  projectId: string,
  rows: { data: Record<string, unknown>; spam?: boolean; at?: string }[],
) {
  const base = Date.now() - rows.length * 1000;
  const made = rows.map((r, i) => ({
    id: uuidv7(base + i * 1000),
    projectId,
    data: JSON.stringify(r.data),
    receivedAt: r.at ?? new Date(base + i * 1000).toISOString(),
    spam: r.spam === true,
  }));
  await insertSubmissions(env.DB, made);
  return made.map((r) => r.id);
}

describe('C34: the inbox', () => {
  it('C34: a page is newest first; the cursor pages on; a bad parameter is named', async () => {
    const p = await newProject();
    const ids = await store(
      p.projectId,
      Array.from({ length: 5 }, (_, i) => ({ data: { email: `n${i}@example.com` } })),
    );
    const first = await list(p.projectId, '?limit=2');
    expect(first.submissions.map((s) => s.id)).toEqual([ids[4], ids[3]]);
    const second = await list(p.projectId, `?limit=2&cursor=${first.nextCursor}`);
    const third = await list(p.projectId, `?limit=2&cursor=${second.nextCursor}`);
    expect([...second.submissions, ...third.submissions].map((s) => s.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(third.nextCursor).toBeUndefined();
    const oldest = await list(p.projectId, '?order=asc&limit=1');
    expect(oldest.submissions[0]?.id).toBe(ids[0]);
    expect(await problem(await api('GET', `/projects/${p.projectId}/submissions?limit=0`), 400)).toBe(
      "Query parameter 'limit' must be a whole number from 1 to 500",
    );
    expect(await problem(await api('GET', `/projects/${p.projectId}/submissions?sort=new`), 400)).toMatch(
      /^Query parameter 'sort' is not known/,
    );
  });

  it('C34: new submissions are unread and not starred; reading one changes nothing; PATCH marks it', async () => {
    const p = await newProject();
    const [id] = await store(p.projectId, [{ data: { email: 'ada@example.com' } }]);
    const path = `/projects/${p.projectId}/submissions/${id}`;
    const before = await ok<{ submission: Item }>(await api('GET', path));
    expect(before.submission).toMatchObject({
      read: false,
      readAt: null,
      starred: false,
      spam: false,
      files: [],
    });
    await ok(await api('GET', path));
    const marked = await ok<{ submission: Item }>(
      await api('PATCH', path, { body: { read: true, starred: true } }),
    );
    expect(marked.submission).toMatchObject({ read: true, starred: true });
    expect(Date.parse(marked.submission.readAt ?? '')).toBeGreaterThan(0);
    // Read once: reading again keeps the first time.
    const again = await ok<{ submission: Item }>(await api('PATCH', path, { body: { read: true } }));
    expect(again.submission.readAt).toBe(marked.submission.readAt);
    const unread = await ok<{ submission: Item }>(await api('PATCH', path, { body: { read: false } }));
    expect(unread.submission.readAt).toBeNull();
    expect(await problem(await api('GET', `/projects/${p.projectId}/submissions/nope`), 404)).toMatch(
      /has no submission 'nope'/,
    );
  });

  it('C34: filters: read, starred, spam, files, since, until', async () => {
    const p = await newProject();
    const ids = await store(p.projectId, [
      { data: { email: 'a@example.com' }, at: '2026-01-01T00:00:00.000Z' },
      { data: { email: 'b@example.com' }, at: '2026-02-01T00:00:00.000Z' },
      { data: { email: 'c@example.com' }, spam: true, at: '2026-03-01T00:00:00.000Z' },
    ]);
    await ok(await api('PATCH', `/projects/${p.projectId}/submissions/${ids[0]}`, { body: { read: true } }));
    await ok(
      await api('PATCH', `/projects/${p.projectId}/submissions/${ids[1]}`, { body: { starred: true } }),
    );
    await env.DB.prepare(`update submissions set files = '["cv"]' where id = ?`).bind(ids[1]).run();
    const idsOf = async (q: string) => (await list(p.projectId, q)).submissions.map((s) => s.id);
    expect(await idsOf('?read=false')).toEqual([ids[1]]);
    expect(await idsOf('?read=true')).toEqual([ids[0]]);
    expect(await idsOf('?starred=true')).toEqual([ids[1]]);
    expect(await idsOf('?spam=only')).toEqual([ids[2]]);
    expect(await idsOf('?spam=include&order=asc')).toEqual(ids);
    expect(await idsOf('?files=true')).toEqual([ids[1]]);
    expect(await idsOf('?since=2026-01-15&until=2026-02-15')).toEqual([ids[1]]);
    const listed = await ok<{ projects: { id: string; unread: number; submissions: number }[] }>(
      await api('GET', '/projects'),
    );
    expect(listed.projects.find((x) => x.id === p.projectId)).toMatchObject({ submissions: 3, unread: 1 });
  });

  it('C34: a submission taken out of spam is delivered to the webhooks once, as if just accepted', async () => {
    const p = await newProject([{ name: 'email', type: 'string' }], { honeypot: 'website' });
    const hook = await ok<{ webhookId: string }>(
      await api('POST', `/projects/${p.projectId}/webhooks`, {
        body: { url: 'https://receiver.example/hooks' },
      }),
      201,
    );
    const received: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      received.push(await new Request(input, init).text());
      return new Response('ok');
    });
    expect(
      (await submit({ key: p.apiKey, json: { email: 'ada@example.com', website: 'spam.example' } })).status,
    ).toBe(201);
    const [spam] = (await list(p.projectId, '?spam=only')).submissions;
    const id = spam?.id ?? '';
    await consumeOutbox([id]);
    const path = `/projects/${p.projectId}/submissions/${id}`;
    const rescued = await ok<{ submission: Item }>(await api('PATCH', path, { body: { spam: false } }));
    expect(rescued.submission.spam).toBe(false);
    const deliveryId = `${id}.${hook.webhookId}`;
    await consume(deliveryId);
    // Spam again, and out again: delivered before, so never again.
    await ok(await api('PATCH', path, { body: { spam: true } }));
    await ok(await api('PATCH', path, { body: { spam: false } }));
    await consumeOutbox([id]);
    await consume(deliveryId);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0] ?? '{}')).toMatchObject({
      type: 'submission.created',
      data: { submissionId: id, fields: { email: 'ada@example.com' } },
    });
    const entries = (
      await ok<{ entries: { action: string; detail: unknown }[] }>(
        await api('GET', `/projects/${p.projectId}/audit`),
      )
    ).entries;
    expect(entries.filter((e) => e.action === 'submission.update').map((e) => e.detail)).toEqual([
      { id, spam: false },
      { id, spam: true },
      { id, spam: false },
    ]);
  });

  it('C34: bulk: every action, at most 500 ids, ids of other projects left alone and not counted', async () => {
    const p = await newProject();
    const other = await newProject();
    const ids = await store(p.projectId, [
      { data: { email: 'a@example.com' } },
      { data: { email: 'b@example.com' } },
    ]);
    const [foreign] = await store(other.projectId, [{ data: { email: 'x@example.com' } }]);
    const bulk = (action: string, given: string[]) =>
      api('POST', `/projects/${p.projectId}/submissions/bulk`, { body: { ids: given, action } });
    expect(await ok(await bulk('read', [...ids, foreign ?? '']))).toMatchObject({
      action: 'read',
      changed: 2,
    });
    expect(await ok(await bulk('read', ids))).toMatchObject({ changed: 0 });
    expect(await ok(await bulk('star', ids))).toMatchObject({ changed: 2 });
    expect(await ok(await bulk('spam', ids))).toMatchObject({ changed: 2 });
    expect((await list(p.projectId, '?spam=only')).submissions).toHaveLength(2);
    expect(await ok(await bulk('delete', [ids[0] ?? '', foreign ?? '']))).toMatchObject({ changed: 1 });
    expect((await list(other.projectId)).submissions.map((s) => s.id)).toEqual([foreign]);
    const tooMany = Array.from({ length: 501 }, () => uuidv7());
    expect(await problem(await bulk('read', tooMany), 400)).toBe(
      'At most 500 submissions at once (501 given)',
    );
    expect(await problem(await bulk('read', []), 400)).toBe('Give at least one submission id');
    expect(await problem(await bulk('read', ['../etc']), 400)).toBe("'../etc' is not a submission id");
    expect(await problem(await bulk('archive', ids), 400)).toMatch(/^Member 'action': /);
  });

  it('C34: export: CSV as the tool writes it (a column per field, formulas defused), JSON lines, the filters', async () => {
    const p = await newProject();
    const ids = await store(p.projectId, [
      { data: { email: 'a@example.com', message: '=HYPERLINK("http://evil")' } },
      { data: { email: 'b@example.com' }, spam: true },
    ]);
    const csv = await api('GET', `/projects/${p.projectId}/submissions/export?format=csv`);
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('Content-Disposition')).toContain('attachment');
    const lines = (await csv.text()).trimEnd().split('\n');
    expect(lines[0]).toBe('id,received_at,email,message');
    expect(lines[1]).toContain(`${ids[0]},`);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines).toHaveLength(2);
    const jsonl = await api('GET', `/projects/${p.projectId}/submissions/export?spam=only`);
    const rows = (await jsonl.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toEqual([
      // C39: with spam asked for, the verdict beside it (none yet: stored here, never judged).
      {
        id: ids[1],
        receivedAt: expect.any(String),
        spam: true,
        spamScore: null,
        spamReason: null,
        fields: { email: 'b@example.com' },
      },
    ]);
    expect(
      await problem(await api('GET', `/projects/${p.projectId}/submissions/export?format=xml`), 400),
    ).toMatch(/format/);
  });

  it('C34: export streams a page at a time: a reader that stops early costs one page, not the whole set', async () => {
    const p = await newProject();
    for (let i = 0; i < 3; i++) {
      await store(
        p.projectId,
        Array.from({ length: 1000 }, (_, j) => ({ data: { email: `n${i}-${j}@example.com` } })),
      );
    }
    const spy = spyD1(env.DB);
    const res = await fetchWorkerWith(
      { ...env, DB: spy.db },
      request('GET', `/projects/${p.projectId}/submissions/export`),
      false,
    );
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value).split('\n').length).toBeGreaterThan(900);
    const afterFirst = spy.trips.filter(
      (t) => t.includes('from "submissions"') || t.includes('from (select'),
    ).length;
    await reader?.cancel();
    expect(afterFirst).toBeLessThanOrEqual(2);
    const whole = await api('GET', `/projects/${p.projectId}/submissions/export`);
    expect((await whole.text()).trimEnd().split('\n')).toHaveLength(3000);
  });

  it('C34: stats: per day, accepted and spam, oldest first, today last; days bounded', async () => {
    const p = await newProject();
    const today = new Date().toISOString().slice(0, 10);
    await store(p.projectId, [
      { data: { email: 'a@example.com' } },
      { data: { email: 'b@example.com' } },
      { data: { email: 'c@example.com' }, spam: true },
    ]);
    const { days } = await ok<{
      days: { day: string; accepted: number; spam: number; delivered: number; failed: number }[];
    }>(await api('GET', `/projects/${p.projectId}/stats?days=7`));
    expect(days).toHaveLength(7);
    expect(days.at(-1)).toEqual({
      day: today,
      accepted: 2,
      spam: 1,
      delivered: 0,
      failed: 0,
      confirmationsCapped: 0,
      // C40: no one saw or started the form (these came from no widget): no rate to give.
      views: 0,
      starts: 0,
      completionRate: null,
      conversionRate: null,
    });
    expect(days.slice(0, 6).every((d) => d.accepted === 0)).toBe(true);
    expect(await problem(await api('GET', `/projects/${p.projectId}/stats?days=400`), 400)).toMatch(/days/);
  });
});
