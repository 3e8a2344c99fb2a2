// C22: Cloudflare Turnstile, verified server-side with the siteverify API.
import { TURNSTILE_FIELD } from '../fields/catalogue.ts';
import { spamCheckFailed } from '../http/replies.ts';
import { UnavailableError } from '../lib/faults.ts';
import { formatUuid } from '../lib/ids.ts';

export const TURNSTILE_HEADER = 'CF-Turnstile-Response';
export const SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/** Siteverify answers in well under a second; past this, the submission is not saved (503). */
export const SITEVERIFY_TIMEOUT_MS = 3_000;
/** Turnstile tokens are at most 2048 characters. */
const MAX_TOKEN_LENGTH = 2048;

/**
 * Cloudflare's published test secrets (`1x0…0AA` always passes, `2x…` fails, `3x…` is spent): any
 * token passes them, so (C35) a submission checked with one passed no challenge, except under
 * local development.
 */
export const isTestSecret = (secret: string) => /^\dx0+AA$/.test(secret);

// The operator's mistake, not a bot's: siteverify refuses the project's secret itself.
const MISCONFIGURED = ['invalid-input-secret', 'missing-input-secret'];

/**
 * The `idempotency_key` siteverify is given for a request that carries an Idempotency-Key (C20): a
 * UUID made from the project, that key and the body's hash. Siteverify answers a token it has
 * already redeemed under the same idempotency_key as it did the first time, so the retry of a
 * request whose token was redeemed (and whose write then failed, or whose siteverify answer came
 * after our time-out) passes again; the same token with another key or body is spent.
 */
export async function siteverifyIdempotencyKey(
  projectId: string,
  idempotencyKey: string,
  bodyHash: string,
): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest(
      'SHA-256',
      new TextEncoder().encode(`${projectId}\n${idempotencyKey}\n${bodyHash}`),
    ),
  );
  const bytes = digest.slice(0, 16);
  bytes[6] = 0x80 | ((bytes[6] ?? 0) & 0x0f); // version 8: custom (RFC 9562 §5.8)
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f); // variant 10
  return formatUuid(bytes);
}

/**
 * `pass`, `fail`, or `spent`: a real token that has already been redeemed, which is what a retry of
 * a request that was saved looks like (the caller replays it when its Idempotency-Key matches).
 * Siteverify unreachable, slow or failing inside, or refusing the project's own secret (the
 * operator's misconfiguration, logged by the error handler without the secret) → UnavailableError
 * (503), never a 403 that would blame the visitor.
 */
export async function verifyTurnstile(
  secret: string,
  token: string | undefined,
  remoteIp: string | undefined,
  idempotencyKey?: string,
): Promise<'pass' | 'fail' | 'spent'> {
  if (token === undefined || token === '' || token.length > MAX_TOKEN_LENGTH) return 'fail';
  const form = new FormData();
  form.set('secret', secret);
  form.set('response', token);
  if (remoteIp) form.set('remoteip', remoteIp);
  if (idempotencyKey !== undefined) form.set('idempotency_key', idempotencyKey);
  let outcome: { success?: unknown; 'error-codes'?: unknown };
  try {
    const res = await fetch(SITEVERIFY_URL, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(SITEVERIFY_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`siteverify answered ${res.status}`);
    const parsed: unknown = await res.json();
    if (typeof parsed !== 'object' || parsed === null) throw new Error('siteverify answered no object');
    outcome = parsed;
  } catch (cause) {
    throw new UnavailableError('turnstile', cause);
  }
  if (outcome.success === true) return 'pass';
  const codes = Array.isArray(outcome['error-codes']) ? outcome['error-codes'] : [];
  if (codes.includes('internal-error'))
    throw new UnavailableError('turnstile', new Error('siteverify internal-error'));
  const misconfigured = codes.find((code) => MISCONFIGURED.includes(String(code)));
  if (misconfigured !== undefined) {
    throw new UnavailableError(
      'turnstile',
      new Error(
        `siteverify refused the project's Turnstile secret (${misconfigured}): set it again with the command-line tool`,
      ),
    );
  }
  return codes.includes('timeout-or-duplicate') ? 'spent' : 'fail';
}

/**
 * C22 between steps 9 and 10, on both endpoints, for a project with a Turnstile secret: a failed
 * check → 403. Returns whether the token was redeemed already, which passes only as the retry of
 * the request that redeemed it: with an Idempotency-Key (C20), the caller replays that request's
 * answer when the key and body match, and refuses otherwise.
 */
export async function checkTurnstile(
  secret: string,
  projectId: string,
  token: string | undefined,
  remoteIp: string | undefined,
  idempotencyKey: string | undefined,
  hash: string | undefined,
): Promise<boolean> {
  const verdict = await verifyTurnstile(
    secret,
    token,
    remoteIp,
    idempotencyKey === undefined || hash === undefined
      ? undefined
      : await siteverifyIdempotencyKey(projectId, idempotencyKey, hash),
  );
  if (verdict === 'spent' && idempotencyKey !== undefined) return true;
  if (verdict !== 'pass') throw spamCheckFailed();
  return false;
}

/** Takes the token out of the body (it is never stored) and falls back to the header. */
export function takeToken(body: Record<string, unknown>, header: string | undefined): string | undefined {
  const field = body[TURNSTILE_FIELD];
  delete body[TURNSTILE_FIELD];
  return typeof field === 'string' ? field : header;
}
