import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDocument } from '../../scripts/build-assets.ts';
import { tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, madeProject, type Site, startSite, storedRows } from './harness.ts';

const PAGE = readFileSync(join(import.meta.dirname, '../../examples/contact.html'), 'utf8');

const dir = tempDir('e2e');
/** What D1 holds for a project: each row's values. */
const stored = async (projectId: string) => (await storedRows(dir, projectId)).map((r) => r.data);
let site: Site | undefined;
let browser: Browser | undefined;
let workerUrl = '';
let pageUrl = '';
let exampleKey = '';
let devLog = () => '';

/** The example page as a site would serve it, pointing at our worker with the given key. */
function render(url: URL, worker: string): string {
  // C40's analytics are tested on their own (analytics.test.ts): here they are off, so that the
  // worker writes the local database only when a test submits, never behind its back.
  return PAGE.replaceAll('http://localhost:8787', worker)
    .replace('edgeform_PASTE_THE_KEY_FROM_NPM_RUN_DEV', url.searchParams.get('key') ?? exampleKey)
    .replace('<form', '<form data-analytics="off"');
}

async function open(key?: string): Promise<Page> {
  if (!browser) throw new Error('no browser');
  const page = await browser.newPage();
  await page.goto(`${pageUrl}/contact.html${key ? `?key=${encodeURIComponent(key)}` : ''}`);
  await page.waitForFunction("'EdgeForms' in window");
  return page;
}

const status = (page: Page) => page.locator('[data-forms-status]');

async function settled(page: Page, state: 'success' | 'error', name: string) {
  await page.locator(`[data-forms-status][data-state="${state}"]`).waitFor({ timeout: 15_000 });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  site = await startSite(dir, { path: '/contact.html', render });
  ({ browser, workerUrl, pageUrl } = site);
  devLog = site.devLog;
  exampleKey = readFileSync(join(dir, 'example-key'), 'utf8').trim();
});

afterAll(async () => {
  await site?.stop();
});

