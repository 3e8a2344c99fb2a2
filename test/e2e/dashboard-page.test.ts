// C33, C44: the dashboard's Page screen in Chromium, against `npm run dev`, as an owner designs the
// project's hosted page: off, it is previewed all the same, and says it is off; turned on in English and German,
// with a German title and a field's German label written in Settings → Fields, the real page in the
// frame speaks German once German is chosen; its logo is uploaded and shown; its address is copied,
// and its QR code holds exactly that address, downloadable as SVG; a field labelled "Passwort" is
// warned of, in Settings and on the Page screen. Each step axe-clean, at 1280 and 375 px wide.
import { readFileSync } from 'node:fs';
import { encode } from 'uqr';
import { describe, expect, it } from 'vitest';
import { api, dashboardSite, formId, nav, page, projectId, settings, shot, worker } from './dashboard.ts';

dashboardSite('dashboard-page', { signedIn: true });

const frame = () => page.frameLocator('iframe.page-frame');
const address = () => `${worker}/f/${formId}`;
const fields = () => page.getByRole('region', { name: 'Fields' });
const field = (name: string) =>
  fields()
    .locator('li')
    .filter({ has: page.locator('strong', { hasText: new RegExp(`^${name}$`) }) });

/**
 * How far the framed page's Send button reaches past the frame's bottom edge, in pixels (0 or
 * less when it is seen whole), once the frame has taken the page's height.
 */
async function sendBeyondFrame(): Promise<number> {
  const [button, box] = await Promise.all([
    frame().locator('form button').boundingBox(),
    page.locator('iframe.page-frame').boundingBox(),
  ]);
  if (button === null || box === null) throw new Error('no frame or no Send button');
  return button.y + button.height - (box.y + box.height);
}

