// C45: the field editor's "Show only when…" in Chromium against `npm run dev`: a field after the
// first applies only when an earlier field passes a test (equals, is one of, is filled, is empty),
// sent as `when` in the field's definition and shown back from the project's view; a condition
// made elsewhere (several parts) is shown as it is and sent back unchanged; "always shown" sends
// none. What every screen gets (axe-core, nothing from another origin, a screenshot) is in
// test/e2e/dashboard.ts.
import { describe, expect, it } from 'vitest';
import { api, dashboardSite, page, projectId, settings, shot } from './dashboard.ts';

dashboardSite('dashboard-when', { signedIn: true });

const fields = () => page.getByRole('region', { name: 'Fields' });
const row = (name: string) =>
  fields()
    .locator('li')
    .filter({ has: page.locator('strong', { hasText: new RegExp(`^${name}$`) }) });
const viewOf = async (name: string) => {
  const { data } = await api('GET', `/projects/${projectId}`);
  const { fields } = data.project as {
    fields: { name: string; when?: unknown; required: boolean; capture?: string }[];
  };
  return fields.find((f) => f.name === name);
};
const save = async (name: string) => {
  await fields()
    .getByRole('button', { name: `Save ${name}` })
    .click();
  await fields()
    .getByRole('button', { name: `Save ${name}` })
    .waitFor({ state: 'detached' });
};

