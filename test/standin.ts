// C26, C36, C38: one stand-in for the services the channels talk to, checking what each real API
// checks: Google's token endpoint verifies the JWT with the service account's public key, its
// claims and lifetime; Sheets, Notion and Airtable the Bearer token; Notion its version header and
// the page's shape; Airtable the records' shape and count; Telegram the bot's token and the chat;
// Slack's and Discord's incoming webhooks their token and a message's having something to show; a
// signed webhook's receiver the Standard Webhooks headers. A function from a Request to a
// Response: the workerd tests put it in place of fetch, and `serveStandIn` (test/standin-server.ts)
// serves it over HTTP for `npm run dev` (INTEGRATIONS_API_BASE). `standInTarget` gives a minimal
// target of every kind that speaks HTTP, as the stand-in knows it: the conformance suite
// (test/channels.test.ts) runs its cases on each.
import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI, jwtVerify } from 'jose';
import type { KindOf } from '../src/delivery/channels/index.ts';

export const TOKEN_URI = 'https://oauth2.googleapis.com/token';
export const SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

export type Account = {
  type: 'service_account';
  client_email: string;
  private_key: string;
  private_key_id: string;
  token_uri: string;
};

/** A service account as Google's JSON key gives it, with its public key for the stand-in. */
export async function newServiceAccount(email = 'forms@stand-in.iam.gserviceaccount.com') {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const account: Account = {
    type: 'service_account',
    client_email: email,
    private_key: await exportPKCS8(privateKey),
    private_key_id: `k${crypto.randomUUID().replace(/-/g, '')}`,
    token_uri: TOKEN_URI,
  };
  return { account, publicKey: await exportSPKI(publicKey) };
}

type Json = Record<string, unknown>;
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** What a test can make the next answer of a service be, instead of the real one. */
export type Forced = { status: number; headers?: Record<string, string>; body?: unknown };
export type Service = 'token' | 'sheets' | 'notion' | 'airtable' | 'telegram' | Hook;
/** C26, C36: the hooks' receivers: a signed webhook's (the owner's server), Slack's and Discord's. */
type Hook = 'webhook' | 'slack' | 'discord';

export type StandIn = {
  handle(request: Request): Promise<Response>;
  /** The accounts, tokens and destinations the services know. */
  accounts: Map<string, string>;
  notionToken: string;
  /** Notion databases not shared with the integration: a page in one is 404 object_not_found, as Notion answers. */
  notionUnshared: Set<string>;
  airtableToken: string;
  telegramToken: string;
  telegramChat: string;
  /** C36: the token of the one Slack hook and the one Discord hook there are. */
  slackToken: string;
  discordToken: string;
  /** What each service received that it took. */
  sheets: Map<string, unknown[][]>;
  pages: Json[];
  airtableRequests: { base: string; table: string; records: { fields: Json }[]; at: number }[];
  messages: { chat_id: unknown; text: string; body: Json }[];
  exchanges: number;
  /** Every request, and its refusal if refused. */
  log: { service: Service | 'unknown'; url: string; refused?: string }[];
  /** Answers to give instead, per service, in order. */
  force(service: Service, ...answers: Forced[]): void;
  /** Tokens Google no longer takes (401). */
  revokeTokens(): void;
  /** A record Airtable cannot take (a value it cannot convert): the whole request is refused, 422. */
  airtableRefuses: (fields: Json) => boolean;
};

