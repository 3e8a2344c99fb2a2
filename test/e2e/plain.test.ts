import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devVar } from '../../toolkit/dev-vars.ts';
import { tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, type Site, startSite, storedRows } from './harness.ts';

const PAGE = readFileSync(join(import.meta.dirname, '../../examples/plain.html'), 'utf8');
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

const dir = tempDir('plain');
let site: Site | undefined;
let browser: Browser | undefined;
let workerUrl = '';
let pageUrl = '';

/**
 * The page as a site would serve it; `?next=` adds a hidden `_next` input, as a site may, and
 * `?widget` the widget.
 */
function render(url: URL, worker: string): string {
  const next = url.searchParams.get('next');
  let html = PAGE.replaceAll('http://localhost:8787', worker);
  if (next !== null)
    html = html.replace('<button', `<input type="hidden" name="_next" value="${next}" />\n      <button`);
  // The same page with the widget: it sends the form, file and all, itself.
  if (url.searchParams.has('widget')) {
    const key = readFileSync(join(dir, 'example-key'), 'utf8').trim();
    html = html
      // C40's analytics off: the worker writes the local database only when a test submits.
      .replace(
        '<form ',
        `<form data-analytics="off" data-endpoint="${worker}/api/v1/submit" data-key="${key}" `,
      )
      .replace('<button', '<p data-forms-status></p>\n      <button')
      .replace('</body>', `<script src="${worker}/widget.js" defer></script></body>`);
  }
  return html;
}

const stored = () => storedRows(dir, 'example');

async function open(query = '', javaScriptEnabled = false): Promise<Page> {
  if (!browser) throw new Error('no browser');
  // Scripts off (unless asked): the form is posted by the browser itself.
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await page.goto(`${pageUrl}/plain.html${query}`);
  return page;
}

async function send(page: Page, name: string) {
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  site = await startSite(dir, { path: '/plain.html', render });
  ({ browser, workerUrl, pageUrl } = site);
});

afterAll(async () => {
  await site?.stop();
});

