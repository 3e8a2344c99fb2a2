// C45: a form's limits: the most accepted submissions it takes (judged in the insert, so that posts
// at the same moment never pass it; a submission marked spam frees its place), when it opens and
// closes (judged in the isolate, before the body is read); outside them 403 `form_closed` with
// `params.reason`. Set over the management API, each member given replacing that member.
import { describe, expect, it } from 'vitest';
import { fetchWorker, storedRows, submit } from './helpers.ts';
import { api, BASE, newProject, ok, problem } from './manage/helpers.ts';

type Limits = { maxSubmissions: number | null; opensAt: string | null; closesAt: string | null };
type Refusal = { data: { error?: { code: string; message: string; params?: unknown } } };

async function limited(limits: Record<string, unknown>) {
  const p = await newProject([{ name: 'email', type: 'string' }]);
  const res = await api('PATCH', `/projects/${p.projectId}`, { body: { limits } });
  const project = (await ok<{ project: { limits: Limits } }>(res)).project;
  const post = (email: string, headers: Record<string, string> = {}) =>
    submit({ key: p.apiKey, json: { email }, headers });
  return { ...p, limits: project.limits, post };
}

const refusal = async (res: Response) => ((await res.json()) as Refusal).data.error;

describe('C45: a form that takes at most so many submissions', () => {
  it('refuses the one after the last place with 403 form_closed, reason full; a spam mark frees a place', async () => {
    const p = await limited({ maxSubmissions: 2 });
    expect(p.limits).toMatchObject({ maxSubmissions: 2, opensAt: null, closesAt: null });
    expect((await p.post('a@example.com')).status).toBe(201);
    expect((await p.post('b@example.com')).status).toBe(201);
    const full = await p.post('c@example.com');
    expect(full.status).toBe(403);
    expect(await refusal(full)).toEqual({
      code: 'form_closed',
      message: 'This form is full: it takes no more submissions',
      params: { reason: 'full' },
    });
    const [first] = await storedRows(p.projectId);
    await ok(
      await api('PATCH', `/projects/${p.projectId}/submissions/${first?.id}`, { body: { spam: true } }),
    );
    expect((await p.post('d@example.com')).status).toBe(201);
    expect((await p.post('e@example.com')).status).toBe(403);
  });

  it('stores no more than its places of posts sent at the same moment', async () => {
    const p = await limited({ maxSubmissions: 3 });
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => p.post(`${i}@example.com`)));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(3);
    expect(replies.filter((r) => r.status === 403)).toHaveLength(5);
    expect(await storedRows(p.projectId)).toHaveLength(3);
  });

  it('answers a retry of a stored submission as its replay, even once the form is full', async () => {
    const p = await limited({ maxSubmissions: 1 });
    const headers = { 'Idempotency-Key': 'the-only-one' };
    expect((await p.post('a@example.com', headers)).status).toBe(201);
    const again = await p.post('a@example.com', headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });
});

