// C33: the dashboard in Chromium, as a site owner uses it, against `npm run dev`: sign in; find a
// submission by search and open it with a PDF and a picture; mark it spam and back; bulk-delete;
// export what is filtered; add a field and see the Embed snippet change; add a webhook, see its
// delivery fail and redeliver it; the spam filter's settings (C39) and its verdict in the inbox;
// the keyboard; 375 px and dark; sign out; a secret key's session sees its project only. axe-core
// finds no serious or critical violation on any screen, and nothing is fetched from another
// origin. Screenshots go to test/e2e/artifacts/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devVar } from '../../scripts/dev-vars.ts';
import { receiverOnLoopback, tempDir } from '../cli/helpers.ts';
import { knownAccount, standIn } from '../standin.ts';
import { serveStandIn } from '../standin-server.ts';
import { ARTIFACTS, type Site, startSite } from './harness.ts';

const AXE = readFileSync(join(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');
const PNG = readFileSync(join(import.meta.dirname, 'fixtures/photo.png'));
const PDF = readFileSync(join(import.meta.dirname, 'fixtures/cv.pdf'));

let site: Site | undefined;
const standin = standIn();
let served: Awaited<ReturnType<typeof serveStandIn>> | undefined;
let page: Page;
let worker = '';
let token = '';
let projectId = '';
let formId = '';
let apiKey = '';
/** The receiver answers a webhook 410 (gone) until told otherwise; a Slack stand-in (C36) 200. */
let receiverStatus = 410;
const receiver = receiverOnLoopback();
receiver.answer = (path) => (path.startsWith('/services/') ? 200 : receiverStatus);
const received = () => receiver.received.filter((r) => r.path === '/hook');
const slackPosts = () => receiver.received.filter((r) => r.path.startsWith('/services/')).map((r) => r.body);
const elsewhere: string[] = [];

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${worker}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as { data: Record<string, unknown> };
}

async function post(fields: Record<string, string | [Buffer, string, string]>) {
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

async function shot(name: string) {
  await page.screenshot({ path: join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });
  await accessible(name);
}

const nav = (tab: string) =>
  page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: tab, exact: true });
const rows = () => page.locator('.rows > li');

beforeAll(async () => {
  // C38: the integrations' services, stood in on this machine.
  served = await serveStandIn(standin);
  site = await startSite(tempDir('dashboard'), { path: '/', render: () => '' }, [
    '--var',
    `INTEGRATIONS_API_BASE:${served.origin}`,
  ]);
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
  page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('request', (r) => {
    // The network only: the browser's own PDF viewer loads its parts from inside the browser.
    if (/^https?:/.test(r.url()) && !r.url().startsWith(worker)) elsewhere.push(r.url());
  });
}, 180_000);

