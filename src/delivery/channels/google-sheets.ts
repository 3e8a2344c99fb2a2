// C38: a submission as a row of a Google Sheet. The service account's key signs an RS256 JWT
// (jose: `iss` its address, `scope` the spreadsheets scope, `aud` Google's token URI, one hour),
// exchanged for an access token that is kept until a minute before it ends (one exchange for many
// rows, across deliveries in an isolate); the row is appended with `values:append` and
// `valueInputOption=RAW`, so that a value such as `=IMPORTXML(…)` stays text, never a formula. The
// columns: the time received, the submission's id, then the project's fields in order; an empty
// sheet gets a header row first, written into row 1 (so that two isolates never write two). A 401 refreshes the token once; a 429 waits for its Retry-After
// (a minute without one: Google's quota is 300 writes a minute per project), and the row is kept.
import { importPKCS8, SignJWT } from 'jose';
import * as v from 'valibot';
import { toHex } from '../../lib/hex.ts';
import type { DeliveryToSend } from '../../store/deliveries.ts';
import { type AttemptResult, apiUrl, httpRequest, meaning, paced, type Reply } from '../outbound.ts';
import { fieldsOf, fileText, isFile, within } from '../values.ts';
import { type IntegrationChannel, lastFour, type SendContext, serviceRules, settingText } from './channel.ts';

export const TOKEN_URI = 'https://oauth2.googleapis.com/token';
export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
const SHEETS_API = 'https://sheets.googleapis.com/v4/spreadsheets';
/** The longest an assertion may live (Google's limit): an hour. */
export const ASSERTION_SECONDS = 3600;
/** A token is exchanged again this long before it ends. */
const EARLY_MS = 60_000;
/** Google allows 300 writes a minute per project: one every 200 ms. */
const WRITE_INTERVAL_MS = 200;
/** A cell holds at most 50,000 characters. */
const CELL_CHARACTERS = 50_000;
/**
 * C38: what an answer of Sheets means; a 429 without Retry-After waits a minute (Google's quota is
 * per minute). The token exchange before it reads its answer as the other services' (30 s).
 */
const RULES = serviceRules(60);

/** What of a service account's JSON key is used. */
export type ServiceAccount = {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
};
export type SheetConfig = { spreadsheetId: string; sheet: string };

const tokens = new Map<string, { token: string; until: number }>();
const headed = new Set<string>();

/** The signed assertion for a service account, valid from `now` for an hour. */
export async function assertion(account: ServiceAccount, now: Date): Promise<string> {
  const key = await importPKCS8(account.private_key, 'RS256');
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ scope: SHEETS_SCOPE })
    .setProtectedHeader({
      alg: 'RS256',
      typ: 'JWT',
      ...(account.private_key_id ? { kid: account.private_key_id } : {}),
    })
    .setIssuer(account.client_email)
    .setAudience(TOKEN_URI)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ASSERTION_SECONDS)
    .sign(key);
}

/**
 * Whose token a kept one is: the account's address and its key. Never the address alone: anyone can
 * add an integration naming another's address with a key of their own, and must never be given the
 * token that account's real key earned.
 */
async function tokenKey(account: ServiceAccount): Promise<string> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`${account.client_email}\n${account.private_key}`),
  );
  return toHex(new Uint8Array(digest));
}

/** An access token: the one kept for this account and key, unless `fresh`; else exchanged for a new one. */
async function accessToken(
  account: ServiceAccount,
  ctx: SendContext,
  fresh: boolean,
): Promise<string | Reply> {
  const key = await tokenKey(account);
  const kept = tokens.get(key);
  if (!fresh && kept !== undefined && kept.until > ctx.now.getTime() + EARLY_MS) return kept.token;
  let signed: string;
  try {
    signed = await assertion(account, ctx.now);
  } catch {
    // A key that is no PKCS#8 RSA key: no retry helps; the owner adds the key again.
    return {
      status: 401,
      error: 'the service account key could not sign (is it the JSON key file?)',
      excerpt: null,
      json: undefined,
    };
  }
  const reply = await httpRequest(ctx, apiUrl(TOKEN_URI, ctx.apiBase), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: signed,
    }).toString(),
    json: true,
  });
  const got = reply.json as { access_token?: unknown; expires_in?: unknown } | undefined;
  if (reply.status !== 200 || typeof got?.access_token !== 'string') {
    // Google answers a key it does not know (or a revoked or deleted one) with 400 invalid_grant:
    // refused, as a 401; any other 400 says the request itself was wrong, and stays one.
    const error = (reply.json as { error?: unknown } | undefined)?.error;
    return reply.status === 400 && error === 'invalid_grant' ? { ...reply, status: 401 } : reply;
  }
  const seconds = typeof got.expires_in === 'number' ? got.expires_in : ASSERTION_SECONDS;
  tokens.set(key, { token: got.access_token, until: ctx.now.getTime() + seconds * 1000 });
  if (tokens.size > 1000) tokens.clear();
  return got.access_token;
}

/** A sheet's name in A1 notation, quoted. */
const inSheet = (sheet: string, range: string) =>
  encodeURIComponent(`'${sheet.replace(/'/g, "''")}'!${range}`);

/** A value as a cell: a number or a boolean as it is, a file as a link or its name, the rest as text. */
function cellOf(value: unknown, d: DeliveryToSend, publicUrl: string | undefined): string | number | boolean {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === undefined || value === null) return '';
  const text =
    typeof value === 'string' ? value : isFile(value) ? fileText(value, d, publicUrl) : JSON.stringify(value);
  return within(text, CELL_CHARACTERS);
}