/** Elements of the screen reaching past its right edge at its width. */
const overflow = () =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.closest('.tabs li') === null && el.getBoundingClientRect().right > width + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`)
      .slice(0, 8);
  });

async function openPage(lang?: string) {
  await nav('Page').click();
  await page.getByRole('heading', { level: 1, name: /^Page/ }).waitFor();
  if (lang !== undefined) await page.getByLabel('Language to write and preview').selectOption(lang);
}

describe('C44: the Page screen', () => {
  it('previews the page while it is off, and says it is off', async () => {
    await openPage();
    await page.getByText('The page is off: this is how it will look once it is on.').waitFor();
    await frame().getByRole('heading', { level: 1, name: 'Clinic' }).waitFor();
    expect((await fetch(address())).status).toBe(404);
    await shot('page-off');
  });

  it('turns the page on in English and German, and the frame shows the German title once German is chosen', async () => {
    await page.getByLabel('The page is on').check();
    await frame().getByRole('heading', { level: 1, name: 'Clinic' }).waitFor();
    await page.getByLabel('Language tag').fill('de');
    await page.getByRole('button', { name: 'Add the language' }).click();
    await page.getByRole('button', { name: 'Move German (de) up' }).waitFor();
    await page.getByLabel('Language to write and preview').selectOption('de');
    await page.getByLabel('Title in German (de)').fill('Schreiben Sie uns');
    await page.getByRole('button', { name: 'Save the texts in German (de)' }).click();
    await frame().getByRole('heading', { level: 1, name: 'Schreiben Sie uns' }).waitFor();
    expect(await frame().locator('html').getAttribute('lang')).toBe('de');
    // English, the default, has no title of its own: its box shows what the page shows instead.
    await page.getByLabel('Language to write and preview').selectOption('en');
    expect(await page.getByLabel('Title in English (en)').getAttribute('placeholder')).toBe(
      'Schreiben Sie uns',
    );
    // With no thanks written, the box shows the page's own thanks in that language.
    expect(
      await page.getByLabel('Thanks in English (en), once the form is sent').getAttribute('placeholder'),
    ).toBe('Thank you! Your form was sent.');
    await page.getByLabel('Language to write and preview').selectOption('de');
    const { data } = await api('GET', `/projects/${projectId}`);
    expect((data.project as { page: unknown }).page).toMatchObject({
      enabled: true,
      languages: ['en', 'de'],
      title: { de: 'Schreiben Sie uns' },
    });
  });

  it("gives a field a German label in Settings → Fields, which the German page's form shows", async () => {
    await settings('Fields');
    await field('message').getByRole('button', { name: 'Change' }).click();
    await fields().getByText('What the field shows').click();
    const german = fields().getByRole('group', { name: 'German (de)' });
    await german.getByLabel('Label').fill('Ihre Nachricht');
    await german.getByLabel('Help').fill('Worum geht es?');
    await shot('page-field-editor');
    await fields().getByRole('button', { name: 'Save message' }).click();
    await field('message').getByRole('button', { name: 'Change' }).waitFor();
    const { data } = await api('GET', `/projects/${projectId}`);
    const message = (data.project as { fields: { name: string }[] }).fields.find((f) => f.name === 'message');
    expect(message).toMatchObject({ label: { de: 'Ihre Nachricht' }, help: { de: 'Worum geht es?' } });
    await openPage('de');
    await frame().getByLabel('Ihre Nachricht').waitFor();
    await frame().getByText('Worum geht es?').waitFor();
  });

  it('warns of a field labelled "Passwort", in Settings → Fields and on the Page screen', async () => {
    await settings('Fields');
    await page.getByRole('button', { name: 'Add a field' }).click();
    const editor = page.locator('.field-editor').last();
    await editor.getByLabel('Name').fill('code');
    await editor.getByText('What the field shows').click();
    await editor.getByRole('group', { name: 'German (de)' }).getByLabel('Label').fill('Passwort');
    // Said as it is typed, before it is saved.
    await editor.getByText('looks like it asks for a password').waitFor();
    await page.getByRole('button', { name: 'Add the field' }).click();
    await field('code').getByText('looks like it asks for a password').waitFor();
    expect(await fields().getByText('looks like it asks for').count()).toBe(1);
    await shot('page-settings-fields');
    await openPage('de');
    await field('code').getByText('A hosted page must never ask for a password').waitFor();
    expect(await fields().getByText('looks like it asks for').count()).toBe(1);
  });

  it('uploads a logo, shown on the screen and in the frame', async () => {
    await page.getByLabel('Upload a logo').setInputFiles('test/e2e/fixtures/photo.png');
    await page.getByText('A PNG image of 8.5 kB.').waitFor();
    await page.getByRole('img', { name: "The page's logo" }).waitFor();
    await frame().getByRole('img', { name: 'Clinic' }).waitFor();
  });

  it("shares the page's address: copied by its button, and a QR code that holds exactly it", async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: worker });
    const share = page.getByRole('region', { name: 'Share' });
    await share.getByRole('link', { name: address() }).waitFor();
    await share.getByRole('button', { name: 'Copy the link' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(address());
    const qr = share.getByRole('img', { name: `QR code of the page's address, ${address()}` });
    await qr.waitFor();
    // Its dark modules are uqr's for the address, row by row: the code holds that address.
    const expected = encode(address(), { ecc: 'M', border: 4 });
    const dark = await qr.evaluate((svg) =>
      [...svg.querySelectorAll('rect[fill="#000"]')].flatMap((r) => {
        const [x, y, w] = ['x', 'y', 'width'].map((a) => Number(r.getAttribute(a)));
        return Array.from({ length: w ?? 0 }, (_, i) => `${(x ?? 0) + i},${y}`);
      }),
    );
    const wanted = expected.data.flatMap((row, y) => row.flatMap((on, x) => (on ? [`${x},${y}`] : [])));
    expect(dark.sort()).toEqual(wanted.sort());
    const download = share.getByRole('link', { name: 'Download the QR code (SVG)' });
    expect(await download.getAttribute('download')).toBe(`${formId}-qr.svg`);
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe(`${formId}-qr.svg`);
    const path = await file.path();
    const svg = readFileSync(path, 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1">/);
    expect(svg).toContain(`viewBox="0 0 ${expected.size * 10} ${expected.size * 10}"`);
  });

  it("asks for Turnstile's site key while the project checks Turnstile, and the page shows the widget by it", async () => {
    await api('PATCH', `/projects/${projectId}`, { page: { enabled: false } });
    await api('PATCH', `/projects/${projectId}`, { turnstileSecret: '1x0000000000000000000000000000000AA' });
    await nav('Inbox').click();
    await openPage('de');
    const box = page.getByRole('region', { name: 'Turnstile' });
    await box.getByText("it can be on once the widget's site key is here").waitFor();
    // Without it, the page stays off, and says why.
    await page.getByLabel('The page is on').check();
    await page.getByText('needs its site key').first().waitFor();
    expect((await fetch(address())).status).toBe(404);
    await box.getByLabel('Site key').fill('1x00000000000000000000AA');
    await box.getByRole('button', { name: 'Save the site key' }).click();
    await frame()
      .locator('.cf-turnstile[data-sitekey="1x00000000000000000000AA"]')
      .waitFor({ state: 'attached' });
    await page.getByLabel('The page is on').check();
    await expect.poll(async () => (await fetch(address())).status).toBe(200);
    expect(await box.getByText('it can be on once').count()).toBe(0);
    await frame().locator('.cf-turnstile').waitFor({ state: 'attached' });
    await shot('page-turnstile');
  });

  it('is axe-clean with the German page framed, at 1280 and at 375 px wide', async () => {
    await frame().getByRole('heading', { level: 1, name: 'Schreiben Sie uns' }).waitFor();
    // The frame is as tall as the page: its form is seen down to its Send button.
    await expect.poll(sendBeyondFrame, { timeout: 5000 }).toBeLessThanOrEqual(0);
    await shot('page');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(overflow, { timeout: 5000 }).toEqual([]);
    // The frame comes after the settings, one column: drawn once scrolled to.
    await page.locator('iframe.page-frame').scrollIntoViewIfNeeded();
    await frame().getByRole('heading', { level: 1, name: 'Schreiben Sie uns' }).waitFor();
    await expect.poll(sendBeyondFrame, { timeout: 5000 }).toBeLessThanOrEqual(0);
    await shot('page-375');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
