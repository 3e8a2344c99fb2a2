// C44 + C32: what a field shows, over the management API: labels, help and placeholders wherever
// fields are defined, each bad one a 400 in the sentence the tool prints, kept by a definition that
// does not give them; returned in every view, and in the JSON Schema and the TypeScript module in
// the project's default language.
import { describe, expect, it } from 'vitest';
import { generateModule } from '../../src/fields/generate.ts';
import { parseFieldSpec } from '../../src/fields/spec.ts';
import type { PageView as Page } from '../../src/ops/project-view.ts';
import { fetchWorker, submit } from '../helpers.ts';
import { DEFAULT_PAGE } from '../page-fixtures.ts';
import { api, BASE, newProject, ok, problem } from './helpers.ts';

type Field = { name: string; label?: Record<string, string>; help?: Record<string, string> };
type Project = { id: string; fields: (Field & Record<string, unknown>)[]; page: Page };
type Entry = { actor: string; action: string; detail: Record<string, unknown> | null };

const auditOf = async (projectId: string) =>
  (await ok<{ entries: Entry[] }>(await api('GET', `/projects/${projectId}/audit`))).entries;
const show = async (projectId: string) =>
  (await ok<{ project: Project }>(await api('GET', `/projects/${projectId}`))).project;

describe('C44: what a field shows, over the management API', () => {
  it('POST /projects takes label, help and placeholder per field, tags canonical; every view returns them', async () => {
    const p = await newProject([
      {
        name: 'email',
        type: 'string',
        required: true,
        label: { 'EN-us': 'Your email', de: 'Ihre E-Mail-Adresse' },
        help: { en: 'We reply within a day.\r\nNever shared.' },
        placeholder: { en: 'ada@example.com' },
      },
      { name: 'note', type: 'string', label: {} },
    ]);
    const project = await show(p.projectId);
    expect(project.fields).toEqual([
      {
        name: 'email',
        type: 'string',
        required: true,
        label: { 'en-US': 'Your email', de: 'Ihre E-Mail-Adresse' },
        help: { en: 'We reply within a day.\nNever shared.' },
        placeholder: { en: 'ada@example.com' },
      },
      { name: 'note', type: 'string', required: false },
    ]);
    expect(project.page).toEqual(DEFAULT_PAGE);
    const listed = await ok<{ projects: { id: string }[] }>(await api('GET', '/projects'));
    expect(listed.projects.map((x) => x.id)).toContain(p.projectId);
  });

  it('PUT a field: what it shows is kept unless given; null or {} removes it; the audit log records it', async () => {
    const p = await newProject([
      { name: 'email', type: 'string', label: { en: 'Email' }, help: { en: 'Help' } },
    ]);
    const path = `/projects/${p.projectId}/fields/email`;
    // The dashboard's editor sends what a field checks alone: what it shows stays.
    await ok(await api('PUT', path, { body: { type: 'string', rules: { format: 'email' } } }));
    expect((await show(p.projectId)).fields[0]).toEqual({
      name: 'email',
      type: 'string',
      required: false,
      rules: { format: 'email' },
      label: { en: 'Email' },
      help: { en: 'Help' },
    });
    await ok(
      await api('PUT', path, {
        body: { type: 'string', label: { de: 'E-Mail', en: 'Email address' }, help: null, placeholder: {} },
      }),
    );
    expect((await show(p.projectId)).fields[0]).toEqual({
      name: 'email',
      type: 'string',
      required: false,
      label: { de: 'E-Mail', en: 'Email address' },
    });
    const [entry] = await auditOf(p.projectId);
    expect(entry).toMatchObject({
      action: 'field.define',
      detail: { name: 'email', label: { de: 'E-Mail', en: 'Email address' }, help: {}, added: false },
    });
  });

  it('a bad label, help or placeholder is 400 Invalid request, in the sentence the tool prints; nothing changes', async () => {
    const p = await newProject([{ name: 'email', type: 'string' }]);
    const before = await show(p.projectId);
    const cases: [unknown, string][] = [
      [
        { en_US: 'x' },
        "Invalid language tag 'en_US' in the label of field 'email': a BCP 47 tag such as en, de or pt-BR",
      ],
      [{ en: 'x'.repeat(201) }, "The label of field 'email' in 'en' is 201 characters: at most 200"],
      [{ en: 'a\u0007b' }, "The label of field 'email' in 'en' holds U+0007: no control characters"],
      [{ en: 'a\nb' }, "The label of field 'email' in 'en' holds U+000A: it is one line"],
      [{ en: 'a\u202eb' }, "The label of field 'email' in 'en' holds U+202E: no control characters"],
      [{ en: ' ' }, "The label of field 'email' in 'en' is empty: leave the language out"],
      [{ en: 1 }, "The label of field 'email' in 'en' is not text"],
      [{ en: 'a', EN: 'b' }, "The label of field 'email' is given twice in 'en'"],
      [
        Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x${String.fromCharCode(97 + i)}a`, 'x'])),
        "The label of field 'email' is given in 21 languages: at most 20",
      ],
      [
        'Email',
        `The label of field 'email' is an object of language tags and texts, e.g. {"en": "…", "de": "…"}`,
      ],
    ];
    for (const [label, sentence] of cases) {
      const res = await api('PUT', `/projects/${p.projectId}/fields/email`, {
        body: { type: 'string', label },
      });
      expect(await problem(res, 400), JSON.stringify(label)).toBe(sentence);
    }
    const help = await api('PUT', `/projects/${p.projectId}/fields/email`, {
      body: { type: 'string', help: { en: 'x'.repeat(1001) } },
    });
    expect(await problem(help, 400)).toBe(
      "The help of field 'email' in 'en' is 1001 characters: at most 1000",
    );
    const create = await api('POST', '/projects', {
      body: { name: 'Bad', fields: [{ name: 'email', type: 'string', placeholder: { en: 'a\tb' } }] },
    });
    expect(await problem(create, 400)).toBe(
      "The placeholder of field 'email' in 'en' holds U+0009: no control characters",
    );
    // The spec's own checks come first, as in the tool.
    expect(() => parseFieldSpec('email:strin')).toThrow("Unknown field type 'strin'");
    expect(await show(p.projectId)).toEqual(before);
  });

  it("titles the JSON Schema and the TypeScript module in the project's default language, the key's schema route too", async () => {
    const p = await newProject([
      {
        name: 'email',
        type: 'string',
        required: true,
        label: { en: 'Your email', de: 'Ihre E-Mail-Adresse' },
        help: { en: 'We reply within a day.', de: 'Wir antworten binnen eines Tages.' },
      },
      { name: 'note', type: 'string', label: { fr: 'Remarque */ pwned' } },
    ]);
    const titles = (schema: { properties: Record<string, { title?: string; description?: string }> }) =>
      Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, [v.title, v.description]]));
    const managed = async () =>
      (await ok<{ schema: never }>(await api('GET', `/projects/${p.projectId}/schema`))).schema;
    const keyed = async () => {
      const res = await submit({
        url: 'https://forms.test/api/v1/schema',
        method: 'GET',
        key: p.apiKey,
        contentType: null,
      });
      return ((await res.json()) as { data: { schema: never } }).data.schema;
    };
    const english = {
      email: ['Your email', 'We reply within a day.'],
      note: ['Remarque */ pwned', undefined],
    };
    expect(titles(await managed())).toEqual(english);
    expect(titles(await keyed())).toEqual(english);
    await ok(await api('PATCH', `/projects/${p.projectId}`, { body: { page: { languages: ['de', 'en'] } } }));
    const german = {
      email: ['Ihre E-Mail-Adresse', 'Wir antworten binnen eines Tages.'],
      note: english.note,
    };
    expect(titles(await managed())).toEqual(german);
    expect(titles(await keyed())).toEqual(german);
    const { module } = await ok<{ module: string }>(await api('GET', `/projects/${p.projectId}/types`));
    const project = await show(p.projectId);
    expect(module).toBe(
      generateModule(project.fields as never, 'reject', {
        project: p.projectId,
        honeypot: null,
        language: 'de',
      }),
    );
    expect(module).toContain(
      '   * Ihre E-Mail-Adresse\n   *\n   * Wir antworten binnen eines Tages.\n   */\n  email: string;',
    );
    expect(module).toContain('   * Remarque *\\/ pwned\n');
  });

  it('multiline: true or false on a text field, kept unless given, null back to its length; its page shows it; a list, a number or a non-boolean is 400', async () => {
    const p = await newProject([
      { name: 'message', type: 'string', multiline: true },
      { name: 'story', type: 'string', rules: { maxLength: 5000 }, multiline: false },
      { name: 'about', type: 'string', rules: { maxLength: 5000 } },
    ]);
    const fieldsOf = async () => (await show(p.projectId)).fields;
    expect((await fieldsOf()).map((f) => [f.name, f.multiline])).toEqual([
      ['message', true],
      ['story', false],
      ['about', undefined],
    ]);
    await ok(await api('PATCH', `/projects/${p.projectId}`, { body: { page: { enabled: true } } }));
    const page = await (await fetchWorker(new Request(`${BASE}/f/${p.formId}`))).text();
    // Said: several lines for a short field, one for a long one; not said: its length decides.
    expect(page).toContain('<textarea id="f-message" name="message" rows="4"></textarea>');
    expect(page).toContain('<input id="f-story" name="story" maxlength="5000">');
    expect(page).toContain('<textarea id="f-about" name="about" maxlength="5000" rows="4"></textarea>');
    const path = `/projects/${p.projectId}/fields/message`;
    await ok(await api('PUT', path, { body: { type: 'string', rules: { maxLength: 100 } } }));
    expect((await fieldsOf())[0]).toEqual({
      name: 'message',
      type: 'string',
      required: false,
      rules: { maxLength: 100 },
      multiline: true,
    });
    await ok(await api('PUT', path, { body: { type: 'string', multiline: null } }));
    expect((await fieldsOf())[0]).toEqual({ name: 'message', type: 'string', required: false });
    const before = await show(p.projectId);
    const cases: [Record<string, unknown>, string][] = [
      [
        { type: 'integer', multiline: true },
        "'multiline' is for a text field: 'message' is an integer field",
      ],
      [
        { type: 'string', rules: { oneOf: ['a', 'b'] }, multiline: false },
        "'multiline' is for a text field: 'message' is a list of choices",
      ],
    ];
    for (const [body, sentence] of cases) {
      expect(await problem(await api('PUT', path, { body }), 400), JSON.stringify(body)).toBe(sentence);
    }
    const yes = await api('PUT', path, { body: { type: 'string', multiline: 'yes' } });
    expect(yes.status).toBe(400);
    expect(await show(p.projectId)).toEqual(before);
  });
});
