// C45: a field that applies only when earlier fields say so, end to end in workerd: defined over
// the management API (a condition naming a later or unknown field is 400, naming it; a field that
// a condition names cannot be removed), shown in every view, and judged by the worker on a JSON
// post and an HTML form's post alike: required only when its condition holds, stored only then.
import { describe, expect, it } from 'vitest';
import { fetchWorker, storedData, submit } from './helpers.ts';
import { api, BASE, newProject, ok, problem } from './manage/helpers.ts';

const FIELDS = [
  { name: 'business', type: 'boolean' },
  { name: 'company', type: 'string', required: true, when: { field: 'business', equals: true } },
  {
    name: 'vat',
    type: 'string',
    rules: { minLength: 4 },
    when: { all: [{ field: 'company', filled: true }, { not: { field: 'business', equals: false } }] },
  },
  { name: 'message', type: 'string' },
];

type Field = { name: string; when?: unknown };
const fieldsOf = async (projectId: string) =>
  (await ok<{ project: { fields: Field[] } }>(await api('GET', `/projects/${projectId}`))).project.fields;

describe('C45: when, over the management API', () => {
  it('is taken with a project’s fields, shown in its view, and replaced by a definition (absent: none)', async () => {
    const p = await newProject(FIELDS);
    const fields = await fieldsOf(p.projectId);
    expect(fields.map((f) => [f.name, f.when])).toEqual([
      ['business', undefined],
      ['company', { field: 'business', equals: true }],
      ['vat', FIELDS[2]?.when],
      ['message', undefined],
    ]);
    const path = `/projects/${p.projectId}/fields/message`;
    await ok(await api('PUT', path, { body: { type: 'string', when: { field: 'business', filled: true } } }));
    expect((await fieldsOf(p.projectId))[3]?.when).toEqual({ field: 'business', filled: true });
    await ok(await api('PUT', path, { body: { type: 'string' } }));
    expect((await fieldsOf(p.projectId))[3]?.when).toBeUndefined();
  });

  it('refuses a condition naming a later or unknown field, or a value of the wrong type, naming it; nothing changes', async () => {
    const p = await newProject(FIELDS);
    const before = await fieldsOf(p.projectId);
    const cases: [string, unknown, string][] = [
      [
        'business',
        { field: 'company', filled: true },
        "The condition of field 'business' names 'company', which is not a field before it",
      ],
      [
        'company',
        { field: 'nope', equals: 1 },
        "The condition of field 'company' names 'nope', which is not a field before it",
      ],
      [
        'company',
        { field: 'business', equals: 'yes' },
        "'equals' is a boolean (field 'business') in the condition of field 'company'",
      ],
    ];
    for (const [name, when, sentence] of cases) {
      const res = await api('PUT', `/projects/${p.projectId}/fields/${name}`, {
        body: { type: name === 'business' ? 'boolean' : 'string', when },
      });
      expect(await problem(res, 400), name).toBe(sentence);
    }
    // A field retyped under a condition that compares it is refused too.
    const retyped = await api('PUT', `/projects/${p.projectId}/fields/business`, {
      body: { type: 'string' },
    });
    expect(await problem(retyped, 400)).toBe(
      "'equals' is a string (field 'business') in the condition of field 'company'",
    );
    const create = await api('POST', '/projects', {
      body: {
        name: 'Later',
        fields: [
          { name: 'a', type: 'string', when: { field: 'b', filled: true } },
          { name: 'b', type: 'string' },
        ],
      },
    });
    expect(await problem(create, 400)).toBe(
      "The condition of field 'a' names 'b', which is not a field before it",
    );
    expect(await fieldsOf(p.projectId)).toEqual(before);
  });

  it('keeps a field another condition names: removing it is 409, naming the condition', async () => {
    const p = await newProject(FIELDS);
    const res = await api('DELETE', `/projects/${p.projectId}/fields/business`);
    expect(await problem(res, 409)).toBe(
      "Field 'business' is named by the condition of field 'company': change that condition first",
    );
    expect((await fieldsOf(p.projectId)).map((f) => f.name)).toContain('business');
  });
});

