// C45: the dashboard's side of a form with logic, in Chromium against `npm run dev`: the limits on
// the Behaviour screen (the most submissions, when the form opens and closes in the browser's own
// zone, sent as ISO times, and the closed text in each of the page's languages), a full form's
// hosted page showing that text instead of its form and its post refused 403 `form_closed`; the
// limits cleared again; and a project made on the Projects screen with a field that applies only
// when an earlier one says so. What every screen gets (axe-core, nothing from another origin, a
// screenshot) is in test/e2e/dashboard.ts.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, dashboardSite, formId, page, projectId, settings, shot, worker } from './dashboard.ts';
import { ARTIFACTS } from './harness.ts';

// A zone that is not UTC, so that a time typed is seen to be read in it: 18:30 on 1 June in Berlin
// (summer time, UTC+2) is 16:30 UTC.
const ZONE = 'Europe/Berlin';
dashboardSite('dashboard-limits', { signedIn: true, timezoneId: ZONE });
const YEAR = new Date().getFullYear() + 1;

const CLOSED = 'Thank you: every place is taken. The next course opens in spring.';
const limitsRegion = () => page.getByRole('region', { name: 'Limits' });
const limitsOf = async () => {
  const { data } = await api('GET', `/projects/${projectId}`);
  return (data.project as { limits: Record<string, unknown> }).limits;
};
/** A post of the Clinic's form as its hosted page sends it (the Clinic already holds five). */
const postForm = () => {
  const form = new FormData();
  form.append('name', 'Hedy Lamarr');
  form.append('email', 'hedy@example.com');
  return fetch(`${worker}/f/${formId}`, {
    method: 'POST',
    body: form,
    headers: { Accept: 'application/json' },
  });
};
/** A toast of the dashboard, by its words. */
const said = (text: string) => page.locator('.notes').getByText(text, { exact: false }).waitFor();

describe('C45: the limits on the Behaviour screen', () => {
  it('sets the most, a closing time and a closed text; a full form’s page shows it, and its post is refused', async () => {
    await api('PATCH', `/projects/${projectId}`, { page: { enabled: true, languages: ['en', 'de'] } });
    await settings('Behaviour');
    const limits = limitsRegion();
    await limits.waitFor();
    // The times are read in the browser's zone, which the labels name.
    const closes = limits.getByLabel(`Closes at (${ZONE} time; empty: never)`);
    const local = `${YEAR}-06-01T18:30`;
    // Nothing set: no limit, and nothing to remove.
    expect(await limits.getByRole('button', { name: 'Remove the limits' }).count()).toBe(0);

    await limits.getByLabel('Most submissions (empty: no limit)').fill('1');
    await closes.fill(local);
    // A text area for each of the page's languages, named by the language.
    await limits.getByLabel('English (en)').fill(CLOSED);
    expect(await limits.getByLabel('German (de)').inputValue()).toBe('');
    await limits.getByRole('button', { name: 'Save the limits' }).click();
    await said('Saved the limits');
    await expect.poll(limitsOf).toEqual({
      maxSubmissions: 1,
      opensAt: null,
      closesAt: `${YEAR}-06-01T16:30:00.000Z`,
      closedText: { en: CLOSED },
    });
    // Shown back from the project as read again, in the same local time.
    await limits.getByRole('button', { name: 'Remove the limits' }).waitFor();
    expect(await closes.inputValue()).toBe(local);
    expect(await limits.getByLabel('Most submissions (empty: no limit)').inputValue()).toBe('1');
    await shot('settings-limits');

    // The Clinic holds five: its page says the owner's words instead of its form, with no script.
    const browser = page.context().browser();
    if (browser === null) throw new Error('no browser');
    const hosted = await browser.newPage({ viewport: { width: 1280, height: 700 } });
    try {
      await hosted.goto(`${worker}/f/${formId}`);
      expect(await hosted.getByRole('status').textContent()).toBe(CLOSED);
      expect(await hosted.locator('form').count()).toBe(0);
      expect(await hosted.locator('script').count()).toBe(0);
      await hosted.screenshot({ path: join(ARTIFACTS, 'dashboard-limits-closed-page.png'), fullPage: true });
    } finally {
      await hosted.close();
    }
    const refused = await postForm();
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { data: { error: { code: string; params: unknown } } };
    expect(body.data.error).toMatchObject({ code: 'form_closed', params: { reason: 'full' } });
  });

  it('says the server’s refusal: a form that would close before it opens', async () => {
    const limits = limitsRegion();
    await limits.getByLabel(`Opens at (${ZONE} time; empty: open now)`).fill(`${YEAR + 1}-01-01T09:00`);
    await limits.getByRole('button', { name: 'Save the limits' }).click();
    await said('The form would close');
    expect((await limitsOf()).opensAt).toBeNull();
  });

  it('clears them again: empty inputs are no limits, and the form takes posts', async () => {
    const limits = limitsRegion();
    await limits.getByLabel('Most submissions (empty: no limit)').fill('');
    await limits.getByLabel(`Opens at (${ZONE} time; empty: open now)`).fill('');
    await limits.getByLabel(`Closes at (${ZONE} time; empty: never)`).fill('');
    await limits.getByLabel('English (en)').fill('');
    await limits.getByRole('button', { name: 'Save the limits' }).click();
    await expect
      .poll(limitsOf)
      .toEqual({ maxSubmissions: null, opensAt: null, closesAt: null, closedText: {} });
    await limits.getByRole('button', { name: 'Remove the limits' }).waitFor({ state: 'detached' });
    expect((await postForm()).status).toBe(201);
    const again = await fetch(`${worker}/f/${formId}`);
    expect(await again.text()).toContain('<form');

    // "Remove the limits" clears every member at once.
    await api('PATCH', `/projects/${projectId}`, {
      limits: { maxSubmissions: 50, closedText: { de: 'Voll.' } },
    });
    await page.reload();
    await limitsRegion().getByRole('button', { name: 'Remove the limits' }).click();
    await said('The form has no limits');
    await expect
      .poll(limitsOf)
      .toEqual({ maxSubmissions: null, opensAt: null, closesAt: null, closedText: {} });
  });
});

