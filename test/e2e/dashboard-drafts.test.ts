// C46: the dashboard's side of partial submissions, in Chromium against `npm run dev`: Drafts on the
// Behaviour screen (turned on with its days, sent as the project's `partials`; a note while the
// page keeps nothing yet), and the inbox's Drafts, offered once the project keeps drafts: a draft
// saved as a page in steps saves it, with its values, the step it reached, when it was last saved
// and when it will be erased, and none of a submission's actions. What every screen gets (axe-core
// at 1280 px, nothing from another origin, a screenshot) is in test/e2e/dashboard.ts.
import { describe, expect, it } from 'vitest';
import {
  api,
  dashboardSite,
  formId,
  nav,
  page,
  projectId,
  rows,
  settings,
  shot,
  worker,
} from './dashboard.ts';

dashboardSite('dashboard-drafts', { signedIn: true });

const drafts = () => page.getByRole('region', { name: 'Drafts (partial submissions)' });
const partialsOf = async () => {
  const { data } = await api('GET', `/projects/${projectId}`);
  return (data.project as { partials: { enabled: boolean; keepDays: number } }).partials;
};
/** A toast of the dashboard, by its words. */
const said = (text: string) => page.locator('.notes').getByText(text, { exact: false }).waitFor();
const switchTo = (view: 'Submissions' | 'Drafts') => page.getByRole('button', { name: view, exact: true });

/** What a page in steps sends after its second step (text/plain: no preflight), as steps.js does. */
const saveDraft = (token: string, values: Record<string, string>) =>
  fetch(`${worker}/api/v1/drafts`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body: JSON.stringify({ form: formId, token, step: 2, values }),
  });
type Listed = { fields: Record<string, unknown>; receivedAt: string; expiresAt: string; step: number };
const listedDrafts = async () =>
  (await api('GET', `/projects/${projectId}/submissions?partial=only`)).data.submissions as Listed[];

describe('C46: Drafts on the Behaviour screen', () => {
  it('the inbox offers no Drafts while the project keeps none', async () => {
    await rows().first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await switchTo('Drafts').count()).toBe(0);
  });

  it('turns drafts on for 7 days; the API’s view says so; a note while every field is on one step', async () => {
    await api('PATCH', `/projects/${projectId}`, { page: { enabled: true } });
    await settings('Behaviour');
    const region = drafts();
    await region.waitFor();
    await region.getByText('whose fields are on more than one step', { exact: false }).waitFor();
    await region.getByText('before it keeps anything', { exact: false }).waitFor();
    const keep = region.getByLabel(
      'Keep what a visitor typed on a page in steps as a draft, to continue later',
    );
    const days = region.getByLabel('Days a draft is kept');
    expect(await keep.isChecked()).toBe(false);
    expect(await days.isDisabled()).toBe(true);
    await keep.check();
    await days.fill('7');
    await region.getByRole('button', { name: 'Save', exact: true }).click();
    await said('Drafts are kept');
    await expect.poll(partialsOf).toEqual({ enabled: true, keepDays: 7 });
    // Read again: made anew from the project, checked with its days; the page keeps nothing yet.
    await region.getByText('Every field is on the first step', { exact: false }).waitFor();
    expect(await region.getByLabel('Days a draft is kept').inputValue()).toBe('7');

    // A field on step 2: the page is in steps, and the note goes.
    await api('PUT', `/projects/${projectId}/fields/topic`, { type: 'string', step: 2 });
    await page.reload();
    await drafts().getByLabel('Days a draft is kept').waitFor();
    expect(await drafts().locator('.warning').count()).toBe(0);
    expect(await drafts().getByLabel('Days a draft is kept').inputValue()).toBe('7');
    await drafts().scrollIntoViewIfNeeded();
    await shot('settings-drafts');
  });
});

describe('C46: the inbox’s Drafts', () => {
  it('lists a draft a page saved: its values, “step 2 reached”, when it was saved and when it is erased', async () => {
    const values = { name: 'Ada Lovelace', email: 'ada@example.com', topic: 'Analytical engines' };
    // The worker keeps a form's configuration for some seconds (C17, CONFIG_CACHE_SECONDS): until
    // it sees drafts on (404 till then) and the field on step 2, the page's save is made again.
    await expect
      .poll(
        async () => {
          await saveDraft('dashboardDraftToken_0001', values);
          return (await listedDrafts())[0]?.fields;
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toEqual(values);
    const [listed] = await listedDrafts();
    expect(listed?.step).toBe(2);
    // Kept its 7 days from its last save.
    expect(Date.parse(listed?.expiresAt ?? '') - Date.parse(listed?.receivedAt ?? '')).toBe(7 * 86_400_000);

    await nav('Inbox').click();
    await rows().first().waitFor();
    // Offered as the project keeps drafts; the submissions shown first, never the draft among them.
    await switchTo('Drafts').waitFor();
    expect(await switchTo('Submissions').getAttribute('aria-pressed')).toBe('true');
    expect(await rows().count()).toBe(5);
    expect(await rows().filter({ hasText: 'ada@example.com' }).count()).toBe(0);
    await switchTo('Drafts').click();

    const region = page.getByRole('region', { name: 'Drafts', exact: true });
    const draft = region.locator('.drafts > li');
    await draft.first().waitFor();
    expect(await draft.count()).toBe(1);
    // The focus stays on the switch, now on the Drafts.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Drafts');
    expect(await switchTo('Drafts').getAttribute('aria-pressed')).toBe('true');
    await draft.getByText('Step 2 reached').waitFor();
    expect(await draft.locator('dt').allTextContents()).toEqual(['name', 'email', 'topic']);
    expect(await draft.locator('dd').allTextContents()).toEqual([
      'Ada Lovelace',
      'ada@example.com',
      'Analytical engines',
    ]);
    // Its times, in the viewer's zone, from the API's.
    const times = draft.locator('time');
    expect(await times.nth(0).getAttribute('datetime')).toBe(listed?.receivedAt);
    expect(await times.nth(1).getAttribute('datetime')).toBe(listed?.expiresAt);
    expect(await draft.textContent()).toMatch(/Last saved .+ · erased .+/);
    // No submission's actions: no search, filters, export, selection, star or spam.
    for (const control of ['checkbox', 'searchbox'] as const)
      expect(await region.getByRole(control).count()).toBe(0);
    for (const name of ['Star', 'Spam', 'Delete', 'Mark read'])
      expect(await region.getByRole('button', { name, exact: true }).count()).toBe(0);
    expect(await region.getByRole('link', { name: 'CSV' }).count()).toBe(0);
    await shot('inbox-drafts');

    // The inbox's keys act on submissions: none of them here (`#` asks no confirmation).
    await page.keyboard.press('#');
    expect(await page.locator('dialog[open]').count()).toBe(0);
  });

  it('back to the submissions; turned off, the Drafts stay offered while a draft is left', async () => {
    await switchTo('Submissions').click();
    await rows().first().waitFor();
    expect(await rows().count()).toBe(5);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Submissions');
    await shot('inbox-views');

    await settings('Behaviour');
    await drafts()
      .getByLabel('Keep what a visitor typed on a page in steps as a draft, to continue later')
      .uncheck();
    await drafts().getByRole('button', { name: 'Save', exact: true }).click();
    await said('Drafts are off');
    await expect.poll(async () => (await partialsOf()).enabled).toBe(false);
    await nav('Inbox').click();
    await switchTo('Drafts').click();
    await page.getByRole('region', { name: 'Drafts', exact: true }).getByText('Step 2 reached').waitFor();
  });
});
