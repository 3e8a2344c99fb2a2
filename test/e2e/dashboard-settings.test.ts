// C33: the dashboard in Chromium, as a site owner sets a project up, against `npm run dev`, signed
// in on the project: add a field and see the Embed snippet change; add a webhook, see its delivery
// fail and redeliver it; the confirmation and a Slack target (C35, C36); the spam filter's settings
// (C39), its verdict in the inbox, and the signals only a form has; the stats (C40) and the audit
// log; Google Sheets, Notion, Airtable and Telegram against a stand-in (C38); 375 px and dark. What
// every screen gets (axe-core, nothing from another origin, a screenshot) is in test/e2e/dashboard.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { receiverOnLoopback } from '../cli/helpers.ts';
import { knownAccount, standIn } from '../standin.ts';
import { serveStandIn } from '../standin-server.ts';
import {
  api,
  apiKey,
  dashboardSite,
  formId,
  nav,
  page,
  post,
  projectId,
  rows,
  settings,
  shot,
  worker,
} from './dashboard.ts';

const standin = standIn();
let served: Awaited<ReturnType<typeof serveStandIn>> | undefined;
/** The receiver answers a webhook 410 (gone) until told otherwise; a Slack stand-in (C36) 200. */
let receiverStatus = 410;
const receiver = receiverOnLoopback();
receiver.answer = (path) => (path.startsWith('/services/') ? 200 : receiverStatus);
const received = () => receiver.received.filter((r) => r.path === '/hook');
const slackPosts = () => receiver.received.filter((r) => r.path.startsWith('/services/')).map((r) => r.body);

dashboardSite('dashboard-settings', {
  // C38: the integrations' services, stood in on this machine.
  devArgs: async () => {
    served = await serveStandIn(standin);
    return ['--var', `INTEGRATIONS_API_BASE:${served.origin}`];
  },
  signedIn: true,
});

afterAll(() => {
  served?.server.close();
});