export function standIn(): StandIn {
  const tokens = new Set<string>();
  const forced = new Map<Service, Forced[]>();
  const s: StandIn = {
    accounts: new Map(),
    notionToken: 'ntn_standin_notion_token_0001',
    notionUnshared: new Set(),
    airtableToken: 'patStandIn.airtable0001',
    telegramToken: '123456789:AAstandinTelegramTokenForTests0001',
    telegramChat: '-1001234567890',
    slackToken: 'standinSlackHookToken0001',
    discordToken: 'standin-Discord_hook-token-0001',
    sheets: new Map(),
    pages: [],
    airtableRequests: [],
    messages: [],
    exchanges: 0,
    log: [],
    force(service, ...answers) {
      forced.set(service, [...(forced.get(service) ?? []), ...answers]);
    },
    revokeTokens() {
      tokens.clear();
    },
    airtableRefuses: () => false,
    async handle(request) {
      const url = new URL(request.url);
      const service: Service | 'unknown' =
        url.pathname === '/token'
          ? 'token'
          : url.pathname.startsWith('/v4/spreadsheets/')
            ? 'sheets'
            : url.pathname.startsWith('/v1/')
              ? 'notion'
              : url.pathname.startsWith('/v0/')
                ? 'airtable'
                : url.pathname.startsWith('/bot')
                  ? 'telegram'
                  : url.pathname.startsWith('/services/')
                    ? 'slack'
                    : url.pathname.startsWith('/api/webhooks/')
                      ? 'discord'
                      : url.pathname.startsWith('/hooks/')
                        ? 'webhook'
                        : 'unknown';
      const entry: StandIn['log'][number] = { service, url: request.url };
      s.log.push(entry);
      // Google's token endpoint answers `{"error": "invalid_grant", "error_description": …}`.
      const refuse = (
        status: number,
        why: string,
        body: unknown = why.startsWith('invalid_grant')
          ? { error: 'invalid_grant', error_description: why }
          : { error: why },
      ) => {
        entry.refused = why;
        return json(status, body);
      };
      if (service === 'unknown') return refuse(404, 'no such API');
      const next = forced.get(service)?.shift();
      if (next !== undefined) return json(next.status, next.body ?? { error: 'forced' }, next.headers);
      const bearer = /^Bearer (.+)$/.exec(request.headers.get('Authorization') ?? '')?.[1];
      if (service === 'token') {
        if (request.method !== 'POST') return refuse(405, 'POST only');
        // Read as bytes: workerd warns of a form's body read as text.
        const form = new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer()));
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
          return refuse(400, 'unsupported_grant_type');
        const assertion = form.get('assertion') ?? '';
        const [header] = assertion.split('.');
        let kid: string | undefined;
        try {
          kid = (JSON.parse(atob((header ?? '').replace(/-/g, '+').replace(/_/g, '/'))) as { kid?: string })
            .kid;
        } catch {
          return refuse(400, 'invalid_grant: not a JWT');
        }
        const spki = kid === undefined ? undefined : s.accounts.get(kid);
        if (spki === undefined) return refuse(400, 'invalid_grant: unknown key');
        try {
          const { payload, protectedHeader } = await jwtVerify(assertion, await importSPKI(spki, 'RS256'), {
            audience: TOKEN_URI,
            algorithms: ['RS256'],
          });
          if (protectedHeader.typ !== 'JWT') return refuse(400, 'invalid_grant: typ');
          if (payload.scope !== SCOPE) return refuse(400, 'invalid_scope');
          if (typeof payload.iss !== 'string' || !payload.iss.endsWith('.iam.gserviceaccount.com'))
            return refuse(400, 'invalid_grant: iss');
          const { iat, exp } = payload;
          if (typeof iat !== 'number' || typeof exp !== 'number' || exp - iat > 3600 || exp - iat <= 0)
            return refuse(400, 'invalid_grant: lifetime');
          if (Math.abs(iat - Date.now() / 1000) > 300) return refuse(400, 'invalid_grant: clock');
        } catch (error) {
          return refuse(400, `invalid_grant: ${(error as Error).message}`);
        }
        s.exchanges++;
        const token = `ya29.standin-${s.exchanges}`;
        tokens.add(token);
        return json(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
      }
      if (service === 'sheets') {
        if (bearer === undefined || !tokens.has(bearer))
          return refuse(401, 'UNAUTHENTICATED', { error: { code: 401, status: 'UNAUTHENTICATED' } });
        const m = /^\/v4\/spreadsheets\/([^/]+)\/values\/([^:]+)(:append)?$/.exec(url.pathname);
        if (m === null) return refuse(404, 'no such range');
        const [, id = '', range = ''] = m;
        const sheet = /^'((?:[^']|'')+)'!/.exec(decodeURIComponent(range))?.[1]?.replace(/''/g, "'");
        if (sheet === undefined) return refuse(400, 'a range names its sheet');
        const key = `${id}/${sheet}`;
        const rows = s.sheets.get(key) ?? [];
        if (request.method === 'GET') return json(200, { range: `${sheet}!1:1`, values: rows.slice(0, 1) });
        // values.update (PUT) writes from the range's first row; values:append (POST) after the table.
        const update = request.method === 'PUT' && m[3] === undefined;
        if (!update && (request.method !== 'POST' || m[3] === undefined))
          return refuse(404, 'append is :append');
        if (update && !/!A1$/.test(decodeURIComponent(range)))
          return refuse(400, 'the stand-in updates from A1 only');
        if (url.searchParams.get('valueInputOption') !== 'RAW')
          return refuse(400, 'valueInputOption must be given');
        const body = (await request.json()) as { values?: unknown };
        if (!Array.isArray(body.values) || !body.values.every((r) => Array.isArray(r)))
          return refuse(400, 'values is rows of cells');
        for (const row of body.values as unknown[][]) {
          if (!row.every((c) => ['string', 'number', 'boolean'].includes(typeof c)))
            return refuse(400, 'a cell is a string, a number or a boolean');
          if (row.some((c) => typeof c === 'string' && c.length > 50_000))
            return refuse(400, 'a cell over 50,000 characters');
        }
        const given = body.values as unknown[][];
        s.sheets.set(key, update ? [...given, ...rows.slice(given.length)] : [...rows, ...given]);
        return json(200, { spreadsheetId: id, updates: { updatedRows: given.length } });
      }
      if (service === 'notion') {
        if (bearer !== s.notionToken)
          return refuse(401, 'unauthorized', { object: 'error', code: 'unauthorized' });
        if (request.headers.get('Notion-Version') === null)
          return refuse(400, 'missing_version', { object: 'error', code: 'missing_version' });
        if (url.pathname !== '/v1/pages' || request.method !== 'POST') return refuse(404, 'object_not_found');
        const page = (await request.json()) as Json;
        const parent = page.parent as { database_id?: unknown } | undefined;
        if (typeof parent?.database_id !== 'string') return refuse(400, 'validation_error: parent');
        if (s.notionUnshared.has(parent.database_id))
          return refuse(404, 'object_not_found', { object: 'error', code: 'object_not_found' });
        const properties = (page.properties ?? {}) as Record<string, Json>;
        const titles = Object.values(properties).filter((p) => 'title' in p);
        if (titles.length !== 1) return refuse(400, 'validation_error: one title');
        for (const p of Object.values(properties)) {
          const texts = (p.title ?? p.rich_text) as { text?: { content?: string } }[] | undefined;
          if (texts?.some((t) => (t.text?.content?.length ?? 0) > 2000))
            return refuse(400, 'validation_error: 2000');
        }
        s.pages.push(page);
        return json(200, { object: 'page', id: crypto.randomUUID() });
      }
      if (service === 'airtable') {
        if (bearer !== s.airtableToken) return refuse(401, 'AUTHENTICATION_REQUIRED');
        const [, , base = '', table = ''] = url.pathname.split('/');
        if (!/^app[A-Za-z0-9]{14}$/.test(base)) return refuse(404, 'NOT_FOUND');
        const body = (await request.json()) as { records?: unknown };
        const records = body.records;
        if (!Array.isArray(records) || records.length === 0 || records.length > 10)
          return refuse(422, 'INVALID_RECORDS: 1 to 10 records');
        if (
          !records.every((r) => typeof r === 'object' && r !== null && typeof (r as Json).fields === 'object')
        )
          return refuse(422, 'INVALID_RECORDS: {fields}');
        if (records.some((r) => s.airtableRefuses((r as { fields: Json }).fields)))
          return refuse(422, 'INVALID_VALUE_FOR_COLUMN');
        s.airtableRequests.push({
          base,
          table: decodeURIComponent(table),
          records: records as { fields: Json }[],
          at: Date.now(),
        });
        return json(200, { records: records.map((r, i) => ({ id: `rec${i}`, fields: (r as Json).fields })) });
      }
      if (service === 'slack' || service === 'discord' || service === 'webhook') {
        return hook(service, url, request, refuse);
      }
      const m = /^\/bot([^/]+)\/sendMessage$/.exec(url.pathname);
      if (m?.[1] !== s.telegramToken)
        return refuse(401, 'Unauthorized', { ok: false, error_code: 401, description: 'Unauthorized' });
      const body = (await request.json()) as Json;
      if (String(body.chat_id) !== s.telegramChat)
        return refuse(400, 'chat not found', {
          ok: false,
          error_code: 400,
          description: 'Bad Request: chat not found',
        });
      if (typeof body.text !== 'string' || body.text.length === 0 || body.text.length > 4096)
        return refuse(400, 'message text is empty or too long');
      s.messages.push({ chat_id: body.chat_id, text: body.text, body });
      return json(200, { ok: true, result: { message_id: s.messages.length } });
    },
  };
  /**
   * C26, C36: a hook's receiver. Slack (https://api.slack.com/messaging/webhooks) answers 200 `ok`,
   * 404 `no_service` for a hook it does not know, 400 `no_text` for a message with nothing to
   * show; Discord 204, 404 `Unknown Webhook` (10015), 400 `Cannot send an empty message` (50006);
   * a signed webhook's receiver (docs/delivery.md's) 204, and 400 without the signature's headers.
   */
  async function hook(
    service: Hook,
    url: URL,
    request: Request,
    refuse: (status: number, why: string, body?: unknown) => Response,
  ): Promise<Response> {
    if (request.method !== 'POST') return refuse(405, 'POST only');
    const token = url.pathname.split('/').at(-1);
    if (
      service === 'slack' &&
      (!/^\/services\/[^/]+\/[^/]+\/[^/]+$/.test(url.pathname) || token !== s.slackToken)
    )
      return refuse(404, 'no_service');
    if (
      service === 'discord' &&
      (!/^\/api\/webhooks\/\d+\/[\w-]+$/.test(url.pathname) || token !== s.discordToken)
    )
      return refuse(404, 'Unknown Webhook', { message: 'Unknown Webhook', code: 10015 });
    if (
      service === 'webhook' &&
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].some((h) => request.headers.get(h) === null)
    )
      return refuse(400, 'unsigned');
    let body: Json;
    try {
      body = (await request.json()) as Json;
    } catch {
      return refuse(400, 'invalid_payload');
    }
    if (service === 'slack' && typeof body.text !== 'string' && !Array.isArray(body.blocks))
      return refuse(400, 'no_text');
    if (service === 'discord' && typeof body.content !== 'string' && !Array.isArray(body.embeds))
      return refuse(400, 'Cannot send an empty message', {
        message: 'Cannot send an empty message',
        code: 50006,
      });
    if (service === 'webhook' && typeof body.type !== 'string') return refuse(400, 'not an event');
    return service === 'slack' ? new Response('ok', { status: 200 }) : new Response(null, { status: 204 });
  }
  return s;
}

