// C40: form analytics from a real browser: the example page with the widget, opened by five
// visitors (five browsers: a visitor is counted once a day), typed into by three, sent by two; the
// third leaves the page, and the stats read 5 views, 3 starts, 2 submissions and where they left.
// A plain HTML form with the widget's script on its page is counted by its form address.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProjectStats, submissionStats } from '../../src/ops/stats.ts';
import { tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, launchBrowser, type Site, startSite, withDatabase } from './harness.ts';

const PAGE = readFileSync(join(import.meta.dirname, '../../examples/contact.html'), 'utf8');

const dir = tempDir('analytics');
let site: Site | undefined;
let pageUrl = '';
let exampleKey = '';

/** The example page; `?plain` makes its form a plain one posting to the form address, the widget's script still on the page. */
function render(url: URL, worker: string): string {
  const html = PAGE.replaceAll('http://localhost:8787', worker).replace(
    'edgeform_PASTE_THE_KEY_FROM_NPM_RUN_DEV',
    exampleKey,
  );
  if (!url.searchParams.has('plain')) return html;
  return html
    .replace(`data-endpoint="${worker}/api/v1/submit"`, `action="${worker}/f/f_example" method="post"`)
    .replace(`data-key="${exampleKey}"`, '');
}

function stats(): Promise<ProjectStats> {
  return withDatabase(dir, (db) => submissionStats({ db, actor: { kind: 'tool' } }, 'example', 1));
}

/** Waits until the stats say what is expected (the worker writes its batch within seconds). */
async function statsWhen(ready: (s: ProjectStats) => boolean): Promise<ProjectStats> {
  const deadline = Date.now() + 30_000;
  let last = await stats();
  while (!ready(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    last = await stats();
  }
  return last;
}

const today = (s: ProjectStats) => s.days[s.days.length - 1];

const browsers = new Map<number, Browser>();

/**
 * A visitor: a browser of their own, with its own user agent (given to the browser itself: a
 * context's override does not reach a beacon sent as the page is left), on the page.
 */
async function visit(n: number, query = ''): Promise<{ context: BrowserContext; page: Page }> {
  let browser = browsers.get(n);
  if (browser === undefined) {
    browser = await launchBrowser([`--user-agent=Visitor ${n} (analytics test)`]);
    browsers.set(n, browser);
  }
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${pageUrl}/contact.html${query}`);
  await page.waitForFunction("'EdgeForms' in window");
  return { context, page };
}

beforeAll(async () => {
  site = await startSite(dir, { path: '/contact.html', render });
  ({ pageUrl } = site);
  exampleKey = readFileSync(join(dir, 'example-key'), 'utf8').trim();
});

afterAll(async () => {
  for (const b of browsers.values()) await b.close();
  await site?.stop();
});

describe('C40: form analytics in Chromium', () => {
  it('five visitors, three start, two send: 5 views, 3 starts, 2 submissions, and the field the third left at', async () => {
    const visitors = [];
    for (let n = 1; n <= 5; n++) visitors.push(await visit(n));
    for (const { page } of visitors.slice(0, 3)) {
      await page.fill('#name', 'Ada Lovelace');
      await page.fill('#email', 'ada@example.com');
    }
    // As long as a person takes to type it all (C39: a form sent sooner is held as spam, and spam is
    // no accepted submission).
    await visitors[0]?.page.waitForTimeout(6_000);
    for (const { page } of visitors.slice(0, 2)) {
      await page.fill('#message', 'Could you send me the slides of your talk? Thank you.');
      await page.click('button[type=submit]');
      await page.locator('[data-forms-status][data-state="success"]').waitFor({ timeout: 15_000 });
    }
    // The third typed a message and leaves without sending it.
    const third = visitors[2]?.page as Page;
    await third.fill('#message', 'I was going to ask');
    await third.screenshot({ path: join(ARTIFACTS, 'analytics-left.png'), fullPage: true });
    await third.goto('about:blank');
    const s = await statsWhen((x) => {
      const d = today(x);
      // The submit events (their time to submit) may land in a batch after the counts': waited for too.
      return (
        d?.views === 5 &&
        d.starts === 3 &&
        d.accepted === 2 &&
        x.dropOff.some((f) => f.visitors > 0) &&
        x.medianSecondsToSubmit !== null
      );
    });
    expect(today(s)).toMatchObject({
      views: 5,
      starts: 3,
      accepted: 2,
      completionRate: 0.6667,
      conversionRate: 0.4,
    });
    expect(s.dropOff.filter((f) => f.visitors > 0)).toEqual([
      { field: 'message', step: 1, visitors: 1, averageSeconds: expect.any(Number) },
    ]);
    expect(s.medianSecondsToSubmit).toEqual(expect.any(Number));
    for (const { context } of visitors) await context.close();
  });

  it('a reload is not a new view; a plain form with the widget script on its page is counted by its form address', async () => {
    const again = await visit(1);
    await statsWhen((x) => (today(x)?.views ?? 0) >= 1);
    const before = today(await stats())?.views ?? 0;
    await again.page.reload();
    await again.page.waitForFunction("'EdgeForms' in window");
    const plain = await visit(6, '?plain');
    expect(await plain.page.locator('form').getAttribute('action')).toMatch(/\/f\/f_example$/);
    const s = await statsWhen((x) => (today(x)?.views ?? 0) >= before + 1);
    expect(today(s)?.views).toBe(before + 1);
    await again.context.close();
    await plain.context.close();
  });
});
