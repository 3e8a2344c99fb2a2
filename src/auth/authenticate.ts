// C5 steps 1–2 and the rate limits right after them: bearer key → project (C6, C7, C21), for every
// route that takes an API key; and the kind of key a route needs (C23).
import type { Context, MiddlewareHandler } from 'hono';
import { config } from '../config.ts';
import type { AppEnv } from '../http/env.ts';
import {
  invalidKey,
  secretKeyInPage,
  secretKeyNeeded,
  tooManyRequests,
  unauthorized,
} from '../http/replies.ts';
import { keyHashOf, type ResolvedProject, resolveProject } from '../projects/cache.ts';
import { displayPrefix, looksLikeKey, parseBearer, placeOfKey } from '../projects/keys.ts';
import {
  clientAddress,
  countFailedAuthentication,
  limitEarly,
  mayLookUpKeys,
  type Payer,
} from './rate-limit.ts';

type Step = MiddlewareHandler<AppEnv>;

/**
 * C5 steps 1–2 (C6, C7): bearer key → project, its fields and origins. C21: every failed
 * authentication counts against the client's address; an address over that limit gets 429, and
 * its unknown keys cost no D1 query.
 */
export async function projectOfKey(
  c: Context,
): Promise<{ project: ResolvedProject; keyHash: string; keyPrefix: string }> {
  const bearer = parseBearer(c.req.header('Authorization'));
  if (!bearer.ok) {
    await countFailedAuthentication(c, c.env);
    throw unauthorized(bearer.problem, bearer.code);
  }
  return projectOfKeyText(c, bearer.token);
}

/** A key given as text (C40: a beacon's body, which can carry no header) → its project, as `projectOfKey`. */
export async function projectOfKeyText(
  c: Context,
  token: string,
): Promise<{ project: ResolvedProject; keyHash: string; keyPrefix: string }> {
  // A token that cannot be a key costs no D1 query.
  const keyHash = looksLikeKey(token) ? await keyHashOf(token) : undefined;
  const project =
    keyHash === undefined
      ? undefined
      : await resolveProject(c.env, placeOfKey(token), keyHash, config(c.env).CONFIG_CACHE_SECONDS, () => {
          if (!mayLookUpKeys(clientAddress(c))) throw tooManyRequests();
        });
  if (project === undefined || keyHash === undefined) {
    await countFailedAuthentication(c, c.env);
    throw invalidKey();
  }
  return { project, keyHash, keyPrefix: displayPrefix(token) };
}

/** Who pays for a request made with this key (C21): a publishable key's budget is every visitor's. */
export const payerOfKey = (project: ResolvedProject, keyHash: string): Payer => ({
  rateKey: keyHash,
  shared: project.keyKind === 'publishable',
  projectId: project.id,
});

/** C23: a browser sends Origin; a secret key has no business there, on any route. */
export function refuseSecretKeyInPage(c: Context, project: ResolvedProject): void {
  if (project.keyKind === 'secret' && c.req.header('Origin') !== undefined) throw secretKeyInPage();
}

/** Steps 1–2 as middleware, for the routes of the read API. */
export const authenticate: Step = async (c, next) => {
  const { project, keyHash, keyPrefix } = await projectOfKey(c);
  c.set('project', project);
  c.set('keyHash', keyHash);
  c.set('keyPrefix', keyPrefix);
  await next();
};

/** C21, right after step 2: a secret key's own budget; a publishable key's client address. */
export const rateLimit: Step = async (c, next) => {
  await limitEarly(c, c.env, payerOfKey(c.var.project, c.var.keyHash));
  await next();
};

/**
 * C23: routes that read or erase what was sent take a secret key (a publishable key gets 403), and
 * never from a web page.
 */
export const requireSecretKey: Step = async (c, next) => {
  if (c.var.project.keyKind !== 'secret') throw secretKeyNeeded();
  refuseSecretKeyInPage(c, c.var.project);
  await next();
};
