// Every surface but the submission paths, as an app of its own that the worker loads on the first
// request to one of its paths (src/app.ts): the key-scoped submissions API (C24) and its project's
// schema (C43), the management API and its sessions (C32), and the page where a notification
// address's owner agrees (C37).
// A form post never evaluates any of it (docs/layout.md, the lazy boundary).
import { HonoBase as Hono } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import { manageRoutes } from './api/manage/routes.ts';
import { readRoutes } from './api/submissions/routes.ts';
import { schemaRoutes } from './api/submissions/schema.ts';
import type { AppEnv } from './http/env.ts';
import { answerError, answerNotFound } from './http/errors.ts';

let built: Hono<AppEnv> | undefined;

export function surfacesApp(): Hono<AppEnv> {
  if (built === undefined) {
    built = new Hono<AppEnv>({ router: new TrieRouter() });
    readRoutes(built);
    schemaRoutes(built);
    manageRoutes(built);
    built.notFound(answerNotFound);
    built.onError(answerError);
  }
  return built;
}
