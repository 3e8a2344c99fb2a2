// C21. Kept apart from the middleware so that Node code (the test that holds wrangler.toml to it)
// can import it without the Workers types.

/** The `period` of both limiters in wrangler.toml, in seconds (a test holds them equal). */
export const RATE_LIMIT_PERIOD_SECONDS = 10;
