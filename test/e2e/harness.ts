// What the browser tests share: `npm run dev` on one port, the page's server on another (so that
// the page and the worker are different origins), and Debian's Chromium driven by playwright-core.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { createProjectFromSpecs } from '../../src/ops/projects.ts';
import { submissionPages } from '../../src/store/inbox.ts';
import { openDatabase } from '../../toolkit/database.ts';
import { freePort, startDev } from '../cli/helpers.ts';

/** Screenshots of each final state. */
export const ARTIFACTS = join(import.meta.dirname, 'artifacts');
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

export type Site = {
  workerUrl: string;
  pageUrl: string;
  browser: Browser;
  devLog: () => string;
  stop(): Promise<void>;
};

/** The one page a test serves, as a site would: its path, and its HTML for each request's URL. */
export type SitePage = { path: string; render: (url: URL, workerUrl: string) => string };

/** The page on its own port (every other path is 404). */
function servePage(port: number, workerUrl: string, page: SitePage): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== page.path) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page.render(url, workerUrl));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/** Debian's Chromium, headless, offline; `args` added to the usual ones. */
export function launchBrowser(args: string[] = []): Promise<Browser> {
  if (!CHROMIUM) throw new Error('chromium is not installed: apt-get install chromium');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...args,
    ],
  });
}

/** Starts the worker (`npm run dev` on `dir`, with `devArgs` for wrangler), the page's server, and Chromium. */
export async function startSite(dir: string, page: SitePage, devArgs: string[] = []): Promise<Site> {
  if (!CHROMIUM) throw new Error('chromium is not installed: apt-get install chromium');
  mkdirSync(ARTIFACTS, { recursive: true });
  const [workerPort, pagePort] = [await freePort(), await freePort()];
  const workerUrl = `http://127.0.0.1:${workerPort}`;
  const started = await startDev(dir, workerPort, devArgs);
  const dev: ChildProcess = started.process;
  const pages = await servePage(pagePort, workerUrl, page);
  const browser = await launchBrowser();
  return {
    workerUrl,
    pageUrl: `http://127.0.0.1:${pagePort}`,
    browser,
    devLog: started.log,
    async stop() {
      await browser.close();
      pages.close();
      if (dev.pid) process.kill(-dev.pid, 'SIGTERM');
    },
  };
}

/**
 * A read of the database `npm run dev` is writing at the same time (the widget's analytics are
 * written every few seconds, C40): one that meets the writer's lock is tried again, a few times.
 * The lock reaches us as SQLITE_BUSY, or as D1's "internal error" while it gets its commit token.
 */
export async function reading<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      const text = error instanceof Error ? `${error.message} ${String(error.cause)}` : String(error);
      if (attempt >= 10 || !/unavailable|SQLITE_BUSY|locked|commit token: internal error/i.test(text))
        throw error;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}

type Database = Awaited<ReturnType<typeof openDatabase>>['db'];

/** An action on the database `npm run dev` is serving from `dir`, tried again when it meets its lock. */
export function withDatabase<T>(dir: string, action: (db: Database) => Promise<T>): Promise<T> {
  return reading(async () => {
    const { db, close } = await openDatabase({ remote: false, persistTo: dir });
    try {
      return await action(db);
    } finally {
      await close();
    }
  });
}

/** A project of its own in that database (at worst, after a retry, a second unused one of the name). */
export const madeProject = (dir: string, spec: Parameters<typeof createProjectFromSpecs>[1]) =>
  withDatabase(dir, (db) => createProjectFromSpecs(db, spec));

/** What D1 holds for a project, oldest first, spam too: the queue may judge a row (C39) before a test reads it. */
export const storedRows = (dir: string, projectId: string) =>
  withDatabase(dir, async (db) => {
    const rows: { id: string; data: Record<string, unknown> }[] = [];
    for await (const page of submissionPages(db, projectId, { includeSpam: true }))
      rows.push(...page.map((r) => ({ id: r.id, data: JSON.parse(r.data) as Record<string, unknown> })));
    return rows;
  });

const AXE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

/** axe-core on the page as it is: the ids of its serious or critical violations (none expected). */
export async function accessible(page: Page): Promise<string[]> {
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