afterAll(async () => {
  served?.server.close();
  await site?.stop();
});

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

  it('adds a field in Settings, and the Embed snippet has it at once', async () => {
    await nav('Settings').click();
    // Typing in one form survives a change saved by another (the project is read again).
    const honeypot = page.getByRole('region', { name: 'Behaviour' }).getByLabel('Honeypot field');
    await honeypot.fill('website');
    await page.getByRole('button', { name: 'Add a field' }).click();
    const editor = page.locator('.field-editor').last();
    await editor.getByLabel('Name').fill('age');
    await editor.getByLabel('Type').selectOption('integer');
    await editor.getByLabel('min').fill('18');
    await page.getByRole('button', { name: 'Add the field' }).click();
    await page.getByText('age', { exact: true }).waitFor();
    // The project as read again: the new field listed with its own Change button.
    await page
      .getByRole('region', { name: 'Fields' })
      .locator('li')
      .filter({ has: page.locator('strong', { hasText: /^age$/ }) })
      .getByRole('button', { name: 'Change' })
      .waitFor();
    expect(await honeypot.inputValue()).toBe('website');
    await honeypot.fill('');
    await shot('settings');
    await nav('Embed').click();
    const snippet = page.locator('pre.code').first();
    await expect
      .poll(() => snippet.textContent())
      .toContain('<input type="number" id="f-age" name="age" step="1" min="18">');
    // The widget sends a form with files as multipart to the form address (C30): it has them all.
    const widget = page.locator('pre.code').last();
    expect(await widget.textContent()).toContain(`action="${worker}/f/${formId}"`);
    expect(await widget.textContent()).toContain('<input type="file" id="f-cv" name="cv"');
    await page.locator('iframe.preview').last().scrollIntoViewIfNeeded();
    await shot('embed');
  });

  it('adds a webhook: its delivery fails (410 disables it), and is redelivered once enabled again', async () => {
    await nav('Settings').click();
    const webhooks = page.getByRole('region', { name: 'Webhooks' });
    await webhooks.getByLabel('Webhook URL').fill(receiver.url);
    await webhooks.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText("The webhook's signing secret").waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    const res = await fetch(`${worker}/api/v1/submit`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Dorothy Vaughan', message: 'FORTRAN' }),
    });
    expect(res.status).toBe(201);
    await expect.poll(() => received().length, { timeout: 30_000 }).toBe(1);
    await nav('Deliveries').click();
    await page.getByText('Disabled: the receiver answered 410 Gone').waitFor({ timeout: 15_000 });
    await page.locator('.deliveries summary').first().click();
    await shot('deliveries-failed');
    receiverStatus = 200;
    await page.getByRole('button', { name: 'Enable it again' }).click();
    await page.getByRole('button', { name: 'Redeliver every failed one' }).click();
    await expect.poll(() => received().length, { timeout: 15_000 }).toBe(2);
    await page.locator('.state.delivered').first().waitFor();
    await shot('deliveries');
  });

  it('turns on the confirmation and adds a Slack target: both are listed in Deliveries with their attempts', async () => {
    await nav('Settings').click();
    const confirmation = page.getByRole('region', { name: 'Confirmation email' });
    // Without a field of the email format it says what it needs; given one, it is used at once.
    const fields = page.getByRole('region', { name: 'Fields' });
    const format = async (value: string) => {
      const email = fields.locator('li').filter({ has: page.locator('strong', { hasText: /^email$/ }) });
      await email.getByRole('button', { name: 'Change' }).click();
      await fields.getByLabel('format').selectOption(value);
      await fields.getByRole('button', { name: 'Save email' }).click();
    };
    await format('');
    await confirmation.getByText('give a string field the format “email”').waitFor();
    await nav('Embed').click();
    await nav('Settings').click();
    await format('email');
    await confirmation.getByLabel('Reply-To (your address)').fill('owner@example.com');
    // The operator's say-so (C35): this project has no Turnstile (its siteverify needs the network).
    await confirmation.getByText('The project has no Turnstile secret').waitFor();
    await confirmation.getByLabel('Open: send it for submissions that passed no Turnstile challenge').check();
    await confirmation.getByRole('button', { name: 'Turn the confirmation on' }).click();
    await confirmation.getByRole('button', { name: 'Save the confirmation' }).waitFor();
    const webhooks = page.getByRole('region', { name: 'Webhooks' });
    await webhooks.getByLabel('Kind').selectOption('slack');
    await webhooks.getByLabel('Webhook URL').fill(`${receiver.origin}/services/T0/B0/standin`);
    await webhooks.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Added: its URL is a secret, and is not shown again').waitFor();
    // C36: the hook's URL is a secret, never listed whole.
    await expect.poll(() => webhooks.textContent()).toContain('Slack: ');
    expect(await webhooks.textContent()).not.toContain('standin');
    await shot('settings-integrations');
    const res = await fetch(`${worker}/api/v1/submit`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: '<!channel> Mary Jackson',
        email: 'mj@example.com',
        message: 'Wind tunnels',
      }),
    });
    expect(res.status).toBe(201);
    await expect.poll(() => slackPosts().length, { timeout: 30_000 }).toBe(1);
    expect(JSON.parse(slackPosts()[0] ?? '{}').blocks).toContainEqual({
      type: 'section',
      text: { type: 'plain_text', text: 'name\n<!channel> Mary Jackson', emoji: false },
    });
    const delivered = async () => {
      const { data } = await api('GET', `/projects/${projectId}/deliveries`);
      const all = data.deliveries as { kind: string; status: string }[];
      return ['confirmation', 'slack'].filter((k) =>
        all.some((d) => d.kind === k && d.status === 'delivered'),
      );
    };
    await expect.poll(delivered, { timeout: 30_000 }).toEqual(['confirmation', 'slack']);
    await nav('Deliveries').click();
    for (const name of ['Confirmations to submitters', /^Slack: /]) {
      const target = page.getByRole('region', { name });
      await target.locator('.state.delivered').first().waitFor();
      await target.locator('summary').first().click();
      await expect.poll(() => target.getByRole('table').textContent()).toMatch(/#WhenAnswerTook1/);
    }
    await shot('deliveries-integrations');
  });

  it('C39: the spam filter: a mode, a threshold and a block-list entry saved; its verdict in the inbox', async () => {
    await nav('Settings').click();
    const filter = page.getByRole('region', { name: 'Spam filter' });
    await filter.getByRole('radio', { name: /^Mark:/ }).check();
    // From the default 0.50, ten steps of the keyboard; what it means on the corpus follows.
    await filter.getByLabel(/^Threshold/).focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    await filter
      .getByText(
        'On the public SpamAssassin corpus at 0.60: catches 80.7% of spam; marks as spam 2 of 1,400 real messages.',
      )
      .waitFor();
    await filter.getByRole('button', { name: 'Save the spam filter' }).click();
    await page.locator('.note').getByText('Saved', { exact: true }).waitFor();
    const block = filter.getByRole('region', { name: 'Block list' });
    const entry = block.getByLabel('Address, domain or phrase to block');
    // The server's refusal is shown, as any setting's is.
    await block.getByLabel('Kind').selectOption('domain');
    await entry.fill('not a domain');
    await block.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText("'not a domain' is not a domain (example.com)").waitFor();
    await block.getByLabel('Kind').selectOption('phrase');
    await entry.fill('guest post');
    await block.getByRole('button', { name: 'Add', exact: true }).click();
    await block.getByRole('button', { name: 'Remove phrase guest post from the block list' }).waitFor();
    await page.reload();
    const saved = page.getByRole('region', { name: 'Spam filter' });
    await saved.getByRole('button', { name: 'Remove phrase guest post from the block list' }).waitFor();
    expect(await saved.getByRole('radio', { name: /^Mark:/ }).isChecked()).toBe(true);
    expect(await saved.getByLabel(/^Threshold/).inputValue()).toBe('0.6');
    expect(await saved.textContent()).toMatch(/Learnt from your marks: \d+ spam, \d+ not spam\./);
    await saved.scrollIntoViewIfNeeded();
    await shot('settings-spam');

    // A pitch: judged within seconds by the queue's consumer, marked (not held) by the block list.
    await post({ name: 'Sam', message: 'Can I write a guest post for your blog?' });
    const judged = async () => {
      const { data } = await api('GET', `/projects/${projectId}/submissions?verdict=spam`);
      return (data.submissions as { fields: { name: string } }[]).map((s) => s.fields.name);
    };
    await expect.poll(judged, { timeout: 30_000 }).toEqual(['Sam']);
    await nav('Inbox').click();
    const pitch = rows().filter({ hasText: 'guest post for your blog' });
    // Its reason is text, as typed: the tag shows it whole, the row's ellipsis aside.
    await expect
      .poll(() => pitch.locator('.tag.spam').textContent())
      .toBe('spam 1.00 · block list: phrase guest post');
    await page.locator('.filters summary').click();
    await page.getByLabel('Verdict').selectOption('spam');
    await expect.poll(() => rows().count()).toBe(1);
    await pitch.locator('.open').click();
    await page
      .locator('.detail')
      .getByText('Spam filter: spam (score 1.00) — block list: phrase guest post')
      .waitFor();
    await shot('inbox-verdict');
  });

  it('stats (C40: the funnel and where visitors gave up) and the audit log', async () => {
    // Two visitors saw the form, one started it and left at the message.
    const event = (ua: string, body: Record<string, unknown>) =>
      fetch(`${worker}/api/v1/events`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', 'User-Agent': ua },
        body: JSON.stringify({ form: formId, ...body }),
      });
    for (const [ua, body] of [
      ['one', { type: 'view' }],
      ['two', { type: 'view' }],
      ['two', { type: 'start' }],
      ['two', { type: 'leave', field: 'message', ms: 42_000 }],
    ] as const)
      expect((await event(ua, body)).status).toBe(204);
    // The worker writes its batch of events within seconds (ANALYTICS_FLUSH_MS).
    await expect
      .poll(
        async () => {
          const { data } = await api('GET', `/projects/${projectId}/stats?days=1`);
          return (data.dropOff as { visitors: number }[]).some((d) => d.visitors > 0);
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    await nav('Stats').click();
    await page.getByRole('table').getByText('Accepted').waitFor();
    const funnel = page.getByRole('region', { name: 'Funnel' });
    await funnel.getByText('Saw the form').waitFor();
    expect(await funnel.locator('.funnel-step').first().textContent()).toContain('2');
    expect(await funnel.getByText('after 42 s on average').count()).toBe(1);
    await shot('stats');
    await page.setViewportSize({ width: 375, height: 800 });
    // The chart follows the new width when its ResizeObserver runs: polled, not read at once.
    const overflow = () =>
      page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        return [...document.querySelectorAll('main *')]
          .filter(
            (el) => el.closest('.table-scroll') === null && el.getBoundingClientRect().right > width + 1,
          )
          .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`)
          .slice(0, 8);
      });
    await expect.poll(overflow, { timeout: 5000 }).toEqual([]);
    await shot('stats-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    await nav('Audit').click();
    await page.getByText('webhook.add').first().waitFor();
    await shot('audit');
  });

  it('C38: adds Google Sheets, Notion, Airtable and Telegram, and tests each against the stand-in', async () => {
    await nav('Settings').click();
    const section = page.getByRole('region', { name: 'Integrations' });
    const form = section.getByRole('form', { name: 'Add an integration' });
    const account = await knownAccount(standin);
    const add = async (kind: string, label: string, values: [string, string][]) => {
      await form.getByRole('combobox').selectOption(kind);
      // By the start of its label: "Table" is also in the service list's "Airtable".
      for (const [field, value] of values)
        await form.getByLabel(new RegExp(`^${field.replace(/[()]/g, '\\$&')}`)).fill(value);
      await form.getByRole('button', { name: `Add ${label}` }).click();
      await expect
        .poll(() =>
          section
            .locator('li')
            .filter({ hasText: `${label}:` })
            .count(),
        )
        .toBe(1);
    };
    await add('google-sheets', 'Google Sheets', [
      ['Spreadsheet id', '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms'],
      ['Sheet (tab)', 'Leads'],
      ["The service account's JSON key", JSON.stringify(account)],
    ]);
    await add('notion', 'Notion', [
      ['Database id', '0123456789abcdef0123456789abcdef'],
      ['Integration secret', standin.notionToken],
    ]);
    await add('airtable', 'Airtable', [
      ['Base id', 'appAbCdEfGhIjKlMn'],
      ['Table', 'Leads'],
      ['Personal access token', standin.airtableToken],
    ]);
    await add('telegram', 'Telegram', [
      ['Chat id', standin.telegramChat],
      ['Bot token', standin.telegramToken],
    ]);
    // Secrets are write-only: the page shows their last four characters, never more.
    const shown = (await section.textContent()) ?? '';
    expect(shown).not.toContain('PRIVATE KEY');
    expect(shown).not.toContain(standin.telegramToken);
    expect(shown).toContain(`secret …${standin.telegramToken.slice(-4)}`);
    expect(shown).toContain(`shared with ${account.client_email}`);
    for (const label of ['Google Sheets', 'Notion', 'Airtable', 'Telegram']) {
      const sent = standin.log.length;
      await section
        .locator('li')
        .filter({ hasText: `${label}:` })
        .getByRole('button', { name: 'Test' })
        .click();
      await expect.poll(() => standin.log.length).toBeGreaterThan(sent);
    }
    await page.getByText('The test was sent: look for it there').first().waitFor();
    expect(standin.log.filter((l) => l.refused !== undefined)).toEqual([]);
    expect(standin.sheets.get('1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/Leads')?.length).toBe(2);
    expect(standin.pages).toHaveLength(1);
    expect(standin.airtableRequests).toHaveLength(1);
    // The stand-in logs a request when it arrives and keeps its message once the body is read.
    await expect.poll(() => standin.messages.length).toBe(1);
    expect(standin.messages[0]?.text).toContain('A test from edge-forms');
    await shot('integrations');
  });

  it('is usable 375 px wide, and follows a dark preference', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await nav('Inbox').click();
    await expect.poll(() => rows().count()).toBeGreaterThan(0);
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > width + 1)
        .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`)
        .slice(0, 8);
    });
    expect(overflow).toEqual([]);
    await shot('inbox-375');
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(17, 20, 24)');
    await shot('inbox-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 900 });
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
});
