// The whole service on one screen: middleware in the order of CONTRACT C5, the routes, the errors.
import { HonoBase as Hono } from 'hono/hono-base';
import { requestId } from 'hono/request-id';
import { TrieRouter } from 'hono/router/trie-router';
import { cors } from './cors.ts';
import { ApiError, envelope, StorageError, send } from './envelope.ts';
import {
  type AppEnv,
  authenticate,
  checkOrigin,
  limitBody,
  requireFields,
  requireJson,
  SUBMIT_PATH,
  submit,
} from './submissions.ts';

// The trie router alone: exact paths (no trailing-slash leniency, C16) at a third of the default's size.
const app = new Hono<AppEnv>({ router: new TrieRouter() });

app.use(requestId({ generator: (c) => c.req.header('cf-ray') ?? crypto.randomUUID() }));
app.use(cors(SUBMIT_PATH));

app.post(
  SUBMIT_PATH,
  authenticate, // 1–2: bearer key → project (C6, C7)
  checkOrigin, // 3: allowed origins (C15)
  requireFields, // 4: the project has fields
  requireJson, // 5: Content-Type (C9)
  limitBody, // 6: body size (C10)
  submit, // 7–10: JSON object, validation, save (C11–C13, C17)
);

// C16: the one path answers other methods with 405; every other path is 404.
app.all(SUBMIT_PATH, (c) =>
  send(
    c,
    envelope(405, {
      message: 'Method not allowed',
      error: { message: `Method ${c.req.method} is not allowed here: submit with POST` },
    }),
    { Allow: 'POST, OPTIONS' },
  ),
);

app.notFound((c) =>
  send(
    c,
    envelope(404, {
      message: 'Not found',
      error: { message: `No endpoint here: submit with POST ${SUBMIT_PATH}` },
    }),
  ),
);

/**
 * C8: the innermost cause only. Drizzle's query errors quote the bound parameters, which are the
 * submitted values: the body must never reach a log.
 */
function innermost(err: Error): string {
  let inner: unknown = err;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  return inner instanceof Error ? `${inner.name}: ${inner.message}`.slice(0, 500) : String(inner);
}

// C3, C4, C18: errors are shaped once, here. Unknown faults are logged with the request id only:
// never the key, the body, or anything the reply would leak.
app.onError((err, c) => {
  if (err instanceof ApiError) return send(c, err.toEnvelope(), err.headers);
  const requestId = c.var.requestId;
  console.error(
    JSON.stringify({
      level: 'error',
      requestId,
      method: c.req.method,
      path: c.req.path,
      error: err.name,
      cause: innermost(err),
    }),
  );
  if (err instanceof StorageError) {
    return send(
      c,
      envelope(503, {
        message: 'Submission not saved',
        error: { message: 'Service temporarily unavailable' },
      }),
      { 'Retry-After': '5' },
    );
  }
  return send(
    c,
    envelope(500, {
      message: 'Internal server error',
      error: { message: `Unexpected error; it has been logged as request ${requestId}` },
    }),
  );
});

export default app;
