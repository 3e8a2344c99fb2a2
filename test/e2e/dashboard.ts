// C33: what the dashboard's browser tests share: a file's own `npm run dev`, with the Clinic
// project and five submissions (one with a picture and a PDF); a page in Chromium; and what every
// screen gets: a screenshot (in test/e2e/artifacts/), axe-core finding no serious or critical
// violation, and nothing fetched from another origin.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { devVar } from '../../toolkit/dev-vars.ts';
import { tempDir } from '../cli/helpers.ts';
import { ARTIFACTS, type Site, startSite } from './harness.ts';

const AXE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');
const PNG = readFileSync(join(import.meta.dirname, 'fixtures/photo.png'));
const PDF = readFileSync(join(import.meta.dirname, 'fixtures/cv.pdf'));

let site: Site | undefined;
export let page: Page;
export let worker = '';
export let token = '';
export let projectId = '';
export let formId = '';
export let apiKey = '';
/** The directory `npm run dev` keeps its state in (its local D1: see withDatabase). */
export let siteDir = '';
export const elsewhere: string[] = [];

export async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${worker}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as { data: Record<string, unknown> };
}

export async function post(fields: Record<string, string | [Buffer, string, string]>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields))
    form.append(k, typeof v === 'string' ? v : new File([new Uint8Array(v[0])], v[1], { type: v[2] }));
  const res = await fetch(`${worker}/f/${formId}`, {
    method: 'POST',
    body: form,
    headers: { Accept: 'application/json' },
  });
  expect(res.status).toBe(201);
}

/** axe-core on the page as it is: no serious or critical violation. */
async function accessible(name: string) {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            c: Document,
            o: object,
          ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, name).toEqual([]);
}

export async function shot(name: string) {
  await page.screenshot({ path: join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });
  await accessible(name);
}

export const nav = (tab: string) =>
  page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: tab, exact: true });
/** C33: one of Settings' screens, by its link in the settings' own navigation. */
export async function settings(job: string) {
  await nav('Settings').click();
  await page
    .getByRole('navigation', { name: 'Settings' })
    .getByRole('link', { name: job, exact: true })
    .click();
}
export const rows = () => page.locator('.rows > li');

/**
 * The file's site, from its first beforeAll to its last afterAll: `npm run dev` in a directory of
 * its own (`name`), with the arguments `devArgs` gives once it has run; the Clinic project and its
 * submissions; a page that notes every request to another origin. With `signedIn`, the page is
 * signed in with the operator token, on the Clinic project; with `timezoneId`, its browser is in
 * that zone (else the machine's). Once the file has run, its page has fetched nothing from another
 * origin.
 */
export function dashboardSite(
  name: string,
  options: { devArgs?: () => Promise<string[]>; signedIn?: boolean; timezoneId?: string } = {},
) {
  beforeAll(async () => {
    siteDir = tempDir(name);
    site = await startSite(siteDir, { path: '/', render: () => '' }, (await options.devArgs?.()) ?? []);
    worker = site.workerUrl;
    token = devVar('ADMIN_TOKEN') ?? '';
    const created = await api('POST', '/projects', {
      name: 'Clinic',
      fields: [
        { name: 'name', type: 'string', required: true },
        { name: 'email', type: 'string', rules: { format: 'email' } },
        { name: 'message', type: 'string' },
        { name: 'photo', type: 'file', rules: { accept: ['image/*'], maxSize: '1MB' } },
        { name: 'cv', type: 'file', rules: { accept: ['application/pdf'], maxSize: '1MB' } },
      ],
    });
    ({ projectId, formId, apiKey } = created.data as { projectId: string; formId: string; apiKey: string });
    await post({
      name: 'Margaret Hamilton',
      email: 'mh@example.com',
      message: 'Apollo guidance',
      photo: [PNG, 'me.png', 'image/png'],
      cv: [PDF, 'cv.pdf', 'application/pdf'],
    });
    for (const [name, message] of [
      ['Ada Lovelace', 'Analytical engines'],
      ['Grace Hopper', 'Compilers, please'],
      ['Alan Turing', 'Computable numbers'],
      ['Katherine Johnson', 'Orbital mechanics'],
    ]) {
      await post({ name: name ?? '', email: 'someone@example.com', message: message ?? '' });
    }
    page = await site.browser.newPage({
      viewport: { width: 1280, height: 900 },
      ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId }),
    });
    page.on('request', (r) => {
      // The network only: the browser's own PDF viewer loads its parts from inside the browser.
      if (/^https?:/.test(r.url()) && !r.url().startsWith(worker)) elsewhere.push(r.url());
    });
    if (options.signedIn) {
      await page.goto(`${worker}/admin/`);
      await page.getByLabel('Operator token or secret key').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'Clinic' }).click();
      await nav('Inbox').waitFor();
    }
  }, 180_000);

  afterAll(async () => {
    await site?.stop();
    expect(elsewhere).toEqual([]);
  });
}
