// The service on one screen: the route groups, each declaring its contract beside its handlers
// (C5's order inside the acceptance pipeline), the one 404, and the one error handler. The OpenAPI
// document is generated from this app (`npm run build:assets`).
import { HonoBase as Hono } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import { manageRoutes } from './admin/routes.ts';
import type { AppEnv } from './auth/authenticate.ts';
import { formRoutes } from './form/routes.ts';
import { ApiError } from './http/envelope.ts';
import { internalError, notFound, unavailable } from './http/replies.ts';
import { clientRequestIdOf, requestIdOf } from './http/request-id.ts';
import { send } from './http/send.ts';
import { causeText, UnavailableError } from './lib/faults.ts';
import { readRoutes } from './read/routes.ts';
import { submitRoutes } from './submit/routes.ts';

// The trie router alone: exact paths (no trailing-slash leniency, C16) at a third of the default's size.
export const app = new Hono<AppEnv>({ router: new TrieRouter() });

// C5: the JSON endpoint, through the acceptance pipeline (src/accept/pipeline.ts) both endpoints run.
submitRoutes(app);

// C24: the read API (secret keys only, no CORS).
readRoutes(app);

// C32: the management API (the operator, Access, a project's secret key, or a session; no CORS).
manageRoutes(app);

// C29: plain HTML forms, at each project's form address.
formRoutes(app);

// C16: every other path is 404.
app.notFound((c) => send(c, notFound().toEnvelope()));

// C3, C4, C18: errors are shaped once, here. Unknown faults are logged with the request id only:
// never the key, the body, or anything the reply would leak.
app.onError((err, c) => {
  if (err instanceof ApiError) return send(c, err.toEnvelope(), err.headers);
  const requestId = requestIdOf(c);
  console.error(
    JSON.stringify({
      level: 'error',
      requestId,
      clientRequestId: clientRequestIdOf(c),
      method: c.req.method,
      path: c.req.path,
      error: err.name,
      cause: causeText(err, 500),
    }),
  );
  const reply = err instanceof UnavailableError ? unavailable() : internalError(requestId);
  return send(c, reply.toEnvelope(), reply.headers);
});
