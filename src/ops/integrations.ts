// C38: a project's built-in integrations (Google Sheets, Notion, Airtable, Telegram): targets of
// the same delivery machinery as webhooks. Their secrets (a service account's key, a token) are
// write-only: kept as given, since the worker must use them, and shown only by their last four
// characters; never in the audit log.
import * as v from 'valibot';
import { INTEGRATION_KINDS, type IntegrationKind } from '../../schema/tables.ts';
import { airtableTableUrl, isDotSegment, sendToAirtable } from '../delivery/airtable.ts';
import { assertion, type ServiceAccount, sendToSheet, TOKEN_URI } from '../delivery/google-sheets.ts';
import type { IntegrationAnswer, IntegrationContext } from '../delivery/integrations.ts';
import { sendToNotion } from '../delivery/notion.ts';
import { sendToTelegram } from '../delivery/telegram.ts';
import { Conflict, InvalidInput, NotFound } from '../lib/faults.ts';
import type { DeliveryToSend } from '../store/deliveries.ts';
import {
  removeWebhook as deleteTarget,
  insertWebhook,
  listWebhooks as listTargets,
  newIntegrationId,
  setWebhookEnabled as switchTarget,
  type Webhook,
} from '../store/targets.ts';
import { type Manager, recordChange, requireProject } from './context.ts';

/** At most this many integrations per project. */
export const MAX_INTEGRATIONS = 10;

const text = (max: number, what: string) =>
  v.pipe(
    v.string(`${what} must be text`),
    v.trim(),
    v.nonEmpty(`${what} is missing`),
    v.maxLength(max, `${what} is too long`),
  );

/** A service account's JSON key, as Google gives it: what signing needs, and Google's token URI. */
const ServiceAccountKey = v.looseObject({
  type: v.literal(
    'service_account',
    "serviceAccount is not a service account's key (its type is not service_account)",
  ),
  client_email: v.pipe(v.string(), v.email('serviceAccount.client_email is not an address')),
  private_key: v.pipe(
    v.string(),
    v.includes('-----BEGIN PRIVATE KEY-----', 'serviceAccount.private_key is not a PEM private key'),
    v.maxLength(10_000),
  ),
  private_key_id: v.optional(v.pipe(v.string(), v.maxLength(100))),
  token_uri: v.optional(v.literal(TOKEN_URI, `serviceAccount.token_uri must be ${TOKEN_URI}`)),
});

/** C38: what adds an integration, by its kind (the API's body, and the tool's options). */
export const IntegrationInput = v.variant(
  'kind',
  [
    v.strictObject({
      kind: v.literal('google-sheets'),
      spreadsheetId: v.pipe(
        v.string(),
        v.regex(
          /^[A-Za-z0-9_-]{20,100}$/,
          'spreadsheetId is the long id in the sheet’s address (…/d/<id>/edit)',
        ),
      ),
      sheet: v.optional(text(100, 'sheet'), 'Sheet1'),
      serviceAccount: ServiceAccountKey,
    }),
    v.strictObject({
      kind: v.literal('notion'),
      token: text(300, 'token'),
      databaseId: v.pipe(
        v.string(),
        v.trim(),
        v.transform((id) => id.replace(/-/g, '').toLowerCase()),
        v.regex(/^[0-9a-f]{32}$/, 'databaseId is the 32 hexadecimal digits in the database’s link'),
      ),
    }),
    v.strictObject({
      kind: v.literal('airtable'),
      token: text(300, 'token'),
      baseId: v.pipe(
        v.string(),
        v.regex(/^app[A-Za-z0-9]{14}$/, 'baseId is app… (17 characters, in the base’s address)'),
      ),
      table: v.pipe(
        text(200, 'table'),
        v.check((t) => !isDotSegment(t), "table is the table's id (tbl…) or its name, not '.' or '..'"),
      ),
    }),
    v.strictObject({
      kind: v.literal('telegram'),
      botToken: v.pipe(
        v.string(),
        v.regex(
          /^\d{5,20}:[A-Za-z0-9_-]{30,60}$/,
          'botToken is what BotFather gave (digits, a colon, a key)',
        ),
      ),
      chatId: v.pipe(
        v.union([v.string(), v.number()]),
        v.transform(String),
        v.regex(
          /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/,
          'chatId is a number (a group’s is negative) or @channel',
        ),
      ),
    }),
  ],
  `kind must be one of ${INTEGRATION_KINDS.join(', ')}`,
);
export type IntegrationInput = v.InferInput<typeof IntegrationInput>;
type Parsed = v.InferOutput<typeof IntegrationInput>;