describe('C45: the field editor’s “Show only when…”', () => {
  it('makes a test of an earlier field, sends it as `when`, and shows it back', async () => {
    await settings('Fields');
    // The first field has none before it: nothing to show it by.
    await row('name').getByRole('button', { name: 'Change' }).click();
    expect(await fields().getByRole('group', { name: 'Show only when…' }).count()).toBe(0);
    await fields().getByRole('button', { name: 'Cancel' }).click();

    await row('message').getByRole('button', { name: 'Change' }).click();
    const when = fields().getByRole('group', { name: 'Show only when…' });
    // Only the fields before it.
    expect(await when.getByLabel('Field').locator('option').allTextContents()).toEqual([
      'always shown',
      'name',
      'email',
    ]);
    await when.getByLabel('Field').selectOption('email');
    await when.getByLabel('Test').selectOption('filled');
    await shot('field-when');
    await save('message');
    expect((await viewOf('message'))?.when).toEqual({ field: 'email', filled: true });
    await row('message').getByText('shown only when email is filled').waitFor();

    // Equals a value, typed as the named field's type; then "is one of", comma-separated.
    await row('message').getByRole('button', { name: 'Change' }).click();
    expect(await when.getByLabel('Test').inputValue()).toBe('filled');
    await when.getByLabel('Field').selectOption('name');
    await when.getByLabel('Test').selectOption('oneOf');
    await when.getByLabel('Values').fill('Ada, Grace');
    await save('message');
    expect((await viewOf('message'))?.when).toEqual({ field: 'name', oneOf: ['Ada', 'Grace'] });
    await row('message').getByText('shown only when name is one of Ada, Grace').waitFor();

    // A file is filled or empty, nothing else.
    await row('cv').getByRole('button', { name: 'Change' }).click();
    await when.getByLabel('Field').selectOption('photo');
    expect(await when.getByLabel('Test').locator('option').allTextContents()).toEqual([
      'is filled',
      'is empty',
    ]);
    await when.getByLabel('Test').selectOption('empty');
    await save('cv');
    expect((await viewOf('cv'))?.when).toEqual({ field: 'photo', filled: false });

    // Always shown again: `when` is null, and the view has none.
    await row('message').getByRole('button', { name: 'Change' }).click();
    expect(await when.getByLabel('Values').inputValue()).toBe('Ada, Grace');
    await when.getByLabel('Field').selectOption('');
    await save('message');
    expect((await viewOf('message'))?.when).toBeUndefined();
  });

  it('equals a text as typed; a field a condition names cannot be removed, and the editor says why', async () => {
    await row('email').getByRole('button', { name: 'Change' }).click();
    const when = fields().getByRole('group', { name: 'Show only when…' });
    await when.getByLabel('Field').selectOption('name');
    await when.getByLabel('Test').selectOption('equals');
    await when.getByLabel('Value').fill('Ada Lovelace');
    await save('email');
    expect((await viewOf('email'))?.when).toEqual({ field: 'name', equals: 'Ada Lovelace' });
    await row('name').getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await page
      .getByText("Field 'name' is named by the condition of field 'email'", { exact: false })
      .waitFor();
    expect(await viewOf('name')).toBeDefined();
  });

  it('a condition made elsewhere is shown as it is and sent back unchanged when the field is saved', async () => {
    const condition = { any: [{ field: 'name', equals: 'Ada' }, { not: { field: 'photo', filled: true } }] };
    const res = await api('PUT', `/projects/${projectId}/fields/cv`, {
      type: 'file',
      rules: { accept: ['application/pdf'], maxSize: '1MB' },
      when: condition,
    });
    expect(res.data).toBeDefined();
    // The screen as a reader opens it: the project read again.
    await page.reload();
    await fields().waitFor();
    await row('cv')
      .getByText(`shown only when ${JSON.stringify(condition)}`)
      .waitFor();
    await row('cv').getByRole('button', { name: 'Change' }).click();
    const editor = fields().locator('.field-editor');
    expect(await editor.locator('.when code').first().textContent()).toBe(JSON.stringify(condition));
    expect(await editor.getByRole('group', { name: 'Show only when…' }).count()).toBe(0);
    await editor.getByText('kept as it is when the field is saved').waitFor();
    await shot('field-when-kept');
    await editor.getByLabel('Required').check();
    await save('cv');
    const cv = await viewOf('cv');
    expect(cv?.required).toBe(true);
    expect(cv?.when).toEqual(condition);
  });

  it('a captured field is said so, and saving it keeps its capture; the editor sets one on a text field', async () => {
    await api('PUT', `/projects/${projectId}/fields/source`, { type: 'string', capture: 'utm_source' });
    await page.reload();
    await fields().waitFor();
    await row('source').getByText('hidden, filled from utm_source').waitFor();
    await row('source').getByRole('button', { name: 'Change' }).click();
    const editor = fields().locator('.field-editor');
    expect(await editor.getByLabel('Hidden, filled from').inputValue()).toBe('utm_source');
    await save('source');
    expect(await viewOf('source')).toMatchObject({ capture: 'utm_source', rules: { maxLength: 500 } });
    // Changed here: another parameter.
    await row('source').getByRole('button', { name: 'Change' }).click();
    await editor.getByLabel('Hidden, filled from').fill('query:ref');
    await save('source');
    expect(await viewOf('source')).toMatchObject({ capture: 'query:ref' });
    await shot('field-capture');
  });

  it('C46: offers only the fields on its own step or before; a later step once its Step says so', async () => {
    const { data } = await api('GET', `/projects/${projectId}`);
    const email = (data.project as { fields: { name: string; type: string; rules?: unknown }[] }).fields.find(
      (f) => f.name === 'email',
    );
    await api('PUT', `/projects/${projectId}/fields/email`, {
      type: email?.type,
      rules: email?.rules,
      step: 2,
    });
    await page.reload();
    await fields().waitFor();
    await row('message').getByRole('button', { name: 'Change' }).click();
    const editor = fields().locator('.field-editor');
    const offered = () =>
      editor
        .getByRole('group', { name: 'Show only when…' })
        .getByLabel('Field')
        .locator('option')
        .allTextContents();
    expect(await offered()).toEqual(['always shown', 'name']);
    await editor.getByLabel('Step').fill('2');
    expect(await offered()).toEqual(['always shown', 'name', 'email']);
    await fields().getByRole('button', { name: 'Cancel' }).click();
    await api('PUT', `/projects/${projectId}/fields/email`, {
      type: email?.type,
      rules: email?.rules,
      step: null,
    });
  });
});
