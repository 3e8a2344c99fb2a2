// The API reference page at /reference/ (RapiDoc over the generated document), in Chromium: it
// lists the operations and shows the one chosen, loads nothing from another origin, and breaks no
// rule of its CSP. And the assets, rebuilt while `npm run dev` runs (as `npm test` does), keep
// being served.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAssets } from '../../scripts/build-assets.ts';
import { tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, type Site, startSite } from './harness.ts';

let site: Site | undefined;

beforeAll(async () => {
  site = await startSite(tempDir('reference'), { path: '/', render: () => '' });
});
afterAll(async () => {
  await site?.stop();
});

describe('C24: the API reference page', () => {
  it('lists the operations of the generated document and shows the one chosen, with nothing fetched from elsewhere', async () => {
    if (!site) throw new Error('no site');
    const page = await site.browser.newPage();
    const elsewhere: string[] = [];
    const refused: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(site?.workerUrl ?? '')) elsewhere.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') refused.push(m.text());
    });
    const res = await page.goto(`${site.workerUrl}/reference/`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'self'");
    // Its navigation lists each operation by its summary; the operations that only refuse their
    // method are said once, in the introduction, instead (C16). RapiDoc writes a path's braces as '-'.
    for (const [id, summary] of [
      ['post-/api/v1/submit', 'Submit a form'],
      ['get-/api/v1/submissions', "A page of the key's project's submissions (C24)"],
      ['post-/f/-formId-', 'Submit a plain HTML form, with files (C29, C30)'],
    ]) {
      const item = page.locator(`[id="link-${id}"]`);
      await item.waitFor({ timeout: 20_000 });
      expect(await item.textContent()).toContain(summary);
    }
    expect(await page.getByText('Not a method of this path').count()).toBe(0);
    await page.getByText('A method a path does not list answers 405').waitFor();
    await page.locator('[id="link-post-/api/v1/submit"]').click();
    await page.getByRole('heading', { name: 'Submit a form' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference.png') });
    expect(elsewhere).toEqual([]);
    expect(refused).toEqual([]);
  });

  it('rebuilding the assets while npm run dev runs keeps /widget.js and the document served', async () => {
    if (!site) throw new Error('no site');
    await buildAssets();
    for (let i = 0; i < 3; i++) {
      const widget = await fetch(`${site.workerUrl}/widget.js`);
      expect(widget.status).toBe(200);
      expect(widget.headers.get('Content-Type')).toMatch(/javascript/);
      expect((await fetch(`${site.workerUrl}/api/v1/openapi.json`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });
});
