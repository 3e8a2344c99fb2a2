// C46: a hosted page in steps over the management API: a field's `step` (1–20, kept unless given,
// null back to the first), the page's steps' titles; a condition that names a field of a later
// step is 400, as is a bad step or title, and nothing changes; the page then has each step as a
// fieldset titled in the visitor's language, the indicator and buttons hidden for its script,
// and the fields' rules as data no text of theirs can break out of. A page of one step is as
// before.
import { describe, expect, it } from 'vitest';
import type { PageView as Page } from '../../src/ops/project-view.ts';
import { fetchWorker } from '../helpers.ts';
import { api, BASE, newProject, ok, problem } from './helpers.ts';

type Project = { id: string; fields: Record<string, unknown>[]; page: Page };
const show = async (projectId: string) =>
  (await ok<{ project: Project }>(await api('GET', `/projects/${projectId}`))).project;
const pageOf = async (formId: string, query = '') =>
  (await fetchWorker(new Request(`${BASE}/f/${formId}${query}`))).text();

const FIELDS = [
  { name: 'name', type: 'string', required: true },
  { name: 'business', type: 'boolean', step: 1 },
  { name: 'topic', type: 'string', step: 2, rules: { pattern: '^[^<]+$' } },
  { name: 'company', type: 'string', step: 3, when: { field: 'business', equals: true } },
];