/** The input checked, or one clear problem (never echoing a secret). */
export function parseIntegration(input: unknown): Parsed {
  const parsed = v.safeParse(IntegrationInput, input);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const path = issue?.path?.map((p) => String(p.key)).join('.');
  const message = issue?.message ?? 'Invalid integration';
  // Our own messages name their field; valibot's own ("Invalid type: …") are given the path.
  const last = path?.split('.').pop();
  throw new InvalidInput(
    path === undefined || last === undefined || message.includes(last) ? message : `${path}: ${message}`,
  );
}

/** Its settings (no secret), its secret, and where it writes, as a row of targets keeps them. */
function rowOf(input: Parsed): { config: Record<string, string>; secret: string; url: string } {
  switch (input.kind) {
    case 'google-sheets':
      return {
        config: { spreadsheetId: input.spreadsheetId, sheet: input.sheet },
        secret: JSON.stringify(input.serviceAccount),
        url: `https://sheets.googleapis.com/v4/spreadsheets/${input.spreadsheetId}`,
      };
    case 'notion':
      return {
        config: { databaseId: input.databaseId },
        secret: input.token,
        url: `https://api.notion.com/v1/databases/${input.databaseId}`,
      };
    case 'airtable':
      return {
        config: { baseId: input.baseId, table: input.table },
        secret: input.token,
        url: airtableTableUrl(input.baseId, input.table),
      };
    case 'telegram':
      return { config: { chatId: input.chatId }, secret: input.botToken, url: 'https://api.telegram.org' };
  }
}

/** C38: a secret as it is ever shown: its last four characters. */
export const lastFour = (secret: string) => `…${secret.slice(-4)}`;

/** An integration as it is listed: its settings, and its secret by its last four characters only. */
export type IntegrationView = {
  integrationId: string;
  kind: IntegrationKind;
  settings: Record<string, string>;
  /** The token's (or, for Google, the key id's) last four characters. */
  secret: string;
  /** Google Sheets: the service account's address, which the sheet is shared with. */
  serviceAccount?: string;
  state: 'active' | 'disabled';
  disabledAt: string | null;
  disabledReason: Webhook['disabledReason'];
  createdAt: string;
};

function integrationView(w: Webhook): IntegrationView {
  const kind = w.kind as IntegrationKind;
  const account = kind === 'google-sheets' ? (JSON.parse(w.secret) as ServiceAccount) : undefined;
  return {
    integrationId: w.id,
    kind,
    settings: JSON.parse(w.config ?? '{}') as Record<string, string>,
    secret: lastFour(account === undefined ? w.secret : (account.private_key_id ?? account.client_email)),
    ...(account === undefined ? {} : { serviceAccount: account.client_email }),
    state: w.disabledAt === null ? 'active' : 'disabled',
    disabledAt: w.disabledAt,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt,
  };
}

const noIntegration = (projectId: string, id: string) =>
  new NotFound(`Project '${projectId}' has no integration '${id}'`, 'see: forms integration list');

/** Adds an integration: checked (a Google key must sign), kept, and from the next submission delivered to. */
export async function addIntegration(
  m: Manager,
  projectId: string,
  input: unknown,
): Promise<IntegrationView> {
  const parsed = parseIntegration(input);
  if (parsed.kind === 'google-sheets') {
    try {
      await assertion(parsed.serviceAccount as ServiceAccount, new Date());
    } catch {
      throw new InvalidInput(
        'serviceAccount.private_key could not sign: give the JSON key file exactly as Google made it',
      );
    }
  }
  const p = await requireProject(m, projectId);
  if ((await listTargets(m.db, p.id, INTEGRATION_KINDS)).length >= MAX_INTEGRATIONS) {
    throw new Conflict(`Project '${p.id}' has ${MAX_INTEGRATIONS} integrations already: remove one first`);
  }
  const { config, secret, url } = rowOf(parsed);
  const id = newIntegrationId();
  await insertWebhook(m.db, {
    id,
    projectId: p.id,
    kind: parsed.kind,
    url,
    secret,
    config: JSON.stringify(config),
  });
  // The settings are no secret; the token and the key never reach the log.
  await recordChange(m, p.id, 'integration.add', { integrationId: id, kind: parsed.kind, ...config });
  const [row] = (await listTargets(m.db, p.id, INTEGRATION_KINDS)).filter((w) => w.id === id);
  if (row === undefined) throw noIntegration(p.id, id);
  return integrationView(row);
}