describe('examples/plain.html with JavaScript disabled, in Chromium', () => {
  it('submits, lands on the thank-you page, and D1 holds the typed values', async () => {
    const page = await open();
    await page.fill('#name', 'Ada Lovelace');
    await page.fill('#email', 'ada@example.com');
    await page.fill('#phone', '2025550123');
    await page.check('input[name=enquiry]');
    await page.fill('#message', 'Hello\nfrom a plain form');
    await send(page, 'plain-thank-you');
    expect(page.url()).toBe(`${workerUrl}/f/f_example`);
    expect(await page.locator('h1').textContent()).toBe('Thank you');
    expect(await page.locator('a').getAttribute('href')).toBe(`${pageUrl}/plain.html`);
    expect((await stored()).map((r) => r.data)).toEqual([
      {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: 2025550123,
        enquiry: true,
        message: 'Hello\r\nfrom a plain form',
      },
    ]);
    await page.context().close();
  });

  it('a wrong value shows the error page with the SPEC message, and nothing is stored', async () => {
    const before = (await stored()).length;
    const page = await open();
    await page.fill('#name', 'Bob');
    await page.fill('#email', 'bob@example.com');
    await page.fill('#phone', '12.5');
    await send(page, 'plain-error');
    expect(await page.locator('h1').textContent()).toBe('Bad Request');
    expect(await page.locator('li').allTextContents()).toEqual(["Field 'phone' is not of type integer"]);
    expect(await page.locator('a').getAttribute('href')).toBe(`${pageUrl}/plain.html`);
    expect(await stored()).toHaveLength(before);
    await page.context().close();
  });

  it('an _next on a foreign origin is refused, and nothing is stored', async () => {
    const before = (await stored()).length;
    const page = await open('?next=https://evil.example/');
    await page.fill('#name', 'Eve');
    await send(page, 'plain-foreign-next');
    expect(page.url()).toBe(`${workerUrl}/f/f_example`);
    expect(await page.locator('li').allTextContents()).toEqual([
      "Field '_next' must be a URL on one of the allowed origins",
    ]);
    expect(await stored()).toHaveLength(before);
    await page.context().close();
  });

  it('a PDF uploaded through the page is stored in R2 and comes back byte for byte through the read API', async () => {
    const page = await open();
    await page.fill('#name', 'Grace');
    await page.fill('#email', 'grace@example.com');
    await page.setInputFiles('#cv', { name: 'cv.pdf', mimeType: 'application/pdf', buffer: PDF });
    await send(page, 'plain-upload');
    expect(await page.locator('h1').textContent()).toBe('Thank you');
    const row = (await stored()).at(-1);
    expect(row?.data).toMatchObject({
      name: 'Grace',
      cv: { name: 'cv.pdf', type: 'application/pdf', size: PDF.length },
    });
    // Made through the worker's management API, as an operator would: a write of its own into the
    // local database while `npm run dev` holds it could meet the worker's lock.
    const made = await fetch(`${workerUrl}/api/v1/projects/example/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${devVar('ADMIN_TOKEN') ?? ''}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'secret' }),
    });
    expect(made.status).toBe(201);
    const secret = ((await made.json()) as { data: { key: string } }).data.key;
    const res = await fetch(`${workerUrl}/api/v1/submissions/${row?.id}/files/cv`, {
      headers: { Authorization: `Bearer ${secret}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(Buffer.from(await res.arrayBuffer()).equals(PDF)).toBe(true);
    await page.context().close();
  });

  it('a file over maxSize, and a file whose bytes are not of an accepted type, are refused with their messages', async () => {
    const before = (await stored()).length;
    const big = join(dir, 'big.pdf');
    writeFileSync(big, Buffer.concat([PDF, Buffer.alloc(5_000_001)]));
    // The example's name is required and its email an address (C28): given, only the file is at fault.
    const named = async (p: Awaited<ReturnType<typeof open>>) => {
      await p.fill('#name', 'Ada');
      await p.fill('#email', 'ada@example.com');
      return p;
    };
    let page = await named(await open());
    await page.setInputFiles('#cv', big);
    await send(page, 'plain-file-too-large');
    expect(await page.locator('h1').textContent()).toBe('Content Too Large');
    expect(await page.locator('li').allTextContents()).toEqual(["Field 'cv' must be at most 5 MB"]);
    await page.context().close();
    page = await named(await open());
    await page.setInputFiles('#cv', {
      name: 'cv.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('just text'),
    });
    await send(page, 'plain-file-wrong-type');
    expect(await page.locator('li').allTextContents()).toEqual([
      "Field 'cv' must be a file of type application/pdf, image/*",
    ]);
    expect(await stored()).toHaveLength(before);
    await page.context().close();
  });

  it('with scripts on, the widget sends the same form as multipart to its action, file and all', async () => {
    const page = await open('?widget=1', true);
    // C20: sent with an Idempotency-Key, after the preflight the form address answers.
    const keys: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/f/')) {
        keys.push(request.headers()['idempotency-key']);
      }
    });
    await page.waitForFunction("'EdgeForms' in window");
    await page.fill('#name', 'Widget Ada');
    await page.fill('#email', 'ada@example.com');
    await page.fill('#phone', '7');
    await page.setInputFiles('#cv', { name: 'w.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.click('button[type=submit]');
    await page.locator('[data-forms-status][data-state="success"]').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'plain-widget-upload.png'), fullPage: true });
    expect(page.url()).toBe(`${pageUrl}/plain.html?widget=1`);
    expect(keys).toEqual([expect.stringMatching(/^[0-9a-f-]{32,36}$/)]);
    expect((await stored()).at(-1)?.data).toMatchObject({
      name: 'Widget Ada',
      phone: 7,
      enquiry: false,
      cv: { name: 'w.pdf', type: 'application/pdf', size: PDF.length },
    });
    await page.context().close();
  });
});