/** A service account the stand-in knows. */
export async function knownAccount(s: StandIn) {
  const { account, publicKey } = await newServiceAccount();
  s.accounts.set(account.private_key_id, publicKey);
  return account;
}

/** Where the stand-in listens, as a target or INTEGRATIONS_API_BASE names it. */
export const STAND_IN_ORIGIN = 'http://127.0.0.1:8790';

/** Every kind that speaks HTTP (C26, C36, C38): the webhooks' and the integrations'. */
export type HttpKind = KindOf<'webhook'> | KindOf<'integration'>;

/**
 * A minimal target as the management API adds it (the body of `POST …/webhooks` or
 * `…/integrations`); its secret (what is never shown whole; a signed webhook's is made when it is
 * added); and what it is shown by, when not the secret's own last four (a Google key: its id's).
 */
export type StandInTarget = { add: Json; secret?: string; shownBy?: string };

const SPREADSHEET = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';
/** One service account per stand-in, so that its targets share the worker's kept token. */
const accountsOf = new WeakMap<StandIn, Promise<Account>>();

/**
 * A minimal target of each kind, pointed at the stand-in (a hook at `STAND_IN_ORIGIN`, an
 * integration through INTEGRATIONS_API_BASE). A kind added to CHANNELS that speaks HTTP has no
 * entry here until one is written, and the typecheck fails until then.
 */
