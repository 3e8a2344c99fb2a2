// C39: the signals only a form has, in Chromium against `npm run dev`: the example page with the
// widget, which asks for its token when the form is first seen. A person's pace is ham, and so is a
// person who reads for six seconds, pastes a long message and types the rest, even where the
// widget is required (strict); the same page filled and sent by a script within half a second is
// accepted (a bot learns nothing), unsure at most on that alone, held where the widget is
// required; a strict project holds a curl post without a token; one that requires a proof of work
// takes the widget's (solved in the background) and refuses curl's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submissions } from '../../schema/tables.ts';
import { updateProject } from '../../src/ops/project-settings.ts';
import { createProjectFromSpecs } from '../../src/ops/projects.ts';
import { tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, type Site, startSite, withDatabase } from './harness.ts';

const PAGE = readFileSync(join(import.meta.dirname, '../../examples/contact.html'), 'utf8');
/** A person's browser, not one that says it is headless: only the pace tells a person from a script. */
const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIELDS = [
  'name:string',
  'email:string:format=email',
  'phone:integer',
  'enquiry:boolean',
  'message:string',
];
const MESSAGE = 'Hello, could you tell me whether the workshop on Saturday still has places for two people?';
const SUCCESS = 'Thank you! We received your message.';

const dir = tempDir('signals');
let site: Site | undefined;
let browser: Browser | undefined;
let workerUrl = '';
let pageUrl = '';

/** The example page as a site would serve it, with the key asked for; analytics off (C40 aside). */
function render(url: URL, worker: string): string {
  return PAGE.replaceAll('http://localhost:8787', worker)
    .replace('edgeform_PASTE_THE_KEY_FROM_NPM_RUN_DEV', url.searchParams.get('key') ?? '')
    .replace('<form', '<form data-analytics="off"');
}

/** A project of its own in the database `npm run dev` is serving, with the spam settings given. */
function madeProject(name: string, spamFilter?: { requireWidget?: boolean; proofOfWork?: boolean }) {
  return withDatabase(dir, async (db) => {
    const made = await createProjectFromSpecs(db, { name, fields: FIELDS });
    if (spamFilter !== undefined)
      await updateProject({ db, actor: { kind: 'tool' } }, made.projectId, { spamFilter });
    return made;
  });
}

type Judged = { verdict: string | null; reason: { layer: string; signals: string[] } | null };

/**
 * The project's submissions once the queue's consumer judged them all: within seconds, or after one
 * retry (the consumer retries a message whose database call failed 30 s later, and a local D1 on a
 * busy two-core machine may fail one), so the wait covers one.
 */
async function judged(projectId: string, count = 1): Promise<Judged[]> {
  const read = () =>
    withDatabase(dir, async (db) =>
      (
        await db
          .select({ verdict: submissions.verdict, reason: submissions.spamReason })
          .from(submissions)
          .where(eq(submissions.projectId, projectId))
      ).map((r) => ({ verdict: r.verdict, reason: JSON.parse(r.reason ?? 'null') })),
    );
  await expect
    .poll(async () => (await read()).filter((r) => r.verdict !== null).length, { timeout: 75_000 })
    .toBe(count);
  return read();
}

