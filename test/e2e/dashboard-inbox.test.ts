// C33: the dashboard in Chromium, as a site owner reads what came, against `npm run dev`: sign in;
// make a project; find a submission by search and open it with a PDF and a picture; mark it spam
// and back; export what is filtered; bulk-delete; the keyboard; sign out, and a secret key's
// session sees its project only; a PDF no viewer could show is said so, not framed. What every
// screen gets (axe-core, nothing from another origin, a screenshot) is in test/e2e/dashboard.ts;
// the project's settings are test/e2e/dashboard-settings.test.ts's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  api,
  dashboardSite,
  elsewhere,
  page,
  post,
  projectId,
  rows,
  shot,
  token,
  worker,
} from './dashboard.ts';

dashboardSite('dashboard-inbox');

describe('C33: the dashboard', () => {
  it('signs in with the operator token: the token goes nowhere but the sign-in request', async () => {
    await page.goto(`${worker}/admin/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shot('signin');
    await page.getByLabel('Operator token or secret key').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.getByRole('link', { name: 'Clinic' }).waitFor();
    const storage = await page.evaluate(
      () =>
        JSON.stringify({ ...localStorage }) +
        JSON.stringify({ ...sessionStorage }) +
        document.cookie +
        location.href,
    );
    expect(storage).not.toContain(token);
    // Each card's sparkline is a line across its 30 days (the quiet ones too): painted pixels at
    // its left end and its right, on a project with submissions today alone and on one with none.
    const painted = (project: string) =>
      page
        .locator('li.card', { has: page.getByRole('link', { name: project }) })
        .locator('.spark canvas')
        .first()
        .evaluate((canvas: HTMLCanvasElement) => {
          const c = canvas.getContext('2d');
          if (c === null) return [0, 0];
          const column = (x: number) => {
            const { data } = c.getImageData(x, 0, 1, canvas.height);
            let n = 0;
            for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) n++;
            return n;
          };
          return [column(2), column(canvas.width - 3)];
        });
    for (const project of ['Clinic', 'Example']) {
      await expect.poll(() => painted(project), { timeout: 5000 }).not.toContain(0);
    }
    await shot('projects');
  });

  it('creates a project: a rule at fault is named beside its field; the key is shown once', async () => {
    const form = page.getByRole('form', { name: 'New project' });
    await form.getByLabel('Name').first().fill('Newsletter');
    // C41: where its data lives, among the worker's places.
    await form.getByLabel('Where its data lives').selectOption('eu');
    await form.getByRole('button', { name: 'Add a field' }).click();
    const age = form.locator('.field-editor').last();
    await age.getByLabel('Name').fill('age');
    await age.getByLabel('Type').selectOption('integer');
    await age.getByLabel('min').fill('65');
    await age.getByLabel('max').fill('18');
    await form.getByRole('button', { name: 'Create the project' }).click();
    // The server's check (the tool's own), shown next to the field it names.
    await age.locator('.error').waitFor();
    expect(await age.locator('.error').textContent()).toMatch(/'age'/);
    expect(await age.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await shot('new-project-error');
    await age.getByLabel('max').fill('120');
    await form.getByRole('button', { name: 'Create the project' }).click();
    await page.getByText("The project's publishable key").waitFor();
    await shot('new-project-key');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'Embed' }).waitFor();
    await page.goto(`${worker}/admin/#/`);
    await page.getByRole('link', { name: 'Newsletter' }).waitFor();
    const card = page.locator('.card', { has: page.getByRole('link', { name: 'Newsletter' }) });
    expect(await card.textContent()).toContain('data in eu');
  });

  it('finds a submission by search, and opens it with its picture and its PDF', async () => {
    await page.getByRole('link', { name: 'Clinic' }).click();
    await expect.poll(() => rows().count()).toBe(5);
    await page.keyboard.press('/');
    await page.keyboard.type('apollo guid');
    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(1);
    await rows().first().locator('.open').click();
    const detail = page.locator('.detail');
    await detail.getByText('Margaret Hamilton').waitFor();
    await expect
      .poll(() => detail.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    const pdf = await page.request.get(`${worker}${await detail.locator('iframe.pdf').getAttribute('src')}`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect(pdf.headers()['content-disposition']).toMatch(/^inline/);
    await page.waitForTimeout(500);
    await shot('submission');
  });

  it('marks it spam and back', async () => {
    const detail = page.locator('.detail');
    await detail.getByRole('button', { name: 'Spam', exact: true }).click();
    await detail.getByText('Spam: not delivered.').waitFor();
    await detail.getByRole('button', { name: 'Not spam' }).click();
    await detail.getByRole('button', { name: 'Spam', exact: true }).waitFor();
    const { data } = await api('GET', `/projects/${projectId}/audit?limit=2`);
    expect(
      (data.entries as { action: string; detail: { spam: boolean } }[]).map((e) => e.detail.spam),
    ).toEqual([false, true]);
  });

  it('exports exactly what is filtered', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'CSV' }).click();
    const csv = readFileSync((await (await download).path()) ?? '', 'utf8')
      .trim()
      .split('\n');
    expect(csv).toHaveLength(2);
    expect(csv[0]).toBe('id,received_at,name,email,message,photo,cv');
    expect(csv[1]).toContain('Margaret Hamilton');
  });

  it('selects many and deletes them, after a confirmation that says how many', async () => {
    await page.getByRole('button', { name: 'Close the submission' }).click();
    await page.getByLabel('Search the values').fill('');
    await expect.poll(() => rows().count()).toBe(5);
    await rows().nth(3).getByRole('checkbox').check();
    await rows().nth(4).getByRole('checkbox').check();
    await page.getByRole('toolbar').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Delete 2 submissions? This cannot be undone.').waitFor();
    await shot('bulk-delete');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rows().count()).toBe(3);
  });

  it('the keyboard: j and k move, s stars, o opens, # deletes after asking', async () => {
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await page.keyboard.press('s');
    await expect.poll(() => page.locator('.rows .star[aria-pressed="true"]').count()).toBe(1);
    await page.keyboard.press('o');
    await page.locator('.detail').waitFor();
    await page.keyboard.press('#');
    await page.getByText('Delete 1 submission? This cannot be undone.').waitFor();
    await page.keyboard.press('Escape');
    expect(await rows().count()).toBe(3);
    await shot('inbox');
  });

  it('signs out, and a secret key signs in to its own project only', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const other = await api('POST', '/projects', {
      name: 'Elsewhere',
      fields: [{ name: 'a', type: 'string' }],
    });
    const { data } = await api('POST', `/projects/${projectId}/keys`, { kind: 'secret' });
    await page.getByLabel('Operator token or secret key').fill(String(data.key));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Inbox' }).waitFor();
    expect(await page.getByRole('link', { name: 'All projects' }).count()).toBe(0);
    await page.goto(`${worker}/admin/#/p/${String(other.data.projectId)}/settings`);
    await page.getByText(`Unknown project '${String(other.data.projectId)}'`).waitFor();
    await page.goto(`${worker}/admin/#/`);
    await expect.poll(() => page.locator('.rows > li').count()).toBeGreaterThan(0);
    await shot('secret-key');
    expect(elsewhere).toEqual([]);
  });

  it('a PDF no viewer could show is said so plainly, with its size in bytes and its download; nothing is framed', async () => {
    // The README's cv.pdf (14 bytes): a header and an end, and nothing between.
    const broken = Buffer.from('%PDF-1.7\n%EOF\n');
    await post({
      name: 'Barbara Liskov',
      message: 'Abstract data types',
      cv: [broken, 'cv.pdf', 'application/pdf'],
    });
    // Newest first: no search, which sees a submission only once the queue has indexed it.
    await page.reload();
    await rows().filter({ hasText: 'Barbara Liskov' }).locator('.open').click();
    const detail = page.locator('.detail');
    await detail.getByText('This PDF cannot be shown here: it looks damaged or empty.').waitFor();
    expect(await detail.locator('iframe').count()).toBe(0);
    expect(await detail.locator('.file').textContent()).toContain('(application/pdf, 14 bytes)');
    const link = detail.getByRole('link', { name: 'Download it' });
    expect(await link.getAttribute('download')).toBe('cv.pdf');
    const download = page.waitForEvent('download');
    await link.click();
    expect(readFileSync((await (await download).path()) ?? '')).toEqual(broken);
    await shot('pdf-not-shown');
  });
});