describe('C46: a field’s step and the page’s steps', () => {
  it('a field’s step is kept unless given, null or 1 is the first; the view shows a later one only', async () => {
    const p = await newProject(FIELDS);
    const steps = async () => (await show(p.projectId)).fields.map((f) => [f.name, f.step]);
    expect(await steps()).toEqual([
      ['name', undefined],
      ['business', undefined],
      ['topic', 2],
      ['company', 3],
    ]);
    const path = `/projects/${p.projectId}/fields/topic`;
    await ok(await api('PUT', path, { body: { type: 'string', required: true } }));
    expect((await steps())[2]).toEqual(['topic', 2]);
    await ok(await api('PUT', path, { body: { type: 'string', step: null } }));
    expect((await steps())[2]).toEqual(['topic', undefined]);
    await ok(await api('PUT', path, { body: { type: 'string', step: 20 } }));
    expect((await steps())[2]).toEqual(['topic', 20]);
  });

  it('refuses a bad step, and a condition naming a field of a later step, changing nothing', async () => {
    const p = await newProject(FIELDS);
    const before = await show(p.projectId);
    const path = `/projects/${p.projectId}/fields/business`;
    for (const step of [0, 21, 1.5, '2', true]) {
      expect(await problem(await api('PUT', path, { body: { type: 'boolean', step } }), 400)).toBe(
        `'step' is a whole number from 1 to 20 in field 'business': not ${JSON.stringify(step)}`,
      );
    }
    // `company` (step 3) names `business`: moving `business` after it is refused.
    expect(await problem(await api('PUT', path, { body: { type: 'boolean', step: 4 } }), 400)).toBe(
      "The condition of field 'company' (step 3) names field 'business', which is on a later step (4): a condition names fields on its own step or before",
    );
    expect(await show(p.projectId)).toEqual(before);
    // And at creation.
    const made = await api('POST', '/projects', {
      body: {
        name: 'Later',
        fields: [
          { name: 'business', type: 'boolean', step: 2 },
          { name: 'company', type: 'string', when: { field: 'business', equals: true } },
        ],
      },
    });
    expect(await problem(made, 400)).toBe(
      "The condition of field 'company' (step 1) names field 'business', which is on a later step (2): a condition names fields on its own step or before",
    );
  });

  it('the page’s steps: titles in order, checked as its texts; null or [] none; bad ones 400, nothing changed', async () => {
    const p = await newProject(FIELDS);
    const steps = [
      { title: { 'EN-gb': 'About you', de: 'Über Sie' } },
      { title: { en: 'Your request' } },
      {},
    ];
    const set = (value: unknown) =>
      api('PATCH', `/projects/${p.projectId}`, { body: { page: { steps: value } } });
    await ok(await set(steps));
    expect((await show(p.projectId)).page.steps).toEqual([
      { title: { 'en-GB': 'About you', de: 'Über Sie' } },
      { title: { en: 'Your request' } },
      { title: {} },
    ]);
    const before = await show(p.projectId);
    const cases: [unknown, string][] = [
      [
        Array.from({ length: 21 }, () => ({})),
        'The page\'s steps are at most 20, each {"title": {"en": "About you"}}, in order: a field\'s step is its number',
      ],
      [['About you'], 'Step 1 of the page is {"title": {"en": "…"}}'],
      [[{ title: { en: 'a' }, name: 'x' }], "Unknown member 'name' of step 1 of the page: use title"],
      [[{}, { title: { en: 'x'.repeat(201) } }], "The step's title in 'en' is longer than 200 characters"],
    ];
    for (const [value, sentence] of cases) {
      const res = await set(value);
      expect(res.status, JSON.stringify(value).slice(0, 80)).toBe(400);
      if (!sentence.startsWith("The step's title")) expect(await problem(res, 400)).toBe(sentence);
    }
    expect(await show(p.projectId)).toEqual(before);
    await ok(await set([]));
    expect((await show(p.projectId)).page.steps).toEqual([]);
    await ok(await set(steps));
    await ok(await set(null));
    expect((await show(p.projectId)).page.steps).toEqual([]);
  });

  it('the page: a fieldset per step with a field, titled in the visitor’s language, else "Step n of N"; its script and data', async () => {
    const p = await newProject(FIELDS);
    await ok(
      await api('PATCH', `/projects/${p.projectId}`, {
        body: {
          page: {
            enabled: true,
            languages: ['en', 'de'],
            steps: [{ title: { en: 'About <you>', de: 'Über Sie' } }, { title: { de: 'Ihr Anliegen' } }],
          },
        },
      }),
    );
    const en = await pageOf(p.formId);
    const legends = [...en.matchAll(/<fieldset data-step="(\d)"><legend><h2 tabindex="-1">([^<]*)<\/h2>/g)];
    expect(legends.map((m) => [m[1], m[2]])).toEqual([
      ['1', 'About &lt;you&gt;'],
      // No English title: another language's, as any text of the page (C44); none at all: its number.
      ['2', 'Ihr Anliegen'],
      ['3', 'Step 3 of 3'],
    ]);
    expect(en).toContain('<div data-steps hidden><p id="forms-step-of" data-step-of="Step {n} of {total}"');
    expect(en).toContain('<progress max="3" value="1" aria-labelledby="forms-step-of"></progress>');
    expect(en).toContain(
      '<div data-step-nav hidden><button type="button" data-step-back>Back</button><button type="button" data-step-next>Next</button></div>',
    );
    expect(en).toMatch(
      /<script src="[^"]+\/widget\.js" defer><\/script><script type="module" src="[^"]+\/widget\/steps\.js"><\/script>/,
    );
    // The rules as data: a `<` in one written as an escape, so no rule can end the element.
    const data = /<script type="application\/json" id="forms-fields">([^<]*)<\/script>/.exec(en)?.[1] ?? '';
    expect(data).toContain('"pattern":"^[^\\u003c]+$"');
    expect((JSON.parse(data) as { name: string }[]).map((f) => f.name)).toEqual([
      'name',
      'business',
      'topic',
      'company',
    ]);
    const de = await pageOf(p.formId, '?lang=de');
    expect(de).toContain('<h2 tabindex="-1">Über Sie</h2>');
    expect(de).toContain('<h2 tabindex="-1">Ihr Anliegen</h2>');
    expect(de).toContain('data-step-of="Schritt {n} von {total}"');
    expect(de).toContain('data-step-next>Weiter</button>');
  });

  it('a page whose fields are all on one step is one page, as before: no fieldset, no script of steps', async () => {
    const p = await newProject([
      { name: 'name', type: 'string', step: 2 },
      { name: 'email', type: 'string', step: 2 },
    ]);
    await ok(
      await api('PATCH', `/projects/${p.projectId}`, {
        body: { page: { enabled: true, steps: [{ title: { en: 'One' } }, { title: { en: 'Two' } }] } },
      }),
    );
    const html = await pageOf(p.formId);
    expect(html).not.toContain('<fieldset');
    expect(html).not.toContain('steps.js');
    expect(html).not.toContain('forms-fields');
    expect(html).toContain('<input id="f-name" name="name">');
  });
});