describe('C33: the dashboard', () => {
  it('adds a field in Settings, and the Embed snippet has it at once', async () => {
    await settings('Fields');
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
    // C44: the message asks for several lines: a text area in the snippets (and on the page).
    await page
      .getByRole('region', { name: 'Fields' })
      .locator('li')
      .filter({ has: page.locator('strong', { hasText: /^message$/ }) })
      .getByRole('button', { name: 'Change' })
      .click();
    await page.locator('.field-editor').getByLabel('Lines').selectOption('several');
    await page.getByRole('button', { name: 'Save message' }).click();
    await page.getByRole('button', { name: 'Save message' }).waitFor({ state: 'detached' });
    await shot('settings');
    await nav('Embed').click();
    const snippet = page.locator('pre.code').first();
    await expect
      .poll(() => snippet.textContent())
      .toContain('<input type="number" id="f-age" name="age" step="1" min="18">');
    // The widget sends a form with files as multipart to the form address (C30): it has them all.
    const widget = page.getByRole('region', { name: 'Widget form' }).locator('pre.code');
    expect(await widget.textContent()).toContain(`action="${worker}/f/${formId}"`);
    expect(await widget.textContent()).toContain('<input type="file" id="f-cv" name="cv"');
    expect(await widget.textContent()).toContain('<textarea id="f-message" name="message" rows="4">');
    await page.locator('iframe.preview').last().scrollIntoViewIfNeeded();
    await shot('embed');
    // C43: the fields as the site's TypeScript module, the new field in its type.
    const types = page.getByRole('region', { name: 'TypeScript types' });
    await expect.poll(() => types.locator('pre.code').textContent()).toContain('age?: number;');
    expect(await types.locator('pre.code').textContent()).toContain('export type Submission = {');
    await types.getByRole('button', { name: 'Copy the TypeScript types' }).scrollIntoViewIfNeeded();
    await shot('embed-types');
  });

  it('adds a webhook: its delivery fails (410 disables it), and is redelivered once enabled again', async () => {
    await settings('Delivery');
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
    const confirmation = page.getByRole('region', { name: 'Confirmation email' });
    // Without a field of the email format it says what it needs; given one, it is used at once.
    const fields = page.getByRole('region', { name: 'Fields' });
    const format = async (value: string) => {
      await settings('Fields');
      const email = fields.locator('li').filter({ has: page.locator('strong', { hasText: /^email$/ }) });
      await email.getByRole('button', { name: 'Change' }).click();
      await fields.getByLabel('format').selectOption(value);
      await fields.getByRole('button', { name: 'Save email' }).click();
      // Saved when the editor closes: the project is read again at once.
      await fields.getByRole('button', { name: 'Save email' }).waitFor({ state: 'detached' });
      await settings('Delivery');
    };
    await format('');
    await confirmation.getByText('give a string field the format “email”').waitFor();
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
    await settings('Spam');
    const filter = page.getByRole('region', { name: 'Spam filter' });
    await filter.getByRole('radio', { name: /^Mark:/ }).check();
    // From the default 0.78, two steps of the keyboard; what it means on the held-out lines follows.
    await filter.getByLabel(/^Threshold/).focus();
    for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowRight');
    await filter
      .getByText(
        'At 0.80, on contact-form messages it never learnt from, a new project marks as spam 78.2% of spam and 0 of 55 genuine messages (3 unsure); on public mail, 86.5% of spam and 1 of 1,400 real mails.',
      )
      .waitFor();
    await filter.getByRole('radio', { name: /^Take only:/ }).check();
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
    expect(await saved.getByLabel(/^Threshold/).inputValue()).toBe('0.8');
    expect(await saved.getByRole('radio', { name: /^Take only:/ }).isChecked()).toBe(true);
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

  it('C39: the signals only a form has: the widget required, the countries and languages expected, saved', async () => {
    await settings('Spam');
    const filter = page.getByRole('region', { name: 'Spam filter' });
    const widget = filter.getByRole('checkbox', { name: /^Widget required/ });
    // Each control says what it costs a genuine visitor.
    const described = await widget.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe(
      'A page without /widget.js, or with scripts off, is held as spam; your server posting with a secret key is not affected.',
    );
    await widget.check();
    const countries = filter.getByLabel(/^Expected countries/);
    // The server's refusal is shown, as any setting's is.
    await countries.fill('Germany');
    await filter.getByRole('button', { name: 'Save the signals' }).click();
    await page.getByText("'Germany' is not a country code: two letters, ISO 3166-1 (DE, FR, US)").waitFor();
    await countries.fill('DE');
    await filter.getByLabel(/^Expected languages/).fill('de, en');
    await filter.getByRole('button', { name: 'Save the signals' }).click();
    await page.locator('.note').getByText('Saved', { exact: true }).last().waitFor();
    const stored = async () => {
      const { data } = await api('GET', `/projects/${projectId}`);
      return (data.project as { spamFilter: Record<string, unknown> }).spamFilter;
    };
    await expect
      .poll(stored)
      .toMatchObject({ requireWidget: true, proofOfWork: false, countries: ['DE'], languages: ['de', 'en'] });
    await page.reload();
    const saved = page.getByRole('region', { name: 'Spam filter' });
    expect(await saved.getByRole('checkbox', { name: /^Widget required/ }).isChecked()).toBe(true);
    expect(await saved.getByRole('checkbox', { name: /^Proof of work/ }).isChecked()).toBe(false);
    expect(await saved.getByLabel(/^Expected countries/).inputValue()).toBe('DE');
    expect(await saved.getByLabel(/^Expected languages/).inputValue()).toBe('de, en');
    await saved.getByRole('group', { name: 'Signals only a form has' }).scrollIntoViewIfNeeded();
    await shot('settings-spam-signals');
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
            (el) =>
              el.closest('.table-scroll, .tabs li') === null && el.getBoundingClientRect().right > width + 1,
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
    await settings('Delivery');
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
    // A sheet's test is two requests (its header row, then the row): the second may still be on its way.
    await expect
      .poll(() => standin.sheets.get('1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/Leads')?.length)
      .toBe(2);
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
        .filter((el) => el.closest('.tabs li') === null && el.getBoundingClientRect().right > width + 1)
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
});
