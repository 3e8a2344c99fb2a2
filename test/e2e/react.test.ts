// The React example (examples/react) in Chromium against `npm run dev`: built and served by its own
// build.ts, from an origin other than the worker's, as its README has a person do. A field's problem
// appears beside it in the page's language (C43), with its ARIA; a corrected form is sent and stored.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveExample } from '../../examples/react/build.ts';
import { tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, madeProject, type Site, startSite, storedRows } from './harness.ts';

const EXAMPLE = join(import.meta.dirname, '../../examples/react');
const AXE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');
/** The example project's fields, but for an email address that must be one. */
const FIELDS = [
  'name:string',
  'email:string:format=email',
  'phone:integer',
  'enquiry:boolean',
  'message:string',
];

const dir = tempDir('react');
/** What D1 holds for a project: each row's values. */
const stored = async (projectId: string) => (await storedRows(dir, projectId)).map((r) => r.data);
let site: Site | undefined;
const servers: Server[] = [];
/** The example's address, served by its build.ts: the folder as it is, and a copy with `<html lang="de">`. */
const served = { en: '', de: '' };
let projectId = '';
let key = '';
/** The pages' uncaught errors: a passing run has none. */
const pageErrors: string[] = [];

/** The example page with the key, pointed at our worker: as it is (English), or its German copy. */
async function open(pageKey: string, lang: keyof typeof served = 'en'): Promise<Page> {
  if (!site) throw new Error('no site');
  const page = await site.browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const query = new URLSearchParams({ endpoint: `${site.workerUrl}/api/v1/submit`, key: pageKey });
  await page.goto(`${served[lang]}/?${query}`);
  await page.locator('form').waitFor();
  return page;
}

const button = (page: Page) => page.locator('button[type=submit]');
const status = (page: Page) => page.getByRole('status');

/** axe-core on the page as it is: every violation, of any impact. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    type Axe = {
      run: (
        c: Document,
        o: object,
      ) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
    };
    const result = await (window as unknown as { axe: Axe }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

beforeAll(async () => {
  site = await startSite(dir, { path: '/', render: () => '' });
  // As its README says: type-checked, then bundled.
  const built = execFileSync('npm', ['run', '-s', 'example:react'], { encoding: 'utf8' });
  expect(built).toMatch(/^examples\/react\/dist\/app\.js: \d+ bytes, \d+ gzip/);
  // A German site: the same page and bundle but for its <html lang>, served as the folder is. (A page
  // rewritten by a Playwright route counts as a public one, which Chromium refuses the worker on
  // 127.0.0.1: its local network access checks.)
  const german = tempDir('react-de');
  mkdirSync(join(german, 'dist'));
  const html = readFileSync(join(EXAMPLE, 'index.html'), 'utf8');
  writeFileSync(join(german, 'index.html'), html.replace('<html lang="en">', '<html lang="de">'));
  copyFileSync(join(EXAMPLE, 'dist/app.js'), join(german, 'dist/app.js'));
  for (const [lang, root] of [
    ['en', EXAMPLE],
    ['de', german],
  ] as const) {
    const { server, url } = await serveExample(0, root);
    servers.push(server);
    served[lang] = url;
  }
  ({ projectId, apiKey: key } = await madeProject(dir, { name: 'React example', fields: FIELDS }));
});

afterAll(async () => {
  for (const server of servers) server.close();
  await site?.stop();
});

afterEach(() => {
  expect(pageErrors).toEqual([]);
});

describe('examples/react against npm run dev, in Chromium', () => {
  it('C43: <html lang="de">: a bad email is worded in German beside its field, with its ARIA; the button is off while it is sent; axe finds nothing', async () => {
    const page = await open(key, 'de');
    // What the button is while the submission is under way (the worker may answer within a frame).
    await page.evaluate(() => {
      const w = window as unknown as { whileSending: string[] };
      const submit = document.querySelector('button[type=submit]') as HTMLButtonElement;
      w.whileSending = [];
      new MutationObserver(() => {
        if (submit.disabled) w.whileSending.push(submit.textContent ?? '');
      }).observe(submit, { attributes: true, childList: true, subtree: true, characterData: true });
    });
    await page.fill('#name', 'Ada');
    await page.fill('#email', 'nope');
    await button(page).click();

    const error = page.locator('#email-error');
    await error.waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'react-error-de.png'), fullPage: true });
    expect(await error.textContent()).toBe('„Email“ muss eine E-Mail-Adresse sein.');
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await error.evaluate((n) => n.previousElementSibling?.id)).toBe('email');
    expect(await page.getAttribute('#email', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#email', 'aria-describedby')).toBe('email-error');
    // The other fields are not marked.
    expect(await page.getAttribute('#name', 'aria-invalid')).toBeNull();
    expect(await page.getAttribute('#name', 'aria-describedby')).toBeNull();
    expect(await status(page).textContent()).toBe('Bitte prüfen Sie die markierten Felder.');
    expect(await page.evaluate('window.whileSending')).toContain('Sending…');
    expect(await button(page).isEnabled()).toBe(true);
    expect(await button(page).textContent()).toBe('Send');
    expect(await violations(page)).toEqual([]);
    expect(await stored(projectId)).toEqual([]);

    // Corrected, the same form is sent: thanks, the marks gone, the form emptied, and D1 holds it.
    await page.fill('#email', 'ada@example.com');
    await button(page).click();
    await page.locator('[role=status][data-state=succeeded]').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'react-sent.png'), fullPage: true });
    expect(await status(page).textContent()).toBe('Thank you! We received your message.');
    expect(await page.locator('[role=alert]').count()).toBe(0);
    expect(await page.getAttribute('#email', 'aria-invalid')).toBeNull();
    expect(await page.getAttribute('#email', 'aria-describedby')).toBeNull();
    expect(await page.inputValue('#email')).toBe('');
    expect(await stored(projectId)).toEqual([{ name: 'Ada', email: 'ada@example.com', enquiry: false }]);
    // A real cross-origin request: the browser sent the preflight first (wrangler dev logs it).
    expect(site?.devLog()).toMatch(/OPTIONS \/api\/v1\/submit 204/);
    await page.close();
  });

  it("the example project as npm run dev makes it, in English: 12.5 is no phone number; the values go as the project's types", async () => {
    const exampleKey = readFileSync(join(dir, 'example-key'), 'utf8').trim();
    const page = await open(exampleKey);
    await page.fill('#name', 'Grace Hopper');
    await page.fill('#phone', '12.5');
    await button(page).click();
    const error = page.locator('#phone-error');
    await error.waitFor({ timeout: 15_000 });
    expect(await error.textContent()).toBe('“Phone” must be a whole number.');
    expect(await page.getAttribute('#phone', 'aria-describedby')).toBe('phone-error');
    expect(await status(page).textContent()).toBe('Please check the fields marked.');

    await page.fill('#phone', '2025550123');
    await page.check('#enquiry');
    await page.fill('#message', 'Hello\nfrom React');
    await button(page).click();
    await page.locator('[role=status][data-state=succeeded]').waitFor({ timeout: 15_000 });
    expect((await stored('example')).at(-1)).toEqual({
      name: 'Grace Hopper',
      phone: 2025550123,
      enquiry: true,
      message: 'Hello\nfrom React',
    });
    await page.close();
  });
});
