// Every surface but the submission paths, as an app of its own that the worker loads on the first
// request to one of its paths (src/app.ts): the key-scoped submissions API (C24) and its project's
// schema (C43), the management API and its sessions (C32), and the page where a notification
// address's owner agrees (C37).
// A form post never evaluates any of it (docs/layout.md, the lazy boundary).

import type { Context, Next } from 'hono';
import { HonoBase as Hono } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import { manageRoutes } from './api/manage/routes.ts';
import { readRoutes } from './api/submissions/routes.ts';
import { schemaRoutes } from './api/submissions/schema.ts';
import { afterReply } from './http/after-reply.ts';
import type { AppEnv } from './http/env.ts';
import { answerError, answerNotFound } from './http/errors.ts';
import { homeRoute } from './http/home.ts';
import { MANAGE_PATH } from './http/paths.ts';
import { purgeProjectPages } from './pages/cache.ts';

let built: Hono<AppEnv> | undefined;

/**
 * C44: a change made to a project (its fields, its page, its keys, moving or deleting it) purges
 * its hosted page from this data centre's cache, under every host name, once the change is made;
 * a failed one purges nothing.
 */
async function purgePages(c: Context<AppEnv>, next: Next): Promise<void> {
  await next();
  const projectId = c.req.param('projectId');
  if (c.req.method === 'GET' || c.res.status >= 400 || projectId === undefined) return;
  await afterReply(
    c,
    purgeProjectPages(projectId).catch(() => {}),
  );
}

export function surfacesApp(): Hono<AppEnv> {
  if (built === undefined) {
    built = new Hono<AppEnv>({ router: new TrieRouter() });
    built.use(`${MANAGE_PATH}/:projectId`, purgePages);
    built.use(`${MANAGE_PATH}/:projectId/*`, purgePages);
    readRoutes(built);
    schemaRoutes(built);
    manageRoutes(built);
    homeRoute(built);
    built.notFound(answerNotFound);
    built.onError(answerError);
  }
  return built;
}
