// C32: the management API as an app of its own, which the worker builds on the first request to
// one of its paths (src/app.ts): declaring its routes and their contracts costs the startup of
// every other request nothing.
import { HonoBase as Hono } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import type { AppEnv } from '../auth/authenticate.ts';
import { answerError, answerNotFound } from '../http/errors.ts';
import { manageRoutes } from './routes.ts';

let built: Hono<AppEnv> | undefined;

export function adminApp(): Hono<AppEnv> {
  if (built === undefined) {
    built = new Hono<AppEnv>({ router: new TrieRouter() });
    manageRoutes(built);
    built.notFound(answerNotFound);
    built.onError(answerError);
  }
  return built;
}
