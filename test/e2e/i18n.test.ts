import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../client/src/messages.ts';
import { devVar } from '../../toolkit/dev-vars.ts';
import { tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, accessible, madeProject, type Site, startSite, storedRows } from './harness.ts';

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

/** C44: a project with a hosted page in English and German, made over the management API. */
async function hostedProject(): Promise<{ projectId: string; formId: string }> {
  const call = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${workerUrl}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${devVar('ADMIN_TOKEN') ?? ''}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return ((await res.json()) as { data: Record<string, unknown> }).data;
  };
  const made = (await call('POST', '/projects', {
    name: 'Sommerfest',
    fields: [
      { name: 'name', type: 'string', required: true, label: { en: 'Your name', de: 'Ihr Name' } },
      {
        name: 'email',
        type: 'string',
        required: true,
        rules: { format: 'email' },
        label: { en: 'Your email', de: 'Ihre E-Mail-Adresse' },
        help: { en: 'For the confirmation.', de: 'Für die Bestätigung.' },
      },
      { name: 'guests', type: 'integer', rules: { min: 0, max: 4 }, label: { en: 'Guests', de: 'Gäste' } },
    ],
  })) as { projectId: string; formId: string };
  await call('PATCH', `/projects/${made.projectId}`, {
    page: {
      enabled: true,
      languages: ['en', 'de'],
      title: { en: 'Summer party', de: 'Sommerfest' },
      intro: { en: 'Sign up by Friday.', de: 'Anmeldung bis Freitag.' },
      thanks: { en: 'See you there!', de: 'Bis bald!' },
    },
  });
  return made;
}

describe('C44: a hosted page, in Chromium', () => {
  it('in the language Accept-Language asks for: its errors beside its fields, then its thanks; axe-clean, 320 px', async () => {
    const { projectId, formId } = await hostedProject();
    if (!browser) throw new Error('no browser');
    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 320, height: 640 } });
    const page = await context.newPage();
    await page.goto(`${workerUrl}/f/${formId}`);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.locator('h1').textContent()).toBe('Sommerfest');
    await page.waitForFunction("'EdgeForms' in window");
    // Nothing wider than the screen: no sideways scrolling at 320 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    expect(await accessible(page)).toEqual([]);
    await page.fill('#f-email', 'ada@');
    await page.click('button[type=submit]');
    await page.locator('[data-forms-error="email"]').waitFor();
    expect(await note(page, 'email')).toBe('„Ihre E-Mail-Adresse“ muss eine E-Mail-Adresse sein.');
    // A required control left empty is sent as no value, so the worker says it is required (C29).
    expect(await note(page, 'name')).toBe('„Ihr Name“ ist ein Pflichtfeld.');
    expect(await accessible(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'hosted-page-de-errors.png'), fullPage: true });
    // Keyboard only: from the language switch, Tab reaches each field in order; Enter sends.
    const focused = () => page.evaluate(() => document.activeElement?.id);
    await page.locator('nav a').last().focus();
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('f-name');
    await page.keyboard.type('Ada');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('f-email');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Enter');
    await expect.poll(() => status(page)).toBe('Bis bald!');
    expect((await storedRows(dir, projectId)).map((r) => r.data)).toEqual([
      { name: 'Ada', email: 'ada@example.com' },
    ]);
    // The visitor may switch: the English page, by its link.
    await page.getByRole('link', { name: 'English' }).click();
    expect(await page.locator('h1').textContent()).toBe('Summer party');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: join(ARTIFACTS, 'hosted-page-en.png'), fullPage: true });
    await context.close();
  });

  it('with scripts off: a plain post, answered in the page’s look and language, what to fix and then its thanks', async () => {
    const { projectId, formId } = await hostedProject();
    if (!browser) throw new Error('no browser');
    const context = await browser.newContext({ locale: 'de-DE', javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${workerUrl}/f/${formId}`);
    await page.fill('#f-name', 'Grace');
    await page.fill('#f-email', 'grace@example');
    await page.click('button[type=submit]');
    await page.getByText('Das Formular wurde nicht gesendet:').waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.locator('li').allTextContents()).toEqual([
      '„Ihre E-Mail-Adresse“ muss eine E-Mail-Adresse sein.',
    ]);
    await page.screenshot({ path: join(ARTIFACTS, 'hosted-page-de-no-script-error.png'), fullPage: true });
    // axe needs a script: the error page's own markup, in a page that runs one.
    const checked = await browser.newPage();
    await checked.setContent(await page.content());
    expect(await accessible(checked)).toEqual([]);
    await checked.close();
    await page.getByRole('link', { name: 'Zurück zum Formular' }).click();
    await page.fill('#f-name', 'Grace');
    await page.fill('#f-email', 'grace@example.com');
    await page.click('button[type=submit]');
    await page.getByText('Bis bald!').waitFor();
    expect((await storedRows(dir, projectId)).map((r) => r.data)).toEqual([
      { name: 'Grace', email: 'grace@example.com' },
    ]);
    await context.close();
  });
});