describe('C45: when, as the worker judges a submission', () => {
  it('requires a field only while its condition holds, and stores a value only then', async () => {
    const p = await newProject(FIELDS);
    const post = (json: unknown) => submit({ key: p.apiKey, json });
    // Not a business: no company asked, and what was sent for it and for vat is not stored.
    expect((await post({ business: false, company: 'x', vat: 'y', message: 'hi' })).status).toBe(201);
    // A business: the company is required, and vat, applying, is judged.
    const missing = await post({ business: true, message: 'hi' });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { data: { issues: unknown[] } }).data.issues).toEqual([
      { field: 'company', code: 'required' },
    ]);
    const short = await post({ business: true, company: 'ACME', vat: 'x' });
    expect(((await short.json()) as { data: { issues: unknown[] } }).data.issues).toEqual([
      { field: 'vat', code: 'min_length', params: { min: 4 } },
    ]);
    expect((await post({ business: true, company: 'ACME', vat: 'DE123' })).status).toBe(201);
    // Nothing said of business: company's condition fails, and vat's (company absent) too.
    expect((await post({ message: 'hello', company: 'ACME' })).status).toBe(201);
    expect(await storedData(p.projectId)).toEqual([
      { business: false, message: 'hi' },
      { business: true, company: 'ACME', vat: 'DE123' },
      { message: 'hello' },
    ]);
  });

  it('judges an HTML form’s post the same: an unchecked box is false, so the company is not asked', async () => {
    const p = await newProject(FIELDS);
    const form = (body: string) =>
      fetchWorker(
        new Request(`${BASE}/f/${p.formId}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
          body,
        }),
      );
    expect((await form('company=&message=hi')).status).toBe(201);
    const refused = await form('business=on&message=hi');
    expect(refused.status).toBe(400);
    expect((await form('business=on&company=ACME')).status).toBe(201);
    expect(await storedData(p.projectId)).toEqual([
      { business: false, message: 'hi' },
      { business: true, company: 'ACME' },
    ]);
  });
});

describe('C45: a hidden field that captures where a visitor came from', () => {
  it('takes a source on a text field, holds at most 500 characters, and is shown in the view', async () => {
    const p = await newProject([
      { name: 'source', type: 'string', capture: 'utm_source' },
      { name: 'ref', type: 'string', capture: 'query:ref', rules: { maxLength: 80 } },
      { name: 'email', type: 'string' },
    ]);
    const fields = (
      await ok<{ project: { fields: Record<string, unknown>[] } }>(
        await api('GET', `/projects/${p.projectId}`),
      )
    ).project.fields;
    expect(fields.slice(0, 2)).toEqual([
      { name: 'source', type: 'string', required: false, rules: { maxLength: 500 }, capture: 'utm_source' },
      { name: 'ref', type: 'string', required: false, rules: { maxLength: 80 }, capture: 'query:ref' },
    ]);
    const long = await submit({ key: p.apiKey, json: { source: 'x'.repeat(501), email: 'a@b.co' } });
    expect(long.status).toBe(400);
    expect((await submit({ key: p.apiKey, json: { source: 'newsletter', email: 'a@b.co' } })).status).toBe(
      201,
    );
    for (const [body, sentence] of [
      [
        { type: 'string', capture: 'gclid' },
        "'capture' of field 'x' is utm_source, utm_medium, utm_campaign, utm_term, utm_content, referrer or query:<name>: not \"gclid\"",
      ],
      [{ type: 'integer', capture: 'utm_source' }, "'capture' is for a text field: 'x' is not one"],
      [
        { type: 'string', capture: 'referrer', rules: { maxLength: 2000 } },
        "A captured field holds at most 500 characters: 'x' has maxLength 2000",
      ],
      [{ type: 'string', required: true, capture: 'referrer' }, "A captured field is never required: 'x' is"],
    ] as const) {
      const res = await api('PUT', `/projects/${p.projectId}/fields/x`, { body });
      expect(await problem(res, 400), JSON.stringify(body)).toBe(sentence);
    }
  });
});
