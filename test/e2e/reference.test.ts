// The API reference page at /reference/ (RapiDoc over the generated document), in Chromium: it
// lists the operations and shows the one chosen, axe-clean at 1280 and 375 px, loads nothing from
// another origin, and breaks no rule of its CSP. And the assets, rebuilt while `npm run dev` runs
// (as `npm test` does), keep being served.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAssets } from '../../scripts/build-assets.ts';
import { tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, type Site, startSite } from './harness.ts';

let site: Site | undefined;

const AXE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

/** axe-core's serious and critical findings on the page as it is, by rule and target. */
async function seriousFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: {
        run(): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown[] }[] }[] }>;
      };
    };
    const { violations } = await axe.run();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
  });
}

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
    // By keyboard alone: Tab reaches the operation in the navigation, Enter shows it.
    const focusedId = () =>
      page.evaluate(() => {
        let active = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        return active?.id ?? '';
      });
    for (let tabs = 0; tabs < 40 && (await focusedId()) !== 'link-post-/api/v1/submit'; tabs++) {
      await page.keyboard.press('Tab');
    }
    expect(await focusedId()).toBe('link-post-/api/v1/submit');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Submit a form' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference.png') });
    expect(await seriousFindings(page)).toEqual([]);
    expect(elsewhere).toEqual([]);
    expect(refused).toEqual([]);
  });

  it('at 375 px, where RapiDoc hides its navigation, lists the operations and opens the one tapped, without sideways scroll', async () => {
    if (!site) throw new Error('no site');
    const page = await site.browser.newPage({ viewport: { width: 375, height: 800 } });
    await page.goto(`${site.workerUrl}/reference/`);
    const row = page.getByText('/api/v1/submit', { exact: true }).first();
    await row.waitFor({ timeout: 20_000 });
    expect(await page.getByText('Not a method of this path').count()).toBe(0);
    // The row's own summary is hidden at this width; the operation, opened, shows it.
    const summary = page.getByText('Submit a form', { exact: true }).filter({ visible: true });
    expect(await summary.count()).toBe(0);
    await row.click();
    await summary.first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference-375.png') });
    expect(await seriousFindings(page)).toEqual([]);
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