describe('the widget on the example page, in Chromium', () => {
  it('serves /widget.js with its type, long-lived caching and open CORS', async () => {
    const res = await fetch(`${workerUrl}/widget.js`, { headers: { Origin: pageUrl } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^(application|text)\/javascript/);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect((await res.text()).length).toBeGreaterThan(1000);
  });

  it('serves the OpenAPI document at /api/v1/openapi.json, as generated from the code', async () => {
    const res = await fetch(`${workerUrl}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(await generateDocument());
  });

  it('a valid submission shows success, and D1 holds exactly it', async () => {
    const page = await open();
    await page.fill('#name', 'Ada Lovelace');
    await page.fill('#email', 'ada@example.com');
    await page.fill('#phone', '2025550123');
    await page.check('input[name=enquiry]');
    await page.fill('#message', 'Hello from Chromium');
    await page.click('button[type=submit]');
    await settled(page, 'success', 'valid-submission');
    expect(await status(page).textContent()).toBe('Thank you! We received your message.');
    expect(await status(page).getAttribute('aria-live')).toBe('polite');
    expect(await stored('example')).toEqual([
      {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: 2025550123,
        enquiry: true,
        message: 'Hello from Chromium',
      },
    ]);
    // A real cross-origin request: the browser sent the preflight first (wrangler dev logs it).
    expect(devLog()).toMatch(/OPTIONS \/api\/v1\/submit 204/);
    await page.close();
  });

  it('a wrong type shows the SPEC message at that field, and nothing is stored', async () => {
    const before = (await stored('example')).length;
    const page = await open();
    // A site whose phone control is free text, while the project wants an integer.
    await page.evaluate("document.querySelector('#phone').type = 'text'");
    await page.fill('#name', 'Grace');
    await page.fill('#phone', '555-0123');
    await page.click('button[type=submit]');
    await settled(page, 'error', 'wrong-type');
    const note = page.locator('[data-forms-error="phone"]');
    // C43: the issue's code worded in the page's language (English here), with the field's label.
    expect(await note.textContent()).toBe('“Phone” must be a whole number.');
    expect(await page.getAttribute('#phone', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#phone', 'aria-describedby')).toBe('forms-error-phone');
    expect(await status(page).textContent()).toBe('Please check the fields marked.');
    expect((await stored('example')).length).toBe(before);
    await page.close();
  });

  it('an error at a checkbox is shown after its label, never inside it', async () => {
    const strict = await madeProject(dir, {
      name: 'Strict',
      fields: ['name:string', 'message:string'],
    });
    // The project has no `enquiry`: the page's checkbox is an unknown field.
    const page = await open(strict.apiKey);
    await page.fill('#name', 'Ada');
    await page.check('input[name=enquiry]');
    await page.click('button[type=submit]');
    await settled(page, 'error', 'checkbox-error');
    const note = page.locator('[data-forms-error="enquiry"]');
    expect(await note.textContent()).toBe('“This is a business enquiry” is not part of this form.');
    expect(await note.evaluate((n) => n.closest('label') === null)).toBe(true);
    expect(await note.evaluate((n) => n.previousElementSibling?.tagName)).toBe('LABEL');
    await page.close();
  });

  it("a project that lists allowed origins refuses the page's origin, visibly", async () => {
    const other = await madeProject(dir, {
      name: 'Elsewhere',
      fields: ['name:string'],
      origins: ['https://shop.example'],
    });
    const page = await open(other.apiKey);
    await page.fill('#name', 'Ada');
    await page.click('button[type=submit]');
    await settled(page, 'error', 'origin-refused');
    expect(await status(page).textContent()).toBe(
      'This form cannot be sent from this site. Please let the site’s owner know.',
    );
    expect(await stored(other.projectId)).toEqual([]);
    await page.close();
  });

  it('an invalid key shows a visible error', async () => {
    const page = await open('edgeform_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    await page.fill('#name', 'Ada');
    await page.click('button[type=submit]');
    await settled(page, 'error', 'invalid-key');
    expect(await status(page).textContent()).toBe(
      'This form is not set up correctly. Please let the site’s owner know.',
    );
    await page.close();
  });

  it('a double click stores one submission', async () => {
    const before = (await stored('example')).length;
    const page = await open();
    await page.fill('#name', 'Double Clicker');
    // As long as a person takes to fill it in (C39: a form sent sooner is held as spam).
    await page.waitForTimeout(2_500);
    await page.dblclick('button[type=submit]');
    await settled(page, 'success', 'double-click');
    // Give a second request, had there been one, the time to land.
    await page.waitForTimeout(500);
    const rows = await stored('example');
    expect(rows.length - before).toBe(1);
    expect(rows.at(-1)).toEqual({ name: 'Double Clicker', enquiry: false });
    await page.close();
  });

  it("C22: the page's Turnstile widget is reset after a refused submission and after a sent one", async () => {
    if (!browser) throw new Error('no browser');
    const page = await browser.newPage();
    // A stand-in for Cloudflare's Turnstile script (which cannot load offline): it counts resets.
    await page.addInitScript(() => {
      const w = window as unknown as { resets: number; turnstile: { reset(): void } };
      w.resets = 0;
      w.turnstile = { reset: () => void w.resets++ };
    });
    await page.goto(`${pageUrl}/contact.html`);
    await page.waitForFunction("'EdgeForms' in window");
    await page.evaluate("document.querySelector('#phone').type = 'text'");
    await page.fill('#phone', 'not a number');
    await page.click('button[type=submit]');
    await settled(page, 'error', 'turnstile-reset-after-error');
    expect(await page.evaluate('window.resets')).toBe(1);
    await page.fill('#phone', '');
    await page.fill('#name', 'Turnstile');
    await page.click('button[type=submit]');
    await settled(page, 'success', 'turnstile-reset-after-success');
    expect(await page.evaluate('window.resets')).toBe(2);
    await page.close();
  });

  it('C28: a field that breaks several rules shows all its messages at that field, once', async () => {
    const ruled = await madeProject(dir, {
      name: 'Ruled',
      fields: ['name:string:minLength=3:pattern=^[a-z]+$', 'email:string:format=email'],
    });
    const page = await open(ruled.apiKey);
    await page.fill('#name', 'A1');
    await page.fill('#email', 'nope');
    await page.click('button[type=submit]');
    await settled(page, 'error', 'rules-messages');
    expect(await page.locator('[data-forms-error="name"]').count()).toBe(1);
    expect(await page.locator('[data-forms-error="name"]').textContent()).toBe(
      '“Name” must be at least 3 characters long. “Name” is not in the expected format.',
    );
    expect(await page.locator('[data-forms-error="email"]').textContent()).toBe(
      '“Email” must be an email address.',
    );
    expect(await stored(ruled.projectId)).toEqual([]);
    await page.close();
  });
});
