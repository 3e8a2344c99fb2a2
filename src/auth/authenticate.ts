// C5 steps 1–2 and the rate limits right after them: bearer key → project (C6, C7, C21), for every
// route that takes an API key; and the kind of key a route needs (C23).
import type { MiddlewareHandler } from 'hono';
import { config } from '../config.ts';
import { invalidKey, secretKeyNeeded, tooManyRequests, unauthorized } from '../http/replies.ts';
import { keyHashOf, type ResolvedProject, resolveProject } from '../projects/cache.ts';
import { looksLikeKey, parseBearer } from '../projects/keys.ts';
import { database } from '../store/db.ts';
import { checkRateLimits, clientAddress, countFailedAuthentication, mayLookUpKeys } from './rate-limit.ts';

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    project: ResolvedProject;
    keyHash: string;
    idempotencyKey: string | undefined;
  };
};
type Step = MiddlewareHandler<AppEnv>;

/**
 * C5 steps 1–2 (C6, C7): bearer key → project, its fields and origins. C21: every failed
 * authentication counts against the client's address; an address over that limit gets 429, and
 * its unknown keys cost no D1 query.
 */
export const authenticate: Step = async (c, next) => {
  const bearer = parseBearer(c.req.header('Authorization'));
  if (!bearer.ok) {
    await countFailedAuthentication(c, c.env);
    throw unauthorized(bearer.problem);
  }
  // A token that cannot be a key costs no D1 query.
  const keyHash = looksLikeKey(bearer.token) ? await keyHashOf(bearer.token) : undefined;
  const project =
    keyHash === undefined
      ? undefined
      : await resolveProject(database(c.env.DB), keyHash, config(c.env).CONFIG_CACHE_SECONDS, () => {
          if (!mayLookUpKeys(clientAddress(c))) throw tooManyRequests();
        });
  if (project === undefined || keyHash === undefined) {
    await countFailedAuthentication(c, c.env);
    throw invalidKey();
  }
  c.set('project', project);
  c.set('keyHash', keyHash);
  await next();
};

/**
 * C21, right after step 2: per API key, and per client address and project for every request with
 * a publishable key. A secret key is used by a server, which sends for many people from one
 * address: it has its per-key budget only (C23).
 */
export const rateLimit: Step = async (c, next) => {
  const perAddress = c.var.project.keyKind === 'publishable';
  await checkRateLimits(c, c.env, c.var.keyHash, c.var.project.id, perAddress);
  await next();
};

/** C23: routes that read or erase what was sent take a secret key; a publishable key gets 403. */
export const requireSecretKey: Step = async (c, next) => {
  if (c.var.project.keyKind !== 'secret') throw secretKeyNeeded();
  await next();
};