export async function listIntegrations(m: Manager, projectId: string): Promise<IntegrationView[]> {
  const p = await requireProject(m, projectId);
  return (await listTargets(m.db, p.id, INTEGRATION_KINDS)).map(integrationView);
}

async function requireIntegration(m: Manager, projectId: string, id: string) {
  const p = await requireProject(m, projectId);
  const row = (await listTargets(m.db, p.id, INTEGRATION_KINDS)).find((w) => w.id === id);
  if (row === undefined) throw noIntegration(p.id, id);
  return { p, row };
}

/** Removes an integration, with its deliveries. */
export async function removeIntegration(m: Manager, projectId: string, id: string): Promise<void> {
  const { p, row } = await requireIntegration(m, projectId, id);
  if (!(await deleteTarget(m.db, p.id, id, row.kind))) throw noIntegration(p.id, id);
  await recordChange(m, p.id, 'integration.remove', { integrationId: id });
}

/**
 * Turns an integration on (its cancelled and failed deliveries can then be sent again with
 * `deliveries redeliver --failed`) or off (its pending deliveries are cancelled), as a webhook.
 */
export async function setIntegrationEnabled(m: Manager, projectId: string, id: string, enabled: boolean) {
  const { p } = await requireIntegration(m, projectId, id);
  if (!(await switchTarget(m.db, p.id, id, enabled))) throw noIntegration(p.id, id);
  await recordChange(m, p.id, enabled ? 'integration.enable' : 'integration.disable', { integrationId: id });
  return { projectId: p.id, integrationId: id, state: enabled ? ('active' as const) : ('disabled' as const) };
}

/** How a test is sent: from the worker (its settings) or the tool (this machine). */
export type TestOptions = {
  allowLocalHttp: boolean;
  publicUrl?: string | undefined;
  integrationsApiBase?: string | undefined;
  fetch?: typeof fetch;
};

/**
 * Sends a test row or message now, as a submission would go (its first field says it is a test),
 * and gives the service's answer. A failure here disables nothing.
 */
export async function testIntegration(m: Manager, projectId: string, id: string, options: TestOptions) {
  const { p, row } = await requireIntegration(m, projectId, id);
  const now = new Date();
  const names = p.fields.map((f) => f.name);
  const first = p.fields.find((f) => f.type === 'string')?.name ?? names[0] ?? 'test';
  const test: DeliveryToSend = {
    id: `test_${crypto.randomUUID()}`,
    status: 'pending',
    attempts: 1,
    projectId: p.id,
    submissionId: `test_${crypto.randomUUID()}`,
    receivedAt: now.toISOString(),
    data: JSON.stringify({ [first]: 'A test from edge-forms: this can be deleted' }),
    files: null,
    webhookId: row.id,
    kind: row.kind,
    url: row.url,
    secret: row.secret,
    previousSecret: null,
    previousUntil: null,
    disabledAt: null,
    disabledReason: null,
    leaseUntil: null,
    projectName: p.name,
    replyToField: null,
    confirmField: null,
    confirmSubject: null,
    confirmBody: null,
    confirmReplyTo: null,
    confirmOpen: false,
    challenge: null,
    choices: null,
    config: row.config,
    fieldSpecs: JSON.stringify(p.fields.map((f) => ({ name: f.name, type: f.type }))),
  };
  const ctx: IntegrationContext = {
    apiBase: options.allowLocalHttp ? options.integrationsApiBase : undefined,
    publicUrl: options.publicUrl,
    fetch: options.fetch ?? fetch,
    now,
  };
  const kind = row.kind as IntegrationKind;
  const answer: IntegrationAnswer =
    kind === 'google-sheets'
      ? await sendToSheet(test, ctx)
      : kind === 'notion'
        ? await sendToNotion(test, ctx)
        : kind === 'airtable'
          ? await sendToAirtable([test], ctx)
          : await sendToTelegram(test, ctx);
  return {
    integrationId: row.id,
    kind,
    ok: answer.ok,
    status: answer.status,
    error: answer.error,
    excerpt: answer.excerpt,
  };
}
