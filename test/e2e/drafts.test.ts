import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devVar } from '../../toolkit/dev-vars.ts';
import { receiverOnLoopback, tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, accessible, type Site, startSite } from './harness.ts';

const FIELDS = [
  { name: 'name', type: 'string', required: true, label: { en: 'Your name' } },
  { name: 'email', type: 'string', required: true, rules: { format: 'email' }, label: { en: 'Your email' } },
  { name: 'cv', type: 'file', label: { en: 'Your CV' } },
  { name: 'motivation', type: 'string', required: true, step: 2, label: { en: 'Why us?' } },
];

const hook = receiverOnLoopback();
const dir = tempDir('drafts');
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

type Listed = { fields: Record<string, unknown>; partial?: boolean; step?: number };
const listed = async (query = '') =>
  ((await call('GET', `/projects/${made.projectId}/submissions${query}`)) as { submissions: Listed[] })
    .submissions;
const delivered = () => hook.received.filter((r) => r.path === '/hook').map((r) => JSON.parse(r.body));

async function open(url: string, options: { javaScriptEnabled?: boolean; width?: number } = {}) {
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width: options.width ?? 1280, height: 800 },
  });
  const page = await context.newPage();
  await page.goto(url);
  if (options.javaScriptEnabled !== false) await page.locator('[data-step-nav]:not([hidden])').waitFor();
  return page;
}

const headingShown = (page: Page) =>
  page.evaluate(
    () =>
      Array.from(document.querySelectorAll('fieldset[data-step]'))
        .filter((f) => (f as HTMLElement).checkVisibility())
        .map((f) => f.querySelector('h2')?.textContent)[0],
  );

beforeAll(async () => {
  site = await startSite(dir, { path: '/unused.html', render: () => '' });
  ({ browser, workerUrl } = site);
  made = (await call('POST', '/projects', { name: 'Applications', fields: FIELDS })) as typeof made;
  await call('PATCH', `/projects/${made.projectId}`, {
    page: { enabled: true, steps: [{ title: { en: 'About you' } }, { title: { en: 'Your reasons' } }] },
    partials: { enabled: true, keepDays: 7 },
    // Judged by no filter: the webhook is told of every submission, whatever its words.
    spamFilter: { mode: 'off' },
  });
  await call('POST', `/projects/${made.projectId}/webhooks`, { url: hook.url });
});

afterAll(async () => {
  await site?.stop();
});

describe('C46: partial submissions, in Chromium', () => {
  let link = '';

  it('says it keeps a draft first; after step one the draft is listed with its step, never as a submission or to the webhook', async () => {
    const page = await open(`${workerUrl}/f/${made.formId}`);
    expect(await page.textContent('[data-drafts]')).toBe(
      'What you type here is kept as a draft for 7 days, so that you can continue later.',
    );
    expect(await page.isVisible('[data-drafts]')).toBe(true);
    expect(await page.isVisible('[data-resume]')).toBe(false);
    expect(await listed('?partial=only')).toEqual([]);
    await page.fill('#f-name', 'Ada');
    await page.fill('#f-email', 'ada@example.com');
    await page.setInputFiles('#f-cv', {
      name: 'cv.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4'),
    });
    await page.click('[data-step-next]');
    await page.locator('[data-resume]:not([hidden])').waitFor();
    expect(await headingShown(page)).toBe('Your reasons');
    link = (await page.getAttribute('[data-resume] a', 'href')) ?? '';
    // The token is in the page's address, and only there: at least 128 bits.
    expect(link).toMatch(new RegExp(`^${workerUrl}/f/${made.formId}\\?resume=[A-Za-z0-9_-]{22}$`));
    expect(page.url()).toBe(link);
    expect(await page.context().cookies()).toEqual([]);
    expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
    // The file is not kept.
    expect(await listed('?partial=only')).toMatchObject([
      { fields: { name: 'Ada', email: 'ada@example.com' }, partial: true, step: 2 },
    ]);
    expect(Object.keys((await listed('?partial=only'))[0]?.fields ?? {})).toEqual(['name', 'email']);
    expect(await listed()).toEqual([]);
    expect(await accessible(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'drafts-saved.png'), fullPage: true });
    // Back and on again: one draft, saved again.
    await page.click('[data-step-back]');
    await page.fill('#f-name', 'Ada Lovelace');
    await page.click('[data-step-next]');
    await page.locator('#f-motivation').waitFor({ state: 'visible' });
    expect((await listed('?partial=only')).map((d) => d.fields.name)).toEqual(['Ada Lovelace']);
    expect(delivered()).toEqual([]);
    await page.context().close();
  });

  it('its link opens it in another browser, at its step; sending there leaves one submission, no draft, one delivery', async () => {
    const page = await open(link);
    await page.locator('#f-motivation').waitFor({ state: 'visible' });
    expect(await headingShown(page)).toBe('Your reasons');
    await page.click('[data-step-back]');
    expect(await page.inputValue('#f-name')).toBe('Ada Lovelace');
    expect(await page.inputValue('#f-email')).toBe('ada@example.com');
    await page.click('[data-step-next]');
    await page.fill('#f-motivation', 'The work');
    await page.click('button[type=submit]');
    await page.locator('[data-forms-status][data-state="success"]').waitFor({ timeout: 15_000 });
    expect(await listed('?partial=only')).toEqual([]);
    expect((await listed()).map((s) => s.fields)).toEqual([
      { name: 'Ada Lovelace', email: 'ada@example.com', motivation: 'The work' },
    ]);
    // Sent: the address forgets the token, and the form begins again.
    expect(page.url()).toBe(`${workerUrl}/f/${made.formId}`);
    expect(await page.isVisible('[data-resume]')).toBe(false);
    const deadline = Date.now() + 20_000;
    while (delivered().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    await new Promise((r) => setTimeout(r, 2000));
    expect(delivered().map((d) => d.data?.fields ?? d.fields ?? d)).toHaveLength(1);
    expect(JSON.stringify(delivered()[0])).toContain('The work');
    await page.context().close();
  });

  it('a sent draft’s link starts afresh, at the first step, its token gone from the address', async () => {
    const page = await open(link);
    await page.waitForURL(`${workerUrl}/f/${made.formId}`);
    expect(await headingShown(page)).toBe('About you');
    expect(await page.inputValue('#f-name')).toBe('');
    await page.context().close();
  });

  it('by keyboard alone at 320 px: Enter saves and goes on; axe-clean', async () => {
    const page = await open(`${workerUrl}/f/${made.formId}`, { width: 320 });
    await page.focus('#f-name');
    await page.keyboard.type('Grace');
    await page.keyboard.press('Tab');
    await page.keyboard.type('grace@example.com');
    await page.keyboard.press('Enter');
    await page.locator('[data-resume]:not([hidden])').waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Your reasons');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    expect(await accessible(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'drafts-320.png'), fullPage: true });
    expect((await listed('?partial=only')).map((d) => d.fields.name)).toEqual(['Grace']);
    await page.context().close();
  });

  it('with scripts off nothing is kept, and the form posts as any', async () => {
    const before = (await listed('?partial=only')).length;
    const page = await open(`${workerUrl}/f/${made.formId}`, { javaScriptEnabled: false });
    expect(await page.isVisible('[data-drafts]')).toBe(false);
    await page.fill('#f-name', 'Noscript');
    await page.fill('#f-email', 'noscript@example.com');
    await page.fill('#f-motivation', 'Plain');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect((await listed()).map((s) => s.fields.name)).toContain('Noscript');
    expect((await listed('?partial=only')).length).toBe(before);
    await page.context().close();
  });
});
