// C22: Cloudflare Turnstile, verified server-side with the siteverify API.
import { UnavailableError } from '../lib/faults.ts';

export const TURNSTILE_FIELD = 'cf-turnstile-response';
export const TURNSTILE_HEADER = 'CF-Turnstile-Response';
export const SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/** Siteverify answers in well under a second; past this, the submission is not saved (503). */
export const SITEVERIFY_TIMEOUT_MS = 3_000;
/** Turnstile tokens are at most 2048 characters. */
const MAX_TOKEN_LENGTH = 2048;

/**
 * `pass`, `fail`, or `spent`: a real token that has already been redeemed, which is what a retry of
 * a request that was saved looks like (the caller replays it when its Idempotency-Key matches).
 * Siteverify unreachable, slow or failing inside → UnavailableError (503).
 */
export async function verifyTurnstile(
  secret: string,
  token: string | undefined,
  remoteIp: string | undefined,
): Promise<'pass' | 'fail' | 'spent'> {
  if (token === undefined || token === '' || token.length > MAX_TOKEN_LENGTH) return 'fail';
  const form = new FormData();
  form.set('secret', secret);
  form.set('response', token);
  if (remoteIp) form.set('remoteip', remoteIp);
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
  return codes.includes('timeout-or-duplicate') ? 'spent' : 'fail';
}

/** Takes the token out of the body (it is never stored) and falls back to the header. */
export function takeToken(body: Record<string, unknown>, header: string | undefined): string | undefined {
  const field = body[TURNSTILE_FIELD];
  delete body[TURNSTILE_FIELD];
  return typeof field === 'string' ? field : header;
}
