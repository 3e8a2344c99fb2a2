import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devVar } from '../../toolkit/dev-vars.ts';
import { tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, accessible, type Site, startSite, storedRows } from './harness.ts';

const FIELDS = [
  // A pattern is the worker's to judge, when the whole form is sent (RE2, C28).
  {
    name: 'name',
    type: 'string',
    required: true,
    rules: { pattern: '^[A-Za-z ]+$' },
    label: { en: 'Your name', de: 'Ihr Name' },
  },
  {
    name: 'email',
    type: 'string',
    required: true,
    rules: { format: 'email' },
    label: { en: 'Your email', de: 'Ihre E-Mail-Adresse' },
  },
  { name: 'topic', type: 'string', required: true, step: 2, label: { en: 'Topic', de: 'Thema' } },
  { name: 'urgent', type: 'boolean', step: 2, label: { en: 'Urgent', de: 'Dringend' } },
  {
    name: 'phone',
    type: 'string',
    required: true,
    step: 2,
    label: { en: 'Phone', de: 'Telefon' },
    when: { field: 'urgent', equals: true },
  },
];
const STEPS = [{ title: { en: 'About you', de: 'Über Sie' } }, { title: { en: 'Your request' } }];

const dir = tempDir('steps');
let site: Site | undefined;
let browser: Browser | undefined;
let workerUrl = '';
let made = { projectId: '', formId: '' };

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${workerUrl}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${devVar('ADMIN_TOKEN') ?? ''}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

async function open(path: string, options: { javaScriptEnabled?: boolean; width?: number } = {}) {
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width: options.width ?? 1280, height: 800 },
  });
  const page = await context.newPage();
  await page.goto(`${workerUrl}${path}`);
  if (options.javaScriptEnabled !== false) {
    await page.locator('[data-step-nav]:not([hidden])').waitFor({ timeout: 10_000 });
  }
  return page;
}

/** What the visitor sees: the shown steps' headings, the indicator, which buttons show, where focus is. */
const seen = (page: Page) =>
  page.evaluate(() => {
    const visible = (e: Element | null) => e instanceof HTMLElement && e.checkVisibility();
    return {
      steps: Array.from(document.querySelectorAll('fieldset[data-step]'))
        .filter(visible)
        .map((f) => f.querySelector('h2')?.textContent),
      indicator: visible(document.querySelector('#forms-step-of'))
        ? document.querySelector('#forms-step-of')?.textContent
        : null,
      progress: (document.querySelector('progress') as HTMLProgressElement | null)?.value,
      back: visible(document.querySelector('[data-step-back]')),
      next: visible(document.querySelector('[data-step-next]')),
      send: visible(document.querySelector('button[type=submit]')),
      focus: document.activeElement?.textContent?.trim() || document.activeElement?.getAttribute('name'),
    };
  });

const stored = () => storedRows(dir, made.projectId).then((rows) => rows.map((r) => r.data));

beforeAll(async () => {
  site = await startSite(dir, { path: '/unused.html', render: () => '' });
  ({ browser, workerUrl } = site);
  made = (await call('POST', '/projects', { name: 'Requests', fields: FIELDS })) as typeof made;
  await call('PATCH', `/projects/${made.projectId}`, {
    page: { enabled: true, languages: ['en', 'de'], title: { en: 'Requests' }, steps: STEPS },
  });
});

afterAll(async () => {
  await site?.stop();
});

