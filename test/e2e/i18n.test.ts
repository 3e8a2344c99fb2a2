// C43: the widget words a failure in the page's language, in Chromium against `npm run dev`: the
// form's closest `lang` chooses the catalogue (fetched once from the worker, beside widget.js), each
// field's sentence names it by its visible label, and a page whose catalogue cannot be had shows
// the worker's English texts as before.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../client/src/messages.ts';
import { tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, madeProject, type Site, startSite } from './harness.ts';

const AXE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');
const FIELDS = ['name:string:required', 'email:string:format=email', 'age:integer:min=18'];

const dir = tempDir('i18n');
let site: Site | undefined;
let browser: Browser | undefined;
let workerUrl = '';
let pageUrl = '';
let key = '';

/**
 * A site's form, in the language its query asks for: `html` on the page, `form` on the form alone.
 * Its fields are labelled three ways: a wrapping label (with a required star), a label by `for`
 * (with a colon), an `aria-label`.
 */
function render(url: URL, worker: string): string {
  const html = url.searchParams.get('html') ?? 'en';
  const form = url.searchParams.get('form');
  return `<!doctype html>
<html lang="${html}">
<head><meta charset="utf-8"><title>Contact</title><style>label, input, [data-forms-error] { display: block; margin-top: 0.5rem; }</style></head>
<body>
<main>
  <h1>Contact</h1>
  <form data-analytics="off" data-endpoint="${worker}/api/v1/submit" data-key="${url.searchParams.get('key') ?? key}"${form ? ` lang="${form}"` : ''} novalidate>
    <p data-forms-status></p>
    <label>Name <span aria-hidden="true">*</span> <input name="name" autocomplete="name"></label>
    <label for="email">E-Mail:</label>
    <input id="email" name="email" type="email" autocomplete="email">
    <input name="age" type="number" aria-label="Alter">
    <button type="submit">Send</button>
  </form>
</main>
<script src="${worker}/widget.js" defer></script>
</body>
</html>`;
}

/** The page, with what the form's `forms:error` events carried and the catalogues it asked for. */
async function open(query: string, before?: (page: Page) => Promise<unknown>) {
  if (!browser) throw new Error('no browser');
  const page = await browser.newPage();
  const catalogues: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/widget/i18n/')) catalogues.push(request.url());
  });
  await before?.(page);
  await page.goto(`${pageUrl}/form.html?${query}`);
  await page.waitForFunction("'EdgeForms' in window");
  await page.evaluate(() => {
    const w = window as unknown as { errors: unknown[] };
    w.errors = [];
    document.addEventListener('forms:error', (event) => {
      const { code, issues } = (event as CustomEvent).detail;
      w.errors.push({ code, issues });
    });
  });
  return { page, catalogues, errors: () => page.evaluate('window.errors') };
}

/** Fills the form so that each field breaks one rule (name left out, a bad address, too young) and sends it. */
async function sendWrong(page: Page, name: string) {
  await page.fill('#email', 'nope');
  await page.fill('input[name=age]', '12');
  await page.click('button[type=submit]');
  await page.locator('[data-forms-status][data-state="error"]').waitFor({ timeout: 15_000 });
  await page.screenshot({ path: join(ARTIFACTS, `i18n-${name}.png`), fullPage: true });
}

const note = (page: Page, field: string) => page.locator(`[data-forms-error="${field}"]`).textContent();
const status = (page: Page) => page.locator('[data-forms-status]').textContent();