const TARGETS: Record<HttpKind, (s: StandIn) => Promise<StandInTarget>> = {
  webhook: async () => ({ add: { kind: 'webhook', url: `${STAND_IN_ORIGIN}/hooks/forms` } }),
  slack: async (s) => ({
    add: { kind: 'slack', url: `${STAND_IN_ORIGIN}/services/T0LOCAL/B0LOCAL/${s.slackToken}` },
    secret: s.slackToken,
  }),
  discord: async (s) => ({
    add: { kind: 'discord', url: `${STAND_IN_ORIGIN}/api/webhooks/123456789/${s.discordToken}` },
    secret: s.discordToken,
  }),
  'google-sheets': async (s) => {
    let account = accountsOf.get(s);
    if (account === undefined) {
      account = knownAccount(s);
      accountsOf.set(s, account);
    }
    const serviceAccount = await account;
    return {
      add: { kind: 'google-sheets', spreadsheetId: SPREADSHEET, sheet: 'Submissions', serviceAccount },
      secret: serviceAccount.private_key,
      shownBy: serviceAccount.private_key_id,
    };
  },
  notion: async (s) => ({
    add: { kind: 'notion', token: s.notionToken, databaseId: '0123456789abcdef0123456789abcdef' },
    secret: s.notionToken,
  }),
  airtable: async (s) => ({
    add: { kind: 'airtable', token: s.airtableToken, baseId: 'appAbCdEfGhIjKlMn', table: 'Leads' },
    secret: s.airtableToken,
  }),
  telegram: async (s) => ({
    add: { kind: 'telegram', botToken: s.telegramToken, chatId: s.telegramChat },
    secret: s.telegramToken,
  }),
};

export const standInTarget = (s: StandIn, kind: HttpKind) => TARGETS[kind](s);
