// C33: the dashboard an owner lives in, in Chromium against `npm run dev`: the first run (nothing
// fetched that is bound to fail before signing in; the operator's one project opens on its inbox);
// Stats of a project active on two days, and of one with nothing; toasts that never pile up; and
// each of Settings' screens at its own address: linked to directly, no taller than three screens,
// axe-clean, usable 375 px wide, and what it saves still there after a reload.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, dashboardSite, nav, page, projectId, shot, siteDir, token, worker } from './dashboard.ts';
import { withDatabase } from './harness.ts';

dashboardSite('dashboard-jobs');

/** What a page fetched that failed, and what it logged as an error. */
function failures(on: Page): string[] {
  const failed: string[] = [];
  on.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  on.on('requestfailed', (r) => failed.push(`failed ${r.url()}`));
  on.on('console', (m) => {
    if (m.type() === 'error') failed.push(m.text());
  });
  return failed;
}

/** Elements of the screen reaching past its right edge (a scrolling table's own cells aside). */
const overflow = () =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')]
      .filter(
        (el) =>
          el.closest('.table-scroll, .tabs li') === null && el.getBoundingClientRect().right > width + 1,
      )
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`)
      .slice(0, 8);
  });

const screen = (job: string) => `${worker}/admin/#/p/${encodeURIComponent(projectId)}/settings/${job}`;

/**
 * One settings screen, opened by its address in a page loaded anew: its heading, its place in the
 * navigation, its height at 1280 × 800 (three screens at most), axe at both widths, nothing past
 * the right edge at 375 px; screenshots of both.
 */
async function looked(job: string, label: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(screen(job));
  await page.reload();
  await page.getByRole('heading', { level: 1, name: new RegExp(`^${label}`) }).waitFor();
  const current = page.getByRole('navigation', { name: 'Settings' }).locator('[aria-current="page"]');
  expect(await current.textContent()).toBe(label);
  expect(await page.title()).toBe(`${label} · Settings · edge-forms`);
  await page.locator('.loading').waitFor({ state: 'detached' });
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(3 * 800);
  await shot(`settings-${job}`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(overflow, { timeout: 5000 }).toEqual([]);
  // The navigation is one row of tabs that scrolls sideways, under the brand: never a block of rows.
  expect(await page.locator('header').evaluate((h) => h.getBoundingClientRect().height)).toBeLessThan(120);
  await shot(`settings-${job}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('C33: the first run', () => {
  it('makes no request bound to fail before sign-in, and lands in the one project’s inbox', async () => {
    const failed = failures(page);
    await page.goto(`${worker}/admin/`);
    await page.getByLabel('Operator token or secret key').waitFor();
    await page.waitForLoadState('networkidle');
    expect(failed).toEqual([]);
    await shot('signin-first');
    // `npm run dev`'s example aside, the operator has one project: signing in opens its inbox.
    expect(
      (
        await fetch(`${worker}/api/v1/projects/example`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(200);
    await page.getByLabel('Operator token or secret key').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${worker}/admin/#/p/${encodeURIComponent(projectId)}/inbox`);
    await page.getByRole('heading', { level: 1, name: /Inbox/ }).waitFor();
    expect(await nav('Inbox').getAttribute('aria-current')).toBe('page');
    expect(failed).toEqual([]);
  });
});

describe('C33: Stats', () => {
  it('lists the days with activity, keeps the period in the chart; a project with none says so in a line', async () => {
    // Two of the five submissions as if received three days ago: two active days in the period.
    const earlier = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await withDatabase(siteDir, async (db) => {
      const { results } = await db.$client
        .prepare('select id from submissions where project_id = ? order by id limit 2')
        .bind(projectId)
        .all<{ id: string }>();
      for (const { id } of results)
        await db.$client
          .prepare('update submissions set received_at = ? where id = ?')
          .bind(earlier, id)
          .run();
    });
    await nav('Stats').click();
    const table = page.getByRole('table');
    await table.getByText(earlier.slice(0, 10)).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(2);
    expect(await table.locator('caption').textContent()).toBe(
      'Days with activity (UTC): 2 of 30; the others had none',
    );
    // The chart keeps every day of the period: its x axis spans 30 days.
    expect(await page.locator('.chart').count()).toBe(1);
    await shot('stats-two-days');
    const empty = await api('POST', '/projects', {
      name: 'Quiet',
      fields: [{ name: 'name', type: 'string' }],
    });
    await page.goto(`${worker}/admin/#/p/${String(empty.data.projectId)}/stats`);
    await page.getByText('Nothing in the last 30 days: no view, no submission, no delivery.').waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Funnel' }).count()).toBe(0);
    await shot('stats-nothing');
  });
});