/** The header and the row of a submission. */
export function rowOf(d: DeliveryToSend, publicUrl: string | undefined) {
  const fields = fieldsOf(d);
  return {
    header: ['Received', 'Submission', ...fields.map(([name]) => name)],
    row: [d.receivedAt, d.submissionId, ...fields.map(([, value]) => cellOf(value, d, publicUrl))],
  };
}

async function sendToSheet(d: DeliveryToSend, ctx: SendContext): Promise<AttemptResult> {
  const account = JSON.parse(d.secret) as ServiceAccount;
  const { spreadsheetId, sheet } = JSON.parse(d.config ?? '{}') as SheetConfig;
  const { header, row } = rowOf(d, ctx.publicUrl);
  const base = `${SHEETS_API}/${encodeURIComponent(spreadsheetId)}/values`;
  const sheetKey = `${spreadsheetId} ${sheet}`;
  for (let tries = 0; ; tries++) {
    const token = await accessToken(account, ctx, tries > 0);
    if (typeof token !== 'string') return meaning(token, serviceRules(30));
    const authorization = { Authorization: `Bearer ${token}` };
    // Google answers 401 for a token it no longer takes: exchanged again, once.
    const expired = (r: Reply) => r.status === 401 && tries === 0;
    if (!headed.has(sheetKey)) {
      const first = await httpRequest(ctx, apiUrl(`${base}/${inSheet(sheet, '1:1')}`, ctx.apiBase), {
        method: 'GET',
        headers: authorization,
        json: true,
      });
      if (expired(first)) continue;
      if (first.status !== 200) return meaning(first, RULES);
      const existing = (first.json as { values?: unknown[][] } | undefined)?.values;
      if (existing === undefined || existing.length === 0) {
        // The header is written into row 1 itself, not appended: two isolates that both found the
        // sheet empty write the same row 1, never a second header below the first rows.
        await paced(account.client_email, WRITE_INTERVAL_MS);
        const headed1 = await httpRequest(
          ctx,
          apiUrl(`${base}/${inSheet(sheet, 'A1')}?valueInputOption=RAW`, ctx.apiBase),
          {
            method: 'PUT',
            headers: authorization,
            body: JSON.stringify({ majorDimension: 'ROWS', values: [header] }),
            json: true,
          },
        );
        if (expired(headed1)) continue;
        if (headed1.status !== 200) return meaning(headed1, RULES);
      }
    }
    await paced(account.client_email, WRITE_INTERVAL_MS);
    const appended = await httpRequest(
      ctx,
      apiUrl(
        `${base}/${inSheet(sheet, 'A1')}:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`,
        ctx.apiBase,
      ),
      {
        method: 'POST',
        headers: authorization,
        body: JSON.stringify({ majorDimension: 'ROWS', values: [row] }),
        json: true,
      },
    );
    if (expired(appended)) continue;
    const answer = meaning(appended, RULES);
    if (answer.ok) {
      headed.add(sheetKey);
      if (headed.size > 1000) headed.clear();
    }
    return answer;
  }
}

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

export const googleSheets: IntegrationChannel = {
  family: 'integration',
  name: 'Google Sheets',
  rules: RULES,
  help: "A row per submission. Make a service account in Google Cloud (with the Sheets API on), download its JSON key, and share the spreadsheet with the service account's address as an editor.",
  entries: {
    spreadsheetId: v.pipe(
      v.string(),
      v.regex(
        /^[A-Za-z0-9_-]{20,100}$/,
        'spreadsheetId is the long id in the sheet’s address (…/d/<id>/edit)',
      ),
    ),
    sheet: v.optional(settingText(100, 'sheet'), 'Sheet1'),
    serviceAccount: ServiceAccountKey,
  },
  inputs: [
    {
      key: 'spreadsheetId',
      label: 'Spreadsheet id (in its address: …/d/<id>/edit)',
      option: '--spreadsheet <id>',
      help: "the spreadsheet's id (in its address: …/d/<id>/edit)",
    },
    {
      key: 'sheet',
      label: 'Sheet (tab)',
      option: '--sheet <name>',
      help: 'the sheet (tab) to append to (Sheet1 unless told)',
      fallback: 'Sheet1',
    },
    {
      key: 'serviceAccount',
      label: "The service account's JSON key",
      option: '--key-file <path>',
      help: "the service account's JSON key file (- for standard input)",
      secret: {
        what: "Service account's JSON key",
        kind: 'json',
        invalid: "The key file is not JSON: give the service account's key file as Google made it",
      },
    },
  ],
  writesTo: 'sheet “{sheet}” of {spreadsheetId}',
  stored: (input) => ({
    config: { spreadsheetId: String(input.spreadsheetId), sheet: String(input.sheet) },
    secret: JSON.stringify(input.serviceAccount),
    url: `https://sheets.googleapis.com/v4/spreadsheets/${String(input.spreadsheetId)}`,
  }),
  async verify(input) {
    try {
      await assertion(input.serviceAccount as ServiceAccount, new Date());
      return undefined;
    } catch {
      return 'serviceAccount.private_key could not sign: give the JSON key file exactly as Google made it';
    }
  },
  shownSecret(secret) {
    const account = JSON.parse(secret) as ServiceAccount;
    return {
      last: lastFour(account.private_key_id ?? account.client_email),
      serviceAccount: account.client_email,
    };
  },
  send: sendToSheet,
};

/** Forgets the tokens and sheets this isolate knows (tests). */
export function forgetSheets(): void {
  tokens.clear();
  headed.clear();
}
