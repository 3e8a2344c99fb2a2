// C21: rate limits, with the Workers Rate Limiting binding (counts kept in memory in each
// Cloudflare location: no D1 query). A key in a web page is public, so limits per key protect
// nobody from a script that has copied it: every request is also limited per client address, and
// failed authentications per client address before they can cost D1 reads. A budget that every
// visitor of a form shares (a publishable key's, a form's) is charged only for a submission that
// passed its own checks: a request refused for its own sake costs its own address alone.
import type { Context } from 'hono';
import { RATE_LIMIT_PERIOD_SECONDS, tooManyRequests } from '../http/replies.ts';
import { requestIdOf } from '../http/request-id.ts';
import { clientOf } from '../lib/clients.ts';
import { errorText } from '../lib/faults.ts';
import { Lru } from '../lib/lru.ts';

type Limiter = RateLimit | undefined;

/**
 * Asks a limiter. C21: if the binding itself fails, the request goes on, and the failure is logged:
 * a broken limiter must not refuse every visitor of every form (fail open, as most services do;
 * D1 and the per-key budgets still bound the harm).
 */
export async function allowed(c: Context, limiter: Limiter, name: string, key: string): Promise<boolean> {
  if (limiter === undefined) return true;
  try {
    return (await limiter.limit({ key })).success;
  } catch (error) {
    console.warn(
      JSON.stringify({
        level: 'warn',
        requestId: requestIdOf(c),
        event: 'rate-limit-unavailable',
        limiter: name,
        error: errorText(error, 200),
      }),
    );
    return true;
  }
}

// Loopback addresses: Cloudflare never gives one for a request from the internet; `wrangler dev`
// gives one for every request, from this machine, where a per-address limit would only get in a
// developer's way (a loop of curl calls from one address is every local test).
const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

export { clientOf };

/**
 * The client as Cloudflare gives its address (`CF-Connecting-IP`), for the per-address limits;
 * undefined when there is none, or when it is a loopback address (local development).
 */
export function clientAddress(c: Context): string | undefined {
  const address = c.req.header('CF-Connecting-IP');
  return address === undefined || LOOPBACK.test(address) ? undefined : clientOf(address);
}

// Addresses the failed-authentication limiter has refused, for one period: their unknown keys are
// answered 429 without a D1 query. Bounded, so that many addresses cannot grow memory.
const refused = new Lru<string, true>(10_000, RATE_LIMIT_PERIOD_SECONDS * 1000);

/** Whether this address may cost a key lookup in D1 now. */
export function mayLookUpKeys(address: string | undefined): boolean {
  return address === undefined || refused.get(address) !== true;
}

/**
 * C21: counts a failed authentication against the client's address; over the limit, the address
 * is refused key lookups for the period, and this request gets 429 instead of its 401.
 */
export async function countFailedAuthentication(c: Context, env: Env): Promise<void> {
  const address = clientAddress(c);
  if (address === undefined) return;
  if (!mayLookUpKeys(address)) throw tooManyRequests();
  if (!(await allowed(c, env.AUTH_FAILURE_RATE_LIMIT, 'AUTH_FAILURE_RATE_LIMIT', address))) {
    refused.set(address, true);
    throw tooManyRequests();
  }
}

/**
 * C21: who pays for a request: the rate limiter's key of its own budget (a key's hash, never the key
 * itself, C8; a form address's `form:<id>`), whether every visitor shares that budget (a
 * publishable key, a form), and the project.
 */
export type Payer = { rateKey: string; shared: boolean; projectId: string };

/**
 * C21, right after authentication: what a request costs before anything else is known of it. A
 * shared bucket's request is charged to its client address (per project); a secret key's, to the
 * key's own budget (a server sends for many people from one address, and nobody shares its key).
 */
export async function limitEarly(c: Context, env: Env, payer: Payer): Promise<void> {
  if (!payer.shared) {
    if (!(await allowed(c, env.KEY_RATE_LIMIT, 'KEY_RATE_LIMIT', payer.rateKey))) throw tooManyRequests();
    return;
  }
  const address = clientAddress(c);
  if (address === undefined) return;
  const key = `${payer.projectId} ${address}`;
  if (!(await allowed(c, env.ADDRESS_RATE_LIMIT, 'ADDRESS_RATE_LIMIT', key))) throw tooManyRequests();
}

/**
 * C21: a shared bucket (a publishable key's, a form's) is charged only once the submission has
 * passed its own checks, so that nobody can spend every visitor's budget with refused requests.
 */
export async function limitShared(c: Context, env: Env, payer: Payer): Promise<void> {
  if (!payer.shared) return;
  if (!(await allowed(c, env.KEY_RATE_LIMIT, 'KEY_RATE_LIMIT', payer.rateKey))) throw tooManyRequests();
}