describe('C33: toasts', () => {
  it('at most three on screen, a repeat counted on its toast, the rest in turn, each announced once', async () => {
    await page.goto(screen('access'));
    // Every toast the live region ever got, counted as it was added.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver((changes) => {
        for (const c of changes)
          for (const n of c.addedNodes)
            if (n instanceof HTMLElement && n.classList.contains('note'))
              seen.push(n.querySelector('span')?.textContent ?? '');
      }).observe(document.querySelector('.notes') as Element, { childList: true });
    });
    const origin = page.getByLabel('Origin', { exact: true });
    for (const bad of ['one', 'two', 'two', 'three', 'four', 'five']) {
      const answered = page.waitForResponse((r) => r.url().endsWith('/origins'));
      await origin.fill(bad);
      await origin.press('Enter');
      await answered;
    }
    const shown = () => page.locator('.notes .note > span:first-child').allTextContents();
    await expect
      .poll(async () => (await shown()).map((t) => /'(\w+)'/.exec(t)?.[1]))
      .toEqual(['one', 'two', 'three']);
    // The repeat is counted on the toast already there, not read out again.
    expect(
      await page.locator('.note', { hasText: "Invalid origin 'two'" }).locator('.count').textContent(),
    ).toBe(' ×2');
    await shot('toasts');
    // Each leaves after its time (an error's, 10 s) and the next in line takes its place.
    await page.getByText("Invalid origin 'five'").waitFor({ timeout: 15_000 });
    expect((await shown()).length).toBeLessThanOrEqual(3);
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.map((t) => /'(\w+)'/.exec(t)?.[1])).toEqual(['one', 'two', 'three', 'four', 'five']);
  });
});

describe('C33: Settings, one screen per job', () => {
  it('the old address opens the first, Fields; a field added is there after a reload', async () => {
    await page.goto(`${worker}/admin/#/p/${encodeURIComponent(projectId)}/settings`);
    await page.getByRole('heading', { level: 1, name: /^Fields/ }).waitFor();
    await page.getByRole('button', { name: 'Add a field' }).click();
    const editor = page.locator('.field-editor').last();
    await editor.getByLabel('Name').fill('age');
    await editor.getByLabel('Type').selectOption('integer');
    await page.getByRole('button', { name: 'Add the field' }).click();
    await page.locator('.note').getByText('Added age').waitFor();
    await looked('fields', 'Fields');
    await page.getByRole('region', { name: 'Fields' }).locator('strong', { hasText: /^age$/ }).waitFor();
  });

  it('Access: an origin typed survives a key made meanwhile; both are there after a reload', async () => {
    await page.goto(screen('access'));
    const origin = page.getByLabel('Origin', { exact: true });
    await origin.fill('https://clinic.example');
    await page.getByRole('button', { name: 'Create a key' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await origin.inputValue()).toBe('https://clinic.example');
    await origin.press('Enter');
    await page.getByRole('button', { name: 'Remove https://clinic.example' }).waitFor();
    await looked('access', 'Access');
    await page.getByRole('button', { name: 'Remove https://clinic.example' }).waitFor();
    expect(await page.getByRole('region', { name: 'Keys' }).locator('tbody tr').count()).toBe(2);
  });

  it('Delivery: an email recipient added is there after a reload; C47: who sends is said', async () => {
    await page.goto(screen('delivery'));
    const emails = page.getByRole('region', { name: 'Email recipients' });
    await emails.getByText("Mail is sent through Cloudflare's send_email, from forms@example.com.").waitFor();
    await emails.getByLabel('Address').fill('owner@example.com');
    await emails.getByRole('button', { name: 'Add', exact: true }).click();
    await emails.getByRole('button', { name: 'Remove owner@example.com' }).waitFor();
    await looked('delivery', 'Delivery');
    await page.getByRole('button', { name: 'Remove owner@example.com' }).waitFor();
  });

  it('Spam: a mode saved is there after a reload', async () => {
    await page.goto(screen('spam'));
    const filter = page.getByRole('region', { name: 'Spam filter' });
    await filter.getByRole('radio', { name: /^Mark:/ }).check();
    await filter.getByRole('button', { name: 'Save the spam filter' }).click();
    await page.locator('.note').getByText('Saved', { exact: true }).first().waitFor();
    await looked('spam', 'Spam');
    expect(await page.getByRole('radio', { name: /^Mark:/ }).isChecked()).toBe(true);
  });

  it('Behaviour: a honeypot and a retention saved are there after a reload', async () => {
    await page.goto(screen('behaviour'));
    const form = page.getByRole('region', { name: 'Behaviour' });
    await form.getByLabel('Honeypot field').fill('website');
    await form.getByLabel(/^Keep submissions for/).fill('90');
    await form.getByRole('button', { name: /^Save/ }).click();
    await page.locator('.note').getByText('Saved', { exact: true }).first().waitFor();
    await looked('behaviour', 'Behaviour');
    expect(await page.getByLabel('Honeypot field').inputValue()).toBe('website');
    expect(await page.getByLabel(/^Keep submissions for/).inputValue()).toBe('90');
  });

  it('Place and deletion: moved to the other place, it lives there after a reload', async () => {
    await page.goto(screen('place'));
    const place = page.getByRole('region', { name: 'Where its data lives' });
    await place.getByText('live in the place default').waitFor();
    await place.getByLabel('Move it to').selectOption('eu');
    await place.getByRole('button', { name: 'Move' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Move to eu' }).click();
    await page.locator('.note').getByText("Moved to 'eu'").waitFor({ timeout: 30_000 });
    await looked('place', 'Place and deletion');
    await page.getByText('live in the place eu').waitFor();
    await page.getByRole('button', { name: 'Delete Clinic' }).waitFor();
  });
});