/** axe-core on the page as it is: no serious or critical violation (as the dashboard's screens). */
async function accessible(page: Page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    type Axe = {
      run: (c: Document, o: object) => Promise<{ violations: { id: string; impact: string }[] }>;
    };
    const { violations } = await (window as unknown as { axe: Axe }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
}

beforeAll(async () => {
  site = await startSite(dir, { path: '/form.html', render });
  ({ browser, workerUrl, pageUrl } = site);
  key = (await madeProject(dir, { name: 'Languages', fields: FIELDS })).apiKey;
});

afterAll(async () => {
  await site?.stop();
});

describe("C43: the widget words a failure in the page's language, in Chromium", () => {
  it("serves each language's catalogue beside /widget.js, as long-lived and open to every site", async () => {
    for (const lang of ['de', 'en', 'ja'] as const) {
      const res = await fetch(`${workerUrl}/widget/i18n/${lang}.json`, { headers: { Origin: pageUrl } });
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
      expect(res.headers.get('Cache-Control')).toBe('public, max-age=86400, stale-while-revalidate=604800');
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
      expect(await res.json()).toEqual(MESSAGES[lang]);
    }
  });

  it('<html lang="de">: each field says in German what is wrong, named by its label, next to it; the catalogue is fetched once', async () => {
    const { page, catalogues, errors } = await open('html=de');
    await sendWrong(page, 'de');
    expect(await note(page, 'email')).toBe('„E-Mail“ muss eine E-Mail-Adresse sein.');
    expect(await note(page, 'name')).toBe('„Name“ ist ein Pflichtfeld.');
    expect(await note(page, 'age')).toBe('„Alter“ muss mindestens 18 sein.');
    expect(await page.getAttribute('#email', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#email', 'aria-describedby')).toBe('forms-error-email');
    expect(await page.locator('#forms-error-email').evaluate((n) => n.previousElementSibling?.id)).toBe(
      'email',
    );
    expect(await page.getAttribute('input[name=name]', 'aria-invalid')).toBe('true');
    expect(await status(page)).toBe('Bitte prüfen Sie die markierten Felder.');
    expect(await accessible(page)).toEqual([]);
    // forms:error carries the codes, and the sentences shown.
    expect(await errors()).toEqual([
      {
        code: 'validation_failed',
        issues: expect.arrayContaining([
          {
            field: 'email',
            code: 'format',
            params: { format: 'email' },
            message: '„E-Mail“ muss eine E-Mail-Adresse sein.',
          },
        ]),
      },
    ]);
    // A second failure on the same page asks for nothing more.
    await page.click('button[type=submit]');
    await page.waitForFunction('window.errors.length === 2');
    expect(await note(page, 'email')).toBe('„E-Mail“ muss eine E-Mail-Adresse sein.');
    expect(catalogues).toEqual([`${workerUrl}/widget/i18n/de.json`]);
    await page.close();
  });

  it('lang="fr" on the form alone (the page is English): French', async () => {
    const { page, catalogues } = await open('html=en&form=fr');
    await sendWrong(page, 'fr');
    expect(await note(page, 'email')).toBe('Le champ «\u202fE-Mail\u202f» doit contenir une adresse e-mail.');
    expect(await note(page, 'age')).toBe('Le champ «\u202fAlter\u202f» doit être supérieur ou égal à 18.');
    expect(await status(page)).toBe('Veuillez vérifier les champs signalés.');
    expect(catalogues).toEqual([`${workerUrl}/widget/i18n/fr.json`]);
    await page.close();
  });

  it('a language the catalogue lacks (Swedish): English, in its sentences, with the labels', async () => {
    const { page, catalogues } = await open('html=sv');
    await sendWrong(page, 'sv');
    expect(await note(page, 'email')).toBe('“E-Mail” must be an email address.');
    expect(await note(page, 'name')).toBe('“Name” is required.');
    expect(await status(page)).toBe('Please check the fields marked.');
    expect(catalogues).toEqual([`${workerUrl}/widget/i18n/en.json`]);
    await page.close();
  });

  it("the catalogue cannot be fetched: the worker's English texts, at their fields as before", async () => {
    const { page } = await open('html=de', (p) =>
      p.route('**/widget/i18n/**', (route) => route.fulfill({ status: 404 })),
    );
    await sendWrong(page, 'de-without-catalogue');
    expect(await note(page, 'email')).toBe("Field 'email' must be an email address");
    expect(await page.getAttribute('#email', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#email', 'aria-describedby')).toBe('forms-error-email');
    expect(await status(page)).toBe('Validation failed');
    await page.close();
  });

  it('a single cause is worded too: a refused origin, in German', async () => {
    const elsewhere = await madeProject(dir, {
      name: 'Elsewhere',
      fields: FIELDS,
      origins: ['https://shop.example'],
    });
    const { page, errors } = await open(`html=de&key=${encodeURIComponent(elsewhere.apiKey)}`);
    await sendWrong(page, 'de-origin');
    expect(await status(page)).toBe(
      'Dieses Formular kann von dieser Website aus nicht gesendet werden. Bitte geben Sie den Betreibern der Website Bescheid.',
    );
    expect(await errors()).toEqual([{ code: 'origin_not_allowed', issues: [] }]);
    await page.close();
  });

  it('a network failure, after its retries, is worded in German too', async () => {
    const { page, errors } = await open('html=de', (p) =>
      p.route('**/api/v1/submit', (route) => route.abort('internetdisconnected')),
    );
    await sendWrong(page, 'de-network');
    expect(await status(page)).toBe(
      'Das Formular konnte nicht gesendet werden, weil keine Verbindung besteht. Bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
    );
    expect(await errors()).toEqual([{ code: 'network_error' }]);
    await page.close();
  });
});