describe('C45: “Show only when…” for a project being made', () => {
  it('sends a later field’s condition as its `when`; one naming a field renamed since is refused beside it', async () => {
    await page.goto(`${worker}/admin/#/`);
    const form = page.getByRole('form', { name: 'New project' });
    await form.getByLabel('Name').first().fill('Courses');
    const editors = form.locator('.field-editor');
    // The first field has none before it.
    expect(await editors.first().getByRole('group', { name: 'Show only when…' }).count()).toBe(0);
    await form.getByRole('button', { name: 'Add a field' }).click();
    const business = editors.nth(1);
    await business.getByLabel('Name').fill('business');
    await business.getByLabel('Type').selectOption('boolean');
    await form.getByRole('button', { name: 'Add a field' }).click();
    const company = editors.nth(2);
    await company.getByLabel('Name').fill('company');
    const when = company.getByRole('group', { name: 'Show only when…' });
    // Only the fields before it.
    expect(await when.getByLabel('Field').locator('option').allTextContents()).toEqual([
      'always shown',
      'email',
      'business',
    ]);
    await when.getByLabel('Field').selectOption('business');
    expect(await when.getByLabel('Test').inputValue()).toBe('equals');
    await when.getByLabel('Value').selectOption('true');
    await shot('new-project-when');

    // Renamed since: the condition still names `business`, and the server's refusal is shown beside it.
    await business.getByLabel('Name').fill('firm');
    expect(await when.getByLabel('Field').inputValue()).toBe('business');
    await form.getByRole('button', { name: 'Create the project' }).click();
    await company.locator('.error').waitFor();
    expect(await company.locator('.error').textContent()).toContain(
      "The condition of field 'company' names 'business'",
    );
    await business.getByLabel('Name').fill('business');
    await form.getByRole('button', { name: 'Create the project' }).click();
    await page.getByText("The project's publishable key").waitFor();

    const { data } = await api('GET', '/projects');
    const made = (data.projects as { id: string; name: string }[]).find((p) => p.name === 'Courses');
    const view = await api('GET', `/projects/${made?.id}`);
    const fields = (view.data.project as { fields: { name: string; when?: unknown }[] }).fields;
    expect(fields.map((f) => [f.name, f.when])).toEqual([
      ['email', undefined],
      ['business', undefined],
      ['company', { field: 'business', equals: true }],
    ]);
  });
});
