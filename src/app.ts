// The service on one screen: the two submission paths, each declaring its contract beside its
// handlers (C5's order inside the acceptance pipeline), every other surface loaded on its first
// request, the one 404, and the one error handler. The OpenAPI document is generated from this app
// and the other surfaces' (`npm run build:assets`).
import type { Context } from 'hono';
import { HonoBase as Hono } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import { formRoutes } from './api/html-form/routes.ts';
import { submitRoutes } from './api/submit/routes.ts';
import type { AppEnv } from './http/env.ts';
import { answerError, answerNotFound } from './http/errors.ts';
import {
  DRAFT_OPEN_PATH,
  DRAFTS_PATH,
  EVENTS_PATH,
  MANAGE_PATH,
  PLACES_PATH,
  READ_PATH,
  SCHEMA_PATH,
  SESSION_PATH,
  VERIFY_PATH,
  WIDGET_TOKEN_PATH,
} from './http/paths.ts';

// The trie router alone: exact paths (no trailing-slash leniency, C16) at a third of the default's size.
export const app = new Hono<AppEnv>({ router: new TrieRouter() });

// C5: the JSON endpoint, through the acceptance pipeline (src/accept/pipeline.ts) both endpoints run.
submitRoutes(app);

// C29: plain HTML forms, at each project's form address.
formRoutes(app);

/** The request's execution context, which a request made without one (app.request) lacks. */
const executionContextOf = (c: Context<AppEnv>) => {
  try {
    return c.executionCtx as Parameters<Hono<AppEnv>['fetch']>[2];
  } catch {
    return undefined;
  }
};

// C24: the key-scoped submissions API (C43: and its project's schema); C32: the management API and
// its sessions; C37: the page where a notification address's owner agrees. Loaded on the first
// request to one of their paths: a form post neither evaluates nor declares any of them
// (docs/layout.md, the lazy boundary).
const toSurfaces = async (c: Context<AppEnv>) =>
  (await import('./surfaces.ts')).surfacesApp().fetch(c.req.raw, c.env, executionContextOf(c));
for (const path of [
  // C16: the worker's own address, which points the way (src/http/home.ts).
  '/',
  READ_PATH,
  `${READ_PATH}/*`,
  SCHEMA_PATH,
  MANAGE_PATH,
  `${MANAGE_PATH}/*`,
  SESSION_PATH,
  PLACES_PATH,
  `${VERIFY_PATH}/*`,
])
  app.all(path, toSurfaces);

// C40: form analytics' events, (C39) the widget's token and (C46) a page's drafts, loaded on the
// first of any
// (events.ts): a page view sends them, and needs neither the management API nor the submission
// path's pipeline.
const toEvents = async (c: Context<AppEnv>) =>
  (await import('./events.ts')).eventsApp().fetch(c.req.raw, c.env, executionContextOf(c));
app.all(EVENTS_PATH, toEvents);
app.all(WIDGET_TOKEN_PATH, toEvents);
app.all(DRAFTS_PATH, toEvents);
app.all(DRAFT_OPEN_PATH, toEvents);

// C16: every other path is 404. C3, C4, C18: errors are shaped once.
app.notFound(answerNotFound);
app.onError(answerError);
