// C38: a submission as a row of a Google Sheet. The service account's key signs an RS256 JWT
// (jose: `iss` its address, `scope` the spreadsheets scope, `aud` Google's token URI, one hour),
// exchanged for an access token that is kept until a minute before it ends (one exchange for many
// rows, across deliveries in an isolate); the row is appended with `values:append` and
// `valueInputOption=RAW`, so that a value such as `=IMPORTXML(…)` stays text, never a formula. The
// columns: the time received, the submission's id, then the project's fields in order; an empty
// sheet gets a header row first, written into row 1 (so that two isolates never write two). A 401 refreshes the token once; a 429 waits for its Retry-After
// (a minute without one: Google's quota is 300 writes a minute per project), and the row is kept.
import { importPKCS8, SignJWT } from 'jose';
import { toHex } from '../lib/hex.ts';
import type { DeliveryToSend } from '../store/deliveries.ts';
import {
  apiUrl,
  fieldsOf,
  fileText,
  type IntegrationAnswer,
  type IntegrationContext,
  isFile,
  meaning,
  paced,
  type Reply,
  request,
  within,
} from './integrations.ts';

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
  ctx: IntegrationContext,
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
  const reply = await request(ctx, apiUrl(TOKEN_URI, ctx.apiBase), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: signed,
    }).toString(),
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

export async function sendToSheet(d: DeliveryToSend, ctx: IntegrationContext): Promise<IntegrationAnswer> {
  const account = JSON.parse(d.secret) as ServiceAccount;
  const { spreadsheetId, sheet } = JSON.parse(d.config ?? '{}') as SheetConfig;
  const { header, row } = rowOf(d, ctx.publicUrl);
  const base = `${SHEETS_API}/${encodeURIComponent(spreadsheetId)}/values`;
  const sheetKey = `${spreadsheetId} ${sheet}`;
  for (let tries = 0; ; tries++) {
    const token = await accessToken(account, ctx, tries > 0);
    if (typeof token !== 'string') return meaning(token);
    const authorization = { Authorization: `Bearer ${token}` };
    // Google answers 401 for a token it no longer takes: exchanged again, once.
    const expired = (r: Reply) => r.status === 401 && tries === 0;
    if (!headed.has(sheetKey)) {
      const first = await request(ctx, apiUrl(`${base}/${inSheet(sheet, '1:1')}`, ctx.apiBase), {
        method: 'GET',
        headers: authorization,
      });
      if (expired(first)) continue;
      if (first.status !== 200) return meaning(first, 60);
      const existing = (first.json as { values?: unknown[][] } | undefined)?.values;
      if (existing === undefined || existing.length === 0) {
        // The header is written into row 1 itself, not appended: two isolates that both found the
        // sheet empty write the same row 1, never a second header below the first rows.
        await paced(account.client_email, WRITE_INTERVAL_MS);
        const headed1 = await request(
          ctx,
          apiUrl(`${base}/${inSheet(sheet, 'A1')}?valueInputOption=RAW`, ctx.apiBase),
          {
            method: 'PUT',
            headers: authorization,
            body: JSON.stringify({ majorDimension: 'ROWS', values: [header] }),
          },
        );
        if (expired(headed1)) continue;
        if (headed1.status !== 200) return meaning(headed1, 60);
      }
    }
    await paced(account.client_email, WRITE_INTERVAL_MS);
    const appended = await request(
      ctx,
      apiUrl(
        `${base}/${inSheet(sheet, 'A1')}:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`,
        ctx.apiBase,
      ),
      {
        method: 'POST',
        headers: authorization,
        body: JSON.stringify({ majorDimension: 'ROWS', values: [row] }),
      },
    );
    if (expired(appended)) continue;
    const answer = meaning(appended, 60);
    if (answer.ok) {
      headed.add(sheetKey);
      if (headed.size > 1000) headed.clear();
    }
    return answer;
  }
}

/** Forgets the tokens and sheets this isolate knows (tests). */
export function forgetSheets(): void {
  tokens.clear();
  headed.clear();
}
