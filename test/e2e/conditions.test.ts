import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbedProject, widgetForm } from '../../dashboard/embed.ts';
import { devVar } from '../../toolkit/dev-vars.ts';
import { tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, accessible, type Site, startSite, storedRows } from './harness.ts';

const FIELDS = [
  { name: 'email', type: 'string', required: true, rules: { format: 'email' }, label: { en: 'Your email' } },
  { name: 'business', type: 'boolean', label: { en: 'I am writing for a business' } },
  {
    name: 'company',
    type: 'string',
    required: true,
    label: { en: 'Company' },
    help: { en: 'As it is registered.' },
    when: { field: 'business', equals: true },
  },
  { name: 'vat', type: 'string', label: { en: 'VAT number' }, when: { field: 'company', filled: true } },
  { name: 'cv', type: 'file', rules: { accept: ['application/pdf'] }, label: { en: 'Your CV' } },
  // Captured, never shown: filled from the page's address and referrer.
  { name: 'source', type: 'string', capture: 'utm_source' },
  { name: 'ref', type: 'string', capture: 'query:ref' },
  { name: 'came_from', type: 'string', capture: 'referrer' },
];

const dir = tempDir('conditions');
let site: Site | undefined;
let browser: Browser | undefined;
let workerUrl = '';
let pageUrl = '';
/** The project with conditions, its snippet as the Embed screen gives it, and one without. */
let made = { projectId: '', formId: '', apiKey: '' };
let snippet = '';
let plain = { projectId: '', formId: '' };

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${workerUrl}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${devVar('ADMIN_TOKEN') ?? ''}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

async function hosted(name: string, fields: unknown[]) {
  const project = (await call('POST', '/projects', { name, fields, honeypot: 'website' })) as typeof made;
  await call('PATCH', `/projects/${project.projectId}`, { page: { enabled: true, title: { en: name } } });
  return project;
}

/**
 * A site's page of another origin: the Embed screen's widget form (analytics off), marked
 * `data-prefill` unless the query says `plain`.
 */
