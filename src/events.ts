// Form analytics' events (C40), the widget's token (C39) and a page's drafts (C46), as an app of its own that the worker
// loads on the first of either: a page view sends one, so it must not load the management API (surfaces.ts), and a form post never
// evaluates it (docs/layout.md, the lazy boundary).
import { HonoBase as Hono } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import { draftRoutes } from './api/events/drafts.ts';
import { eventRoutes } from './api/events/routes.ts';
import { tokenRoutes } from './api/events/widget-token.ts';
import type { AppEnv } from './http/env.ts';
import { answerError, answerNotFound } from './http/errors.ts';

let built: Hono<AppEnv> | undefined;

export function eventsApp(): Hono<AppEnv> {
  if (built === undefined) {
    built = new Hono<AppEnv>({ router: new TrieRouter() });
    eventRoutes(built);
    tokenRoutes(built);
    draftRoutes(built);
    built.notFound(answerNotFound);
    built.onError(answerError);
  }
  return built;
}