describe('C45: a form that opens and closes', () => {
  const hour = 3_600_000;
  it('is not open before opensAt (reason not_open), and closed from closesAt (reason closed)', async () => {
    const later = await limited({ opensAt: new Date(Date.now() + hour).toISOString() });
    const early = await later.post('a@example.com');
    expect(early.status).toBe(403);
    expect(await refusal(early)).toMatchObject({ code: 'form_closed', params: { reason: 'not_open' } });
    const over = await limited({ closesAt: new Date(Date.now() - hour).toISOString() });
    const late = await over.post('a@example.com');
    expect(await refusal(late)).toEqual({
      code: 'form_closed',
      message: 'This form is closed',
      params: { reason: 'closed' },
    });
    const open = await limited({
      opensAt: new Date(Date.now() - hour).toISOString(),
      closesAt: new Date(Date.now() + hour).toISOString(),
    });
    expect((await open.post('a@example.com')).status).toBe(201);
  });

  it('takes members one by one, null clearing one; bad limits are 400 with one sentence, nothing changed', async () => {
    const p = await limited({ maxSubmissions: 5, closedText: { en: 'Sold out.' } });
    const path = `/projects/${p.projectId}`;
    const view = async () =>
      (await ok<{ project: { limits: unknown } }>(await api('GET', path))).project.limits;
    await ok(await api('PATCH', path, { body: { limits: { closesAt: '2030-01-01T10:00:00+01:00' } } }));
    expect(await view()).toEqual({
      maxSubmissions: 5,
      opensAt: null,
      closesAt: '2030-01-01T09:00:00.000Z',
      closedText: { en: 'Sold out.' },
    });
    await ok(await api('PATCH', path, { body: { limits: { maxSubmissions: null } } }));
    expect(await view()).toMatchObject({ maxSubmissions: null, closesAt: '2030-01-01T09:00:00.000Z' });
    const before = await view();
    for (const [limits, sentence] of [
      [{ maxSubmissions: 0 }, 'maxSubmissions is a whole number from 1 to 10000000, or null: not 0'],
      [
        { opensAt: 'tomorrow' },
        "opensAt is an ISO time with its zone, e.g. 2026-12-24T18:00:00Z: not 'tomorrow'",
      ],
      // A time without its zone, or of a day that does not exist, is no time (lib/time.ts).
      [
        { closesAt: '2030-01-01T10:00:00' },
        "closesAt is an ISO time with its zone, e.g. 2026-12-24T18:00:00Z: not '2030-01-01T10:00:00'",
      ],
      [
        { closesAt: '2030-02-30T10:00:00Z' },
        "closesAt is an ISO time with its zone, e.g. 2026-12-24T18:00:00Z: not '2030-02-30T10:00:00Z'",
      ],
      [
        { opensAt: '2031-01-01T00:00:00Z' },
        'The form would close (2030-01-01T09:00:00.000Z) before it opens (2031-01-01T00:00:00.000Z)',
      ],
      [{ seats: 3 }, "Unknown member 'seats' of limits: use maxSubmissions, opensAt, closesAt, closedText"],
      ['soon', 'limits is an object: {"maxSubmissions"?, "opensAt"?, "closesAt"?, "closedText"?}'],
    ] as const) {
      const res = await api('PATCH', path, { body: { limits } });
      expect(await problem(res, 400), JSON.stringify(limits)).toBe(sentence);
    }
    expect(await view()).toEqual(before);
  });
});

describe('C45: the hosted page of a form outside its limits', () => {
  const pageOf = async (formId: string, lang = 'en') =>
    (await fetchWorker(new Request(`${BASE}/f/${formId}?lang=${lang}`))).text();

  it('shows its closed text in the visitor’s language instead of its form, and no script', async () => {
    const p = await limited({
      closesAt: new Date(Date.now() - 60_000).toISOString(),
      closedText: { en: 'Registration has closed.', de: 'Die Anmeldung ist geschlossen.' },
    });
    await ok(
      await api('PATCH', `/projects/${p.projectId}`, {
        body: { page: { enabled: true, languages: ['en', 'de'] } },
      }),
    );
    const de = await pageOf(p.formId, 'de');
    expect(de).toContain('Die Anmeldung ist geschlossen.');
    expect(de).not.toContain('<form');
    expect(de).not.toContain('<script');
  });

  it('says a full form is full, in words of its own when its owner wrote none; an open one shows its form', async () => {
    const p = await limited({ maxSubmissions: 1 });
    await ok(await api('PATCH', `/projects/${p.projectId}`, { body: { page: { enabled: true } } }));
    expect((await p.post('a@example.com')).status).toBe(201);
    const full = await pageOf(p.formId);
    expect(full).toMatch(/This form is full: it takes no more submissions/);
    expect(full).not.toContain('<form');
    const open = await limited({ maxSubmissions: 5 });
    await ok(await api('PATCH', `/projects/${open.projectId}`, { body: { page: { enabled: true } } }));
    expect(await pageOf(open.formId)).toContain('<form');
  });
});
