// C21: what a refused request is told. Kept apart from the middleware so that Node code (the test
// that holds wrangler.toml to it) can import it without the Workers types.
import { ApiError } from './envelope.ts';

/** The `period` of both limiters in wrangler.toml, in seconds (a test holds them equal). */
export const RATE_LIMIT_PERIOD_SECONDS = 10;

export function tooManyRequests(): ApiError {
  return new ApiError(
    429,
    'Too many requests',
    `Rate limit exceeded: retry after ${RATE_LIMIT_PERIOD_SECONDS} seconds`,
    { 'Retry-After': String(RATE_LIMIT_PERIOD_SECONDS) },
  );
}