describe('C46: a hosted page in steps, in Chromium', () => {
  it('shows one step at a time; Next is refused beside each empty required field; Back keeps every value; sent once', async () => {
    const page = await open(`/f/${made.formId}`);
    expect(await seen(page)).toMatchObject({
      steps: ['About you'],
      indicator: 'Step 1 of 2',
      progress: 1,
      back: false,
      next: true,
      send: false,
    });
    expect(await accessible(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'steps-first.png'), fullPage: true });

    await page.click('[data-step-next]');
    await page.locator('[data-forms-error="email"]').waitFor();
    expect(await page.textContent('[data-forms-error="name"]')).toBe('“Your name” is required.');
    expect(await page.textContent('[data-forms-error="email"]')).toBe('“Your email” is required.');
    // Still the first step, the first field refused focused.
    expect(await seen(page)).toMatchObject({ steps: ['About you'], focus: 'name' });
    expect(await accessible(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'steps-refused.png'), fullPage: true });

    await page.fill('#f-name', 'Ada');
    await page.fill('#f-email', 'not an address');
    await page.click('[data-step-next]');
    await page.locator('[data-forms-error="email"]').waitFor();
    expect(await page.locator('[data-forms-error="name"]').count()).toBe(0);
    await page.fill('#f-email', 'ada@example.com');
    await page.click('[data-step-next]');
    expect(await seen(page)).toMatchObject({
      steps: ['Your request'],
      indicator: 'Step 2 of 2',
      progress: 2,
      back: true,
      next: false,
      send: true,
      focus: 'Your request',
    });
    // A condition on the step: the phone applies only when urgent.
    await page.click('button[type=submit]');
    await page.locator('[data-forms-error="topic"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-forms-error="phone"]').count()).toBe(0);
    await page.click('[data-step-back]');
    expect(await seen(page)).toMatchObject({ steps: ['About you'], focus: 'About you' });
    expect(await page.inputValue('#f-name')).toBe('Ada');
    expect(await page.inputValue('#f-email')).toBe('ada@example.com');
    await page.click('[data-step-next]');
    await page.fill('#f-topic', 'Billing');
    await page.check('#f-urgent');
    await page.click('button[type=submit]');
    await page.locator('[data-forms-error="phone"]').waitFor({ timeout: 15_000 });
    await page.fill('#f-phone', '+44 20 7946 0000');
    await page.click('button[type=submit]');
    await page.locator('[data-forms-status][data-state="success"]').waitFor({ timeout: 15_000 });
    expect(await stored()).toEqual([
      { name: 'Ada', email: 'ada@example.com', topic: 'Billing', urgent: true, phone: '+44 20 7946 0000' },
    ]);
    // Sent: the form begins again at its first step.
    expect(await seen(page)).toMatchObject({ steps: ['About you'], indicator: 'Step 1 of 2' });
    await page.context().close();
  });

  it('by keyboard alone: Enter before the last step is Next, never a send; in German, its own words', async () => {
    const page = await open(`/f/${made.formId}?lang=de`);
    expect(await seen(page)).toMatchObject({ steps: ['Über Sie'], indicator: 'Schritt 1 von 2' });
    await page.focus('#f-name');
    await page.keyboard.press('Enter');
    await page.locator('[data-forms-error="name"]').waitFor();
    expect(await page.textContent('[data-forms-error="name"]')).toContain('Ihr Name');
    await page.keyboard.type('Grace');
    await page.keyboard.press('Tab');
    await page.keyboard.type('grace@example.com');
    await page.keyboard.press('Enter');
    // The second step's title has no German: the page's first language's.
    expect(await seen(page)).toMatchObject({ steps: ['Your request'], focus: 'Your request' });
    expect(await stored()).toHaveLength(1);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Support');
    await page.keyboard.press('Enter');
    await page.locator('[data-forms-status][data-state="success"]').waitFor({ timeout: 15_000 });
    expect((await stored()).at(-1)).toEqual({
      name: 'Grace',
      email: 'grace@example.com',
      topic: 'Support',
      urgent: false,
    });
    await page.context().close();
  });

  it('a field the worker refuses when the whole form is sent is shown on its step', async () => {
    const page = await open(`/f/${made.formId}`);
    await page.fill('#f-name', 'Ada 2');
    await page.fill('#f-email', 'ada2@example.com');
    // The step's own checks pass: its pattern is the worker's.
    await page.click('[data-step-next]');
    expect(await seen(page)).toMatchObject({ steps: ['Your request'] });
    await page.fill('#f-topic', 'Again');
    await page.click('button[type=submit]');
    await page.locator('[data-forms-error="name"]').waitFor({ timeout: 15_000 });
    expect(await seen(page)).toMatchObject({ steps: ['About you'], indicator: 'Step 1 of 2' });
    expect(await page.isVisible('[data-forms-error="name"]')).toBe(true);
    expect(await stored()).toHaveLength(2);
    await page.context().close();
  });

  it('is axe-clean at 320 px on each step, nothing wider than the screen', async () => {
    const page = await open(`/f/${made.formId}`, { width: 320 });
    const wide = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await accessible(page)).toEqual([]);
    expect(await wide()).toBeLessThanOrEqual(320);
    await page.fill('#f-name', 'Lin');
    await page.fill('#f-email', 'lin@example.com');
    await page.click('[data-step-next]');
    expect(await accessible(page)).toEqual([]);
    expect(await wide()).toBeLessThanOrEqual(320);
    await page.screenshot({ path: join(ARTIFACTS, 'steps-320.png'), fullPage: true });
    await page.context().close();
  });

  it('with scripts off: every step a fieldset of one page, which posts as any', async () => {
    const page = await open(`/f/${made.formId}`, { javaScriptEnabled: false });
    expect(await page.locator('fieldset[data-step]').count()).toBe(2);
    for (const title of ['About you', 'Your request']) {
      expect(await page.isVisible(`fieldset h2:text-is("${title}")`), title).toBe(true);
    }
    expect(await page.isVisible('[data-step-nav]')).toBe(false);
    expect(await page.isVisible('progress')).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, 'steps-no-script.png'), fullPage: true });
    await page.fill('#f-name', 'Noscript');
    await page.fill('#f-email', 'noscript@example.com');
    await page.fill('#f-topic', 'Plain');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect((await stored()).at(-1)).toEqual({
      name: 'Noscript',
      email: 'noscript@example.com',
      topic: 'Plain',
      urgent: false,
    });
    await page.context().close();
  });
});
