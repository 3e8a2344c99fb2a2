// The names of the service's own headers that the HTTP layer documents (src/http/openapi.ts) as
// well as the routes that read or send them: written once, here. Free of Workers types, so that
// Node code can import it.

/** C20: the client's key for one submission, the same on every retry of it. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** C20: on a 201 that replays the first request with the same key. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** C24: the header a reply's D1 bookmark is in, and a request's is read from (read-after-write). */
export const BOOKMARK_HEADER = 'X-D1-Bookmark';

/** C37: the header Cloudflare Access puts its signed identity in, in front of the management API. */
export const ACCESS_HEADER = 'Cf-Access-Jwt-Assertion';
