// The service on one screen: the route groups, each declaring its contract beside its handlers
// (C5's order inside the acceptance pipeline), the one 404, and the one error handler. The OpenAPI
// document is generated from this app and the management API's (`npm run build:assets`).
import type { Context } from 'hono';
import { HonoBase as Hono } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import { adminApp } from './admin/app.ts';
import type { AppEnv } from './auth/authenticate.ts';
import { formRoutes } from './form/routes.ts';
import { answerError, answerNotFound } from './http/errors.ts';
import { MANAGE_PATH, SESSION_PATH, VERIFY_PATH } from './http/replies.ts';
import { readRoutes } from './read/routes.ts';
import { submitRoutes } from './submit/routes.ts';

// The trie router alone: exact paths (no trailing-slash leniency, C16) at a third of the default's size.
export const app = new Hono<AppEnv>({ router: new TrieRouter() });

// C5: the JSON endpoint, through the acceptance pipeline (src/accept/pipeline.ts) both endpoints run.
submitRoutes(app);

// C24: the read API (secret keys only, no CORS).
readRoutes(app);

// C32: the management API (the operator, Access, a project's secret key, or a session; no CORS),
// an app of its own, built on its first request: no other request pays for declaring its routes.
// C37: with it, the page where a notification address's owner agrees.
/** The request's execution context, which a request made without one (app.request) lacks. */
const executionContextOf = (c: Context<AppEnv>) => {
  try {
    return c.executionCtx as Parameters<Hono<AppEnv>['fetch']>[2];
  } catch {
    return undefined;
  }
};
const toAdmin = (c: Context<AppEnv>) => adminApp().fetch(c.req.raw, c.env, executionContextOf(c));
for (const path of [MANAGE_PATH, `${MANAGE_PATH}/*`, SESSION_PATH, `${VERIFY_PATH}/*`])
  app.all(path, toAdmin);

// C29: plain HTML forms, at each project's form address.
formRoutes(app);

// C16: every other path is 404. C3, C4, C18: errors are shaped once.
app.notFound(answerNotFound);
app.onError(answerError);
