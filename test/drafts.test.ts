// C46: partial submissions in workerd: the project's setting; a draft saved under a page's token
// (one statement, the same for a retry), kept only as the token's hash, its values the project's
// fields that are not files; opened by the token within its project and days only; listed with
// `partial=only` and never as a submission; deleted by the submission sent from it (in its own
// insert), by the cron when its days end, by retention and by erasure by value; limited per
// address and project by a limiter of its own.
import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { sha256Text } from '../src/lib/hex.ts';
import { spyD1 } from './d1-spy.ts';
import { fetchWorkerWith } from './helpers.ts';
import { api, newProject, ok, problem } from './manage/helpers.ts';

const FIELDS = [
  { name: 'name', type: 'string', required: true },
  { name: 'age', type: 'integer' },
  { name: 'cv', type: 'file' },
  { name: 'topic', type: 'string', required: true, step: 2 },
];
/** A page's token: 16 random bytes as base64url, as /widget/steps.js makes it. */
const token = () =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const post = (path: string, body: unknown, environment: Env = env, address = '198.51.100.7') =>
  fetchWorkerWith(
    environment,
    new Request(`https://forms.test/api/v1/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'CF-Connecting-IP': address },
      body: JSON.stringify(body),
    }),
  );

async function withDrafts(keepDays = 30) {
  const p = await newProject(FIELDS);
  await ok(
    await api('PATCH', `/projects/${p.projectId}`, { body: { partials: { enabled: true, keepDays } } }),
  );
  const save = (token: string, step: number, values: unknown, formId = p.formId) =>
    post('drafts', { form: formId, token, step, values });
  const open = (token: string, formId = p.formId) => post('drafts/open', { form: formId, token });
  const drafts = async () =>
    (
      await ok<{ submissions: { fields: Record<string, unknown>; partial: boolean; step: number }[] }>(
        await api('GET', `/projects/${p.projectId}/submissions?partial=only`),
      )
    ).submissions;
  return { ...p, save, open, drafts };
}

const rows = (projectId: string) =>
  env.DB.prepare('select token_hash, data, step, expires_at from drafts where project_id = ?')
    .bind(projectId)
    .all<{ token_hash: string; data: string; step: number; expires_at: string }>()
    .then((r) => r.results);

describe('C46: partial submissions', () => {
  it('are off until turned on; keepDays 1–90 (30), kept when only turned on again; bad ones are 400', async () => {
    const p = await newProject(FIELDS);
    const show = async () =>
      (await ok<{ project: { partials: unknown } }>(await api('GET', `/projects/${p.projectId}`))).project
        .partials;
    expect(await show()).toEqual({ enabled: false, keepDays: 30 });
    const set = (partials: unknown) => api('PATCH', `/projects/${p.projectId}`, { body: { partials } });
    await ok(await set({ enabled: true }));
    expect(await show()).toEqual({ enabled: true, keepDays: 30 });
    await ok(await set({ keepDays: 7 }));
    expect(await show()).toEqual({ enabled: true, keepDays: 7 });
    for (const [partials, sentence] of [
      [{ keepDays: 91 }, 'partials.keepDays is a whole number of days from 1 to 90: not 91'],
      [{ keepDays: 0 }, 'partials.keepDays is a whole number of days from 1 to 90: not 0'],
      [{ enabled: 'yes' }, 'partials.enabled is true or false'],
      [
        { enabled: false, keepDays: 3 },
        'partials.keepDays is for partials that are on: give "enabled": true',
      ],
      [{ days: 3 }, "Unknown member 'days' of partials: use enabled, keepDays"],
    ] as const) {
      expect(await problem(await set(partials), 400), JSON.stringify(partials)).toBe(sentence);
    }
    expect(await show()).toEqual({ enabled: true, keepDays: 7 });
    await ok(await set({ enabled: false }));
    expect(await show()).toEqual({ enabled: false, keepDays: 30 });
  });

  it('a form that keeps no drafts saves none (404)', async () => {
    const TOKEN = token();
    const p = await newProject(FIELDS);
    const res = await post('drafts', { form: p.formId, token: TOKEN, step: 2, values: { name: 'Ada' } });
    expect(await problem(res, 404)).toBe('This form keeps no drafts');
  });

  it('saves the fields that are not files, under the token’s hash, the same for a retry; opens by the token only', async () => {
    const [TOKEN, OTHER] = [token(), token()];
    const p = await withDrafts(7);
    const values = { name: 'Ada', age: 36, cv: 'cv.pdf', unknown: 'x', topic: { no: 'object' } };
    const first = await p.save(TOKEN, 2, values);
    expect(first.status).toBe(200);
    const again = await p.save(TOKEN, 2, values);
    expect(again.status).toBe(200);
    const stored = await rows(p.projectId);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).toBe(await sha256Text(TOKEN));
    expect(JSON.stringify(stored)).not.toContain(TOKEN);
    expect(JSON.parse(stored[0]?.data ?? '')).toEqual({ name: 'Ada', age: 36 });
    const days = (Date.parse(stored[0]?.expires_at ?? '') - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const opened = await ok<{ step: number; values: unknown }>(await p.open(TOKEN));
    expect(opened).toMatchObject({ message: 'Draft found', step: 2, values: { name: 'Ada', age: 36 } });
    expect(await problem(await p.open(OTHER), 404)).toBe('No draft here: it was sent, or its days ended');
    // Another project's form never opens it, nor changes it.
    const q = await withDrafts();
    expect(await problem(await q.open(TOKEN), 404)).toBe('No draft here: it was sent, or its days ended');
    expect(await problem(await q.save(TOKEN, 2, { name: 'Eve' }), 404)).toBe('No draft here');
    expect(JSON.parse((await rows(p.projectId))[0]?.data ?? '')).toEqual({ name: 'Ada', age: 36 });
    expect(await rows(q.projectId)).toEqual([]);
  });

  it('refuses a token of fewer than 128 bits, a step beyond 20, a body over the limit', async () => {
    const TOKEN = token();
    const p = await withDrafts();
    for (const body of [
      { form: p.formId, token: 'short', step: 1, values: {} },
      { form: p.formId, token: TOKEN, step: 21, values: {} },
      { form: p.formId, token: TOKEN, step: 1.5, values: {} },
      { form: p.formId, token: TOKEN, step: 1, values: [] },
      { form: p.formId, token: TOKEN, step: 1, values: {}, extra: 1 },
    ]) {
      const res = await post('drafts', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const big = await p.save(TOKEN, 2, { name: 'x'.repeat(2 * 1024 * 1024) });
    expect(big.status).toBe(400);
    expect(await rows(p.projectId)).toEqual([]);
  });

  it('is listed with partial=only, the step it reached, never as a submission; sending from it leaves no draft', async () => {
    const [TOKEN, OTHER] = [token(), token()];
    const p = await withDrafts();
    await p.save(TOKEN, 2, { name: 'Ada' });
    await p.save(OTHER, 2, { name: 'Bob' });
    expect((await p.drafts()).map((d) => [d.fields, d.partial, d.step])).toEqual([
      [{ name: 'Bob' }, true, 2],
      [{ name: 'Ada' }, true, 2],
    ]);
    const listed = await ok<{ submissions: unknown[] }>(
      await api('GET', `/projects/${p.projectId}/submissions`),
    );
    expect(listed.submissions).toEqual([]);
    const form = new FormData();
    form.set('name', 'Ada');
    form.set('topic', 'Hello');
    form.set('_draft', TOKEN);
    const sent = await fetchWorkerWith(
      env,
      new Request(`https://forms.test/f/${p.formId}`, {
        method: 'POST',
        body: form,
        headers: { Accept: 'application/json' },
      }),
    );
    expect(sent.status).toBe(201);
    expect((await p.drafts()).map((d) => d.fields)).toEqual([{ name: 'Bob' }]);
    const stored = await ok<{ submissions: { fields: unknown }[] }>(
      await api('GET', `/projects/${p.projectId}/submissions`),
    );
    expect(stored.submissions.map((s) => s.fields)).toEqual([{ name: 'Ada', topic: 'Hello' }]);
    // Another project's token in a post deletes nothing of this project's.
    const q = await withDrafts();
    const json = await fetchWorkerWith(
      env,
      new Request('https://forms.test/api/v1/submit', {
        method: 'POST',
        headers: { Authorization: `Bearer ${q.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Eve', topic: 'x', _draft: OTHER }),
      }),
    );
    expect(json.status).toBe(201);
    expect((await p.drafts()).map((d) => d.fields)).toEqual([{ name: 'Bob' }]);
  });

  it('the cron erases drafts whose days ended, and a retained project’s older than its period; erasure by value too', async () => {
    const p = await withDrafts(1);
    await p.save(token(), 2, { name: 'Ada' });
    await p.save(token(), 2, { name: 'Bob' });
    const { scheduled } = await import('../src/cron.ts');
    vi.spyOn(console, 'log').mockImplementation(() => {});
    await scheduled(
      createScheduledController({ scheduledTime: Date.now() + 3_600_000, cron: '7 * * * *' }),
      env,
    );
    expect(await rows(p.projectId)).toHaveLength(2);
    await scheduled(
      createScheduledController({ scheduledTime: Date.now() + 2 * 86_400_000, cron: '7 * * * *' }),
      env,
    );
    vi.restoreAllMocks();
    expect(await rows(p.projectId)).toEqual([]);
    const q = await withDrafts(90);
    await q.save(token(), 2, { name: 'Ada' });
    await q.save(token(), 2, { name: 'Bob' });
    const erased = await api('POST', `/projects/${q.projectId}/submissions/erase`, {
      body: { field: 'name', value: 'Ada' },
    });
    expect(erased.status).toBe(200);
    expect((await q.drafts()).map((d) => d.fields)).toEqual([{ name: 'Bob' }]);
    await ok(await api('PATCH', `/projects/${q.projectId}`, { body: { retentionDays: 1 } }));
    vi.spyOn(console, 'log').mockImplementation(() => {});
    await scheduled(
      createScheduledController({ scheduledTime: Date.now() + 2 * 86_400_000, cron: '7 * * * *' }),
      env,
    );
    vi.restoreAllMocks();
    expect(await rows(q.projectId)).toEqual([]);
  });

  it('a save is one D1 round trip once the form is warm, its retry too; opening one is one', async () => {
    const TOKEN = token();
    const p = await withDrafts();
    const spy = spyD1(env.DB);
    const spied = { ...env, DB: spy.db } as Env;
    const save = () =>
      post('drafts', { form: p.formId, token: TOKEN, step: 2, values: { name: 'Ada' } }, spied);
    expect((await save()).status).toBe(200); // warms the form
    for (const request of [save, save, () => post('drafts/open', { form: p.formId, token: TOKEN }, spied)]) {
      const before = spy.trips.length;
      expect((await request()).status).toBe(200);
      expect(spy.trips.slice(before)).toHaveLength(1);
    }
    expect(await rows(p.projectId)).toHaveLength(1);
  });

  it('has a limit of its own per address and project', async () => {
    const TOKEN = token();
    const p = await withDrafts();
    const flood = { ...env, DRAFT_RATE_LIMIT: env.TIGHT_EVENT_RATE_LIMIT } as Env;
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await post('drafts', { form: p.formId, token: TOKEN, step: 2, values: {} }, flood, '203.0.113.80'))
          .status,
      );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    // Another address is not held by it.
    expect(
      (await post('drafts', { form: p.formId, token: TOKEN, step: 2, values: {} }, flood, '203.0.113.81'))
        .status,
    ).toBe(200);
  });
});