function render(url: URL): string {
  const form = snippet.replace(
    '<form ',
    `<form data-analytics="off" ${url.searchParams.has('plain') ? '' : 'data-prefill '}`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact</title></head><body><main><h1>Contact</h1>\n${form}</main></body></html>`;
}

/** A page, with the requests it makes for the conditions' script. */
async function open(url: string, javaScriptEnabled = true) {
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  const logic: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/widget/logic.js')) logic.push(request.url());
  });
  await page.goto(url);
  if (javaScriptEnabled) await page.waitForFunction("'EdgeForms' in window");
  return { page, logic };
}

/** Whether a field is shown: its control, its labels and its help, each; and whether it is sent. */
const state = (page: Page, name: string) =>
  page.evaluate((name) => {
    const control = document.querySelector<HTMLInputElement>(`[name="${name}"]`);
    if (!control) throw new Error(`no control ${name}`);
    const parts = [
      control,
      ...Array.from(control.labels ?? []),
      document.getElementById(`${control.id}-help`),
    ];
    const shown = parts.filter((p) => p !== null).map((p) => p.checkVisibility());
    return {
      shown: shown.every(Boolean) ? true : shown.some(Boolean) ? 'partly' : false,
      disabled: control.disabled,
    };
  }, name);

const SHOWN = { shown: true, disabled: false };
const HIDDEN = { shown: false, disabled: true };
const stored = (projectId: string) => storedRows(dir, projectId).then((rows) => rows.map((r) => r.data));

beforeAll(async () => {
  site = await startSite(dir, { path: '/form.html', render: (url) => render(url) });
  ({ browser, workerUrl, pageUrl } = site);
  made = (await hosted('Enquiries', FIELDS)) as typeof made;
  const view = (await call('GET', `/projects/${made.projectId}`)).project as EmbedProject;
  snippet = widgetForm(view, workerUrl, made.apiKey);
  plain = await hosted('Plain', [FIELDS[0]]);
});

afterAll(async () => {
  await site?.stop();
});

describe('C45: a hosted page with a condition, in Chromium', () => {
  it('hides a field until its box is checked, and the fields whose conditions name it; fills its fields from its query, never the honeypot; stores what applies', async () => {
    const { page, logic } = await open(
      `${workerUrl}/f/${made.formId}?email=ada%40example.com&company=ACME&website=spam&cv=x.pdf`,
    );
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('#f-company')?.disabled === true,
    );
    expect(await page.inputValue('#f-email')).toBe('ada@example.com');
    // Filled, but hidden: the box is not checked. `vat` names `company`, which does not apply.
    expect(await page.inputValue('#f-company')).toBe('ACME');
    expect(await state(page, 'company')).toEqual(HIDDEN);
    expect(await state(page, 'vat')).toEqual(HIDDEN);
    expect(await state(page, 'business')).toEqual(SHOWN);
    expect(await page.inputValue('input[name=website]')).toBe('');
    expect(await page.inputValue('#f-cv')).toBe('');
    expect(await accessible(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'conditions-hosted-unchecked.png'), fullPage: true });

    await page.check('#f-business');
    expect(await state(page, 'company')).toEqual(SHOWN);
    // Required whenever it applies: said so while it shows, as any required field is.
    expect(await page.getAttribute('#f-company', 'aria-required')).toBe('true');
    expect(
      await page.evaluate(
        () =>
          getComputedStyle(document.querySelector('label[for="f-company"]') as Element, '::after').content,
      ),
    ).toBe('" *"');
    // `company` applies now, and holds a value: `vat` applies too.
    expect(await state(page, 'vat')).toEqual(SHOWN);
    await page.fill('#f-company', '');
    expect(await state(page, 'vat')).toEqual(HIDDEN);
    await page.fill('#f-company', 'ACME Ltd');
    expect(await accessible(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'conditions-hosted-checked.png'), fullPage: true });

    // Unchecked again: hidden, and neither sent nor required (it is required when it applies).
    await page.uncheck('#f-business');
    expect(await state(page, 'company')).toEqual(HIDDEN);
    expect(await page.getAttribute('#f-company', 'aria-required')).toBe('false');
    await page.click('button[type=submit]');
    await page.locator('[data-forms-status][data-state="success"]').waitFor({ timeout: 15_000 });
    expect(await stored(made.projectId)).toEqual([{ email: 'ada@example.com', business: false }]);
    // After the widget's reset the box is unchecked and the field hidden still.
    expect(await state(page, 'company')).toEqual(HIDDEN);
    expect(logic).toEqual([`${workerUrl}/widget/logic.js`]);
    await page.context().close();
  });

  it('a box checked from its query (true, 1 or on) shows its field, which is then required and stored', async () => {
    const { page } = await open(`${workerUrl}/f/${made.formId}?email=grace%40example.com&business=on`);
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('#f-business')?.checked === true,
    );
    expect(await state(page, 'company')).toEqual(SHOWN);
    await page.click('button[type=submit]');
    // Required while it applies: the worker says so beside it.
    await page.locator('[data-forms-error="company"]').waitFor({ timeout: 15_000 });
    await page.fill('#f-company', 'Hopper & Co');
    await page.click('button[type=submit]');
    await page.locator('[data-forms-status][data-state="success"]').waitFor({ timeout: 15_000 });
    expect((await stored(made.projectId)).at(-1)).toEqual({
      email: 'grace@example.com',
      business: true,
      company: 'Hopper & Co',
    });
    await page.context().close();
  });

  it('captures utm_source, a parameter and the referrer into hidden fields a person never sees (prefill never fills them), kept after the widget’s reset', async () => {
    if (!browser) throw new Error('no browser');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(
      `${workerUrl}/f/${made.formId}?utm_source=newsletter&ref=${'r'.repeat(600)}&source=forged&email=ada%40example.com`,
      { referer: 'https://news.example/issue-12' },
    );
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('#f-source')?.value !== '');
    expect(await page.inputValue('#f-source')).toBe('newsletter');
    // Cut to 500 characters, as the worker holds at most.
    expect(await page.inputValue('#f-ref')).toBe('r'.repeat(500));
    expect(await page.inputValue('#f-came_from')).toBe('https://news.example/issue-12');
    for (const name of ['source', 'ref', 'came_from']) {
      expect(await page.locator(`[name=${name}]`).isVisible(), name).toBe(false);
      expect(await page.locator(`label[for=f-${name}]`).count(), name).toBe(0);
    }
    expect(await accessible(page)).toEqual([]);
    await page.click('button[type=submit]');
    await page.locator('[data-forms-status][data-state="success"]').waitFor({ timeout: 15_000 });
    expect((await stored(made.projectId)).at(-1)).toEqual({
      email: 'ada@example.com',
      business: false,
      source: 'newsletter',
      ref: 'r'.repeat(500),
      came_from: 'https://news.example/issue-12',
    });
    // Sent once, reset: a second message from the same visit still says where it came from.
    expect(await page.inputValue('#f-source')).toBe('newsletter');
    await context.close();
  });

  it('with scripts off every field shows and nothing is filled; the worker judges what applies', async () => {
    const { page } = await open(`${workerUrl}/f/${made.formId}?email=ada%40example.com&company=ACME`, false);
    for (const name of ['email', 'business', 'company', 'vat', 'cv'])
      expect(await state(page, name), name).toEqual(SHOWN);
    expect(await page.inputValue('#f-email')).toBe('');
    await page.screenshot({ path: join(ARTIFACTS, 'conditions-hosted-no-script.png'), fullPage: true });
    await page.fill('#f-email', 'linus@example.com');
    await page.fill('#f-company', 'Not a business');
    // Required when it applies, which the browser cannot know: not required to it.
    expect(await page.getAttribute('#f-company', 'required')).toBeNull();
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    await page.screenshot({ path: join(ARTIFACTS, 'conditions-hosted-no-script-sent.png'), fullPage: true });
    // Required, but it does not apply: the worker neither asks for it nor stores it.
    expect((await stored(made.projectId)).at(-1)).toEqual({ email: 'linus@example.com', business: false });
    // axe needs a script: the form's own markup, in a page that runs one.
    if (!browser) throw new Error('no browser');
    const checked = await browser.newPage();
    await page.goto(`${workerUrl}/f/${made.formId}`);
    await checked.setContent(await page.content());
    expect(await accessible(checked)).toEqual([]);
    await checked.close();
    await page.context().close();
  });

  it('a page with no condition fetches nothing more than the widget, until its address has a query to fill from', async () => {
    const bare = await open(`${workerUrl}/f/${plain.formId}`);
    await bare.page.waitForLoadState('networkidle');
    expect(bare.logic).toEqual([]);
    expect(await bare.page.locator('link[rel=modulepreload]').count()).toBe(0);
    await bare.page.context().close();
    const query = await open(`${workerUrl}/f/${plain.formId}?email=ada%40example.com`);
    await query.page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('#f-email')?.value !== '',
    );
    expect(await query.page.inputValue('#f-email')).toBe('ada@example.com');
    expect(query.logic).toEqual([`${workerUrl}/widget/logic.js`]);
    await query.page.context().close();
  });
});

describe('C45: the widget on a site of another origin, with the Embed screen’s snippet', () => {
  it('marked data-prefill: filled from the page’s address, its conditions judged; sent without what does not apply', async () => {
    const { page, logic } = await open(`${pageUrl}/form.html?email=ada%40example.com&business=1`);
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('#f-business')?.checked === true,
    );
    expect(await page.inputValue('#f-email')).toBe('ada@example.com');
    expect(await state(page, 'company')).toEqual(SHOWN);
    expect(await state(page, 'vat')).toEqual(HIDDEN);
    await page.fill('#f-company', 'ACME');
    expect(await state(page, 'vat')).toEqual(SHOWN);
    expect(await accessible(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'conditions-widget-site.png'), fullPage: true });
    await page.uncheck('#f-business');
    await page.click('button[type=submit]');
    await page.locator('[data-forms-status][data-state="success"]').waitFor({ timeout: 15_000 });
    expect((await stored(made.projectId)).at(-1)).toEqual({ email: 'ada@example.com', business: false });
    expect(logic).toEqual([`${workerUrl}/widget/logic.js`]);
    await page.context().close();
  });

  it('fills its captured fields from the site’s page, marked data-prefill or not', async () => {
    if (!browser) throw new Error('no browser');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${pageUrl}/form.html?plain&utm_source=ads&ref=spring`, {
      referer: 'https://search.example/?q=forms',
    });
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('#f-source')?.value !== '');
    expect(await page.inputValue('#f-ref')).toBe('spring');
    expect(await page.inputValue('#f-came_from')).toBe('https://search.example/?q=forms');
    await page.fill('#f-email', 'lin@example.com');
    await page.click('button[type=submit]');
    await page.locator('[data-forms-status][data-state="success"]').waitFor({ timeout: 15_000 });
    expect((await stored(made.projectId)).at(-1)).toEqual({
      email: 'lin@example.com',
      business: false,
      source: 'ads',
      ref: 'spring',
      came_from: 'https://search.example/?q=forms',
    });
    await context.close();
  });

  it('not marked: nothing is filled from the address; its conditions still apply', async () => {
    const { page } = await open(`${pageUrl}/form.html?plain&email=ada%40example.com&business=1`);
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('#f-company')?.disabled === true,
    );
    expect(await page.inputValue('#f-email')).toBe('');
    expect(await page.isChecked('#f-business')).toBe(false);
    await page.context().close();
  });
});