async function open(key: string): Promise<Page> {
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext({ userAgent: USER_AGENT, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(`${pageUrl}/contact.html?key=${encodeURIComponent(key)}`);
  await page.waitForFunction("'EdgeForms' in window");
  return page;
}

/** The widget's answer: its success, once the worker said 201. */
async function succeeded(page: Page, name?: string) {
  const status = page.locator('[data-forms-status][data-state="success"]');
  await status.waitFor({ timeout: 20_000 });
  expect(await status.textContent()).toBe(SUCCESS);
  if (name !== undefined) await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** A person types: 60 to 100 ms a key. */
async function typed(page: Page, selector: string, text: string) {
  await page.click(selector);
  for (const char of text) await page.keyboard.type(char, { delay: 60 + Math.floor(Math.random() * 41) });
}

/** A script's post, as curl sends it: no widget, no token, no Accept-Language. */
function curl(key: string, body: Record<string, unknown>) {
  return fetch(`${workerUrl}/api/v1/submit`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      'User-Agent': 'curl/8.5.0',
      Accept: '*/*',
    },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  site = await startSite(dir, { path: '/contact.html', render });
  ({ browser, workerUrl, pageUrl } = site);
});

afterAll(async () => {
  await site?.stop();
});

// Each test may wait for one retry of the consumer (judged, above): longer than the files' 60 s.
describe('C39: the signals only a form has, in Chromium', { timeout: 120_000 }, () => {
  it("a person's pace through the widget: 201, then ham", async () => {
    const project = await madeProject('Person');
    const page = await open(project.apiKey);
    await page.waitForTimeout(800);
    await typed(page, '#name', 'Ada Lovelace');
    await page.waitForTimeout(400);
    await typed(page, '#email', 'ada@example.com');
    await page.waitForTimeout(600);
    await typed(page, '#message', MESSAGE);
    await page.waitForTimeout(300);
    await page.click('button[type=submit]');
    await succeeded(page);
    const [row] = await judged(project.projectId);
    expect(row?.verdict).toBe('ham');
    await page.context().close();
  });

  it('a person who reads for six seconds, pastes a long message and types the rest: ham, even where the widget is required', async () => {
    const project = await madeProject('Paster', { requireWidget: true });
    const page = await open(project.apiKey);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: pageUrl });
    const pasted = `${MESSAGE} We are a group of two adults and one child, arriving by train at about ten, and would need the ground floor room if it is still free. Could you also tell me whether lunch is included?`;
    expect(pasted.length).toBeGreaterThan(250);
    await page.evaluate((text) => navigator.clipboard.writeText(text), pasted);
    // Reads the page first.
    await page.waitForTimeout(6_000);
    await page.click('#message');
    await page.keyboard.press('ControlOrMeta+V');
    expect(await page.inputValue('#message')).toBe(pasted);
    await typed(page, '#message', ' Thanks!');
    await typed(page, '#name', 'Ada Lovelace');
    await typed(page, '#email', 'ada@example.com');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/v1/submit') && r.method() === 'POST');
    await page.click('button[type=submit]');
    // The widget tells what was pasted from what was typed, and counts from the first interaction.
    const body = JSON.parse((await sent).postData() ?? '{}') as Record<string, string>;
    expect(Number(body._pasted)).toBeGreaterThanOrEqual(pasted.length);
    expect(Number(body._pasted)).toBeLessThan(pasted.length + 10);
    expect(Number(body._fill_ms)).toBeLessThan(6_000);
    await succeeded(page, 'signals-paste');
    const [row] = await judged(project.projectId);
    expect(row?.verdict).toBe('ham');
    await page.context().close();
  });

  it('the same page filled and sent by a script within half a second: 201, then unsure on that alone; held where the widget is required', async () => {
    const fill = async (projectId: string, key: string, shot?: string) => {
      const page = await open(key);
      await page.fill('#name', 'Ada Lovelace');
      await page.fill('#email', 'ada@example.com');
      await page.fill('#message', MESSAGE);
      await page.click('button[type=submit]');
      // A bot learns nothing: the page says what it says to a person.
      await succeeded(page, shot);
      await page.context().close();
      const [row] = await judged(projectId);
      return row;
    };
    const loose = await madeProject('Script');
    const unsure = await fill(loose.projectId, loose.apiKey);
    expect(unsure?.verdict).not.toBe('spam');
    const strict = await madeProject('Script, strict', { requireWidget: true });
    const held = await fill(strict.projectId, strict.apiKey, 'signals-script-fill');
    expect(held?.verdict).toBe('spam');
    expect(held?.reason?.layer).toBe('widget');
    expect(held?.reason?.signals).toHaveLength(1);
    expect(held?.reason?.signals[0]).toMatch(/^filled in 0\.\d s$/);
  });

  it('a project that requires the widget: a curl post with its key is 201, then held, "no widget token"', async () => {
    const project = await madeProject('Widget required', { requireWidget: true });
    const res = await curl(project.apiKey, {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: MESSAGE,
    });
    expect(res.status).toBe(201);
    expect(await judged(project.projectId)).toEqual([
      { verdict: 'spam', reason: { layer: 'widget', signals: ['no widget token'] } },
    ]);
  });

  it("a project that requires a proof of work: the widget's post is 201 (solved in the background), curl's 400", async () => {
    const project = await madeProject('Proof of work', { proofOfWork: true });
    const page = await open(project.apiKey);
    await typed(page, '#name', 'Ada Lovelace');
    await typed(page, '#message', 'Two places on Saturday, please.');
    await page.click('button[type=submit]');
    await succeeded(page);
    const res = await curl(project.apiKey, { name: 'Ada Lovelace', message: MESSAGE });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      data: {
        message: 'Invalid request body',
        error: {
          message:
            "This form requires a proof of work (the 'altcha' field): send it through /widget.js, which solves it",
          code: 'proof_of_work_failed',
        },
      },
      status: { code: 400, message: 'Bad Request' },
    });
    // Only the widget's submission was stored.
    expect(await judged(project.projectId)).toHaveLength(1);
    await page.context().close();
  });
});
