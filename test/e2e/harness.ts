// What the browser tests share: `npm run dev` on one port, the page's server on another (so that
// the page and the worker are different origins), and Debian's Chromium driven by playwright-core.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
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

/** Starts the worker (`npm run dev` on `dir`), the page server (`servePage(port, workerUrl)`), and Chromium. */
export async function startSite(
  dir: string,
  servePage: (port: number, workerUrl: string) => Promise<Server>,
): Promise<Site> {
  if (!CHROMIUM) throw new Error('chromium is not installed: apt-get install chromium');
  mkdirSync(ARTIFACTS, { recursive: true });
  const [workerPort, pagePort] = [await freePort(), await freePort()];
  const workerUrl = `http://127.0.0.1:${workerPort}`;
  const started = await startDev(dir, workerPort);
  const dev: ChildProcess = started.process;
  const pages = await servePage(pagePort, workerUrl);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
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
