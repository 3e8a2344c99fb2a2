// C46: the dashboard's side of a hosted page in steps, in Chromium against `npm run dev`: a field's
// Step in the field editor (sent as its `step`, shown in the list of fields as "· step 2", emptied:
// the first again), and the Page screen's Steps (each step's title in each of the page's languages,
// a step added and the last removed, saved as the page's `steps`); the hosted page then shows
// "Step 1 of 2" under the first step's title, in English and in German. What every screen gets
// (axe-core at 1280 px, nothing from another origin, a screenshot) is in test/e2e/dashboard.ts.
import { describe, expect, it } from 'vitest';
import { api, dashboardSite, formId, nav, page, projectId, settings, shot, worker } from './dashboard.ts';

dashboardSite('dashboard-steps', { signedIn: true });

const fields = () => page.getByRole('region', { name: 'Fields' });
const row = (name: string) =>
  fields()
    .locator('li')
    .filter({ has: page.locator('strong', { hasText: new RegExp(`^${name}$`) }) });
const viewed = async () => {
  const { data } = await api('GET', `/projects/${projectId}`);
  return data.project as {
    fields: { name: string; step?: number }[];
    page: { steps: { title: Record<string, string> }[] };
  };
};
const stepOf = async (name: string) => (await viewed()).fields.find((f) => f.name === name)?.step;
const steps = () => page.getByRole('region', { name: 'Steps' });
const title = (n: number, language: string) =>
  steps().getByLabel(`Title of step ${n} in ${language}`, { exact: true });
const said = (text: string) => page.locator('.notes').getByText(text, { exact: false }).waitFor();

describe('C46: a field’s step in the field editor', () => {
  it('adds topic on step 2, shown as “· step 2”; a step emptied is the first again', async () => {
    await settings('Fields');
    await page.getByRole('button', { name: 'Add a field' }).click();
    const editor = page.locator('.field-editor').last();
    await editor.getByLabel('Name').fill('topic');
    await editor.getByLabel('Step', { exact: true }).fill('2');
    await shot('steps-field-editor');
    await page.getByRole('button', { name: 'Add the field' }).click();
    await row('topic').getByText('· step 2').waitFor();
    expect(await stepOf('topic')).toBe(2);
    // A field on the first step says none.
    expect(await row('email').getByText('step', { exact: false }).count()).toBe(0);

    // An existing field moved to step 3, then its step emptied: `step` null, the first again.
    await row('message').getByRole('button', { name: 'Change' }).click();
    await fields().getByLabel('Step', { exact: true }).fill('3');
    await fields().getByRole('button', { name: 'Save message' }).click();
    await row('message').getByText('· step 3').waitFor();
    expect(await stepOf('message')).toBe(3);
    await row('message').getByRole('button', { name: 'Change' }).click();
    expect(await fields().getByLabel('Step', { exact: true }).inputValue()).toBe('3');
    await fields().getByLabel('Step', { exact: true }).fill('');
    await fields().getByRole('button', { name: 'Save message' }).click();
    expect(await stepOf('message')).toBeUndefined();
    // Once the project is read again: a field on the first step says no step.
    await expect.poll(() => row('message').locator('span').first().textContent()).toBe('message string');
    expect(await stepOf('topic')).toBe(2);
  });
});

describe('C46: the Page screen’s Steps', () => {
  it('titles two steps in English and German, saved as the page’s steps', async () => {
    await nav('Page').click();
    await page.getByRole('heading', { level: 1, name: /^Page/ }).waitFor();
    await page.getByLabel('The page is on').check();
    await page.getByLabel('Language tag').fill('de');
    await page.getByRole('button', { name: 'Add the language' }).click();
    await page.getByRole('button', { name: 'Move German (de) up' }).waitFor();
    await steps().getByText('The fields are on 2 steps').waitFor();
    await steps().getByRole('link', { name: 'Settings → Fields' }).waitFor();
    await steps().getByText('With scripts off the page is one page', { exact: false }).waitFor();
    // As many steps as the fields reach, each blank box showing what the page shows instead.
    expect(await steps().getByRole('group').count()).toBe(2);
    await steps().getByRole('group', { name: 'Step 2 (topic)' }).waitFor();
    expect(await title(1, 'English (en)').getAttribute('placeholder')).toBe('Step 1 of 2');
    expect(await title(2, 'German (de)').getAttribute('placeholder')).toBe('Schritt 2 von 2');

    await steps().getByRole('button', { name: 'Add a step' }).click();
    await title(3, 'English (en)').waitFor();
    await steps().getByRole('group', { name: 'Step 3 (no field on it)' }).waitFor();
    await steps().getByRole('button', { name: 'Remove the last step' }).click();
    expect(await steps().getByRole('group').count()).toBe(2);

    await title(1, 'English (en)').fill('About you');
    await title(1, 'German (de)').fill('Über Sie');
    await title(2, 'English (en)').fill('  Your request ');
    await steps().getByRole('button', { name: 'Save the steps' }).click();
    await said('Saved the steps');
    await expect
      .poll(async () => (await viewed()).page.steps)
      .toEqual([{ title: { en: 'About you', de: 'Über Sie' } }, { title: { en: 'Your request' } }]);
    // Read back: a blank German title shows the English one the page shows instead.
    expect(await title(2, 'English (en)').inputValue()).toBe('Your request');
    expect(await title(2, 'German (de)').getAttribute('placeholder')).toBe('Your request');
    // The frame runs no script: every step is shown, under its title.
    const frame = page.frameLocator('iframe.page-frame');
    await frame.getByRole('heading', { level: 2, name: 'About you' }).waitFor();
    await frame.getByRole('heading', { level: 2, name: 'Your request' }).waitFor();
    await steps().scrollIntoViewIfNeeded();
    await shot('page-steps');
  });

  it('the hosted page shows “Step 1 of 2” under the first title, in English and in German', async () => {
    await page.goto(`${worker}/f/${formId}`);
    // The page's script shows the step indicator once it has loaded.
    const of = page.locator('#forms-step-of');
    await of.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await of.textContent()).toBe('Step 1 of 2');
    await page.getByRole('heading', { level: 2, name: 'About you' }).waitFor();
    expect(await page.getByRole('heading', { level: 2, name: 'Your request' }).isVisible()).toBe(false);
    expect(await page.locator('#f-topic').isVisible()).toBe(false);
    await shot('steps-hosted-page');

    await page.goto(`${worker}/f/${formId}?lang=de`);
    await of.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await of.textContent()).toBe('Schritt 1 von 2');
    await page.getByRole('heading', { level: 2, name: 'Über Sie' }).waitFor();
  });
});
