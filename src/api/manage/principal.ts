// C32: who calls the management API, and what they may manage: the operator (by token or by
// Cloudflare Access), a project's secret key (that project only), or a session made from one of
// them (a cookie, for the dashboard, whose writes must come from the worker's own origin with the
// session's CSRF token).
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { operatorToken as longOperatorToken, sameSecret } from '../../auth/operator-secret.ts';
import {
  clientAddress,
  countFailedAuthentication,
  limitEarly,
  mayLookUpKeys,
} from '../../auth/rate-limit.ts';
import { config } from '../../config.ts';
import type { AppEnv } from '../../http/env.ts';
import { ACCESS_HEADER } from '../../http/headers.ts';
import {
  crossSiteWrite,
  invalidCredentials,
  publishableKeyCannotManage,
  secretKeyInPage,
  tooManyRequests,
} from '../../http/replies.ts';
import { sha256Text, TOKEN_LENGTH } from '../../lib/hex.ts';
import type { Actor } from '../../ops/context.ts';
import { keyHashOf, resolveProject } from '../../projects/cache.ts';
import { displayPrefix, looksLikeKey, parseBearer, placeOfKey, placeOfPrefix } from '../../projects/keys.ts';
import { database } from '../../store/db.ts';
import { deleteSession, findSession, recheckSession } from '../../store/sessions.ts';
import { accessConfigured, accessIdentity } from './access.ts';

export const SESSION_COOKIE = 'edgeform_session';
/**
 * C37: on https the cookie is `__Host-` prefixed: the browser keeps it only if Secure, for this
 * host alone and the whole path, so no sibling subdomain can plant or shadow it.
 */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Plain http on this machine (`wrangler dev`): no `Secure`, so no `__Host-` either. */
export const isLocalHttp = (c: Context) => {
  const url = new URL(c.req.url);
  return url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
};

/** The session cookie's name for this request's scheme. */
export const sessionCookieName = (c: Context) => (isLocalHttp(c) ? SESSION_COOKIE : HOST_SESSION_COOKIE);
export const CSRF_HEADER = 'X-CSRF-Token';

export type Principal = {
  actor: Actor;
  /** The one project a secret key (or its session) may manage; undefined: every project. */
  projectId: string | undefined;
  /** C41: that project's place, as its key found it (no directory look-up needed). */
  place?: string;
  /** What a session made from this credential checks it by: the SHA-256 of the token or key. */
  credentialHash: string | null;
  /** For a cookie: the session's stored hash, its CSRF token and its end. */
  session?: { idHash: string; csrfToken: string; expiresAt: string };
  /** C37: an Access identity's token ends then (ms): a session made from it ends no later. */
  accessExpiresAt?: number;
};

/** The caller, as the route's guard found it: none only on a route any visitor may call (C33). */
export type ManageEnv = AppEnv & { Variables: AppEnv['Variables'] & { principal: Principal | undefined } };

let warnedShortToken = false;

/**
 * The operator token (auth/operator-secret.ts), if one is set and long enough; a short one is
 * refused, with one log line, since operator sign-in is then off.
 */
function operatorToken(env: Env): string | undefined {
  const token = longOperatorToken(env);
  if (token === undefined && (env.ADMIN_TOKEN ?? '') !== '' && !warnedShortToken) {
    warnedShortToken = true;
    console.error(
      JSON.stringify({
        level: 'error',
        event: 'admin-token-refused',
        reason: `ADMIN_TOKEN is shorter than ${TOKEN_LENGTH} characters (32 random bytes): operator sign-in is off until it is replaced`,
      }),
    );
  }
  return token;
}

/** The CSRF token of a session: derived from its id (which only the cookie holds), never stored. */
export const csrfTokenOf = (sessionId: string) => sha256Text(`csrf:${sessionId}`);

/** The worker's own origin, as a browser names it in `Origin`. */
export const ownOrigin = (c: Context) => new URL(c.req.url).origin;

/** A refusal that counts against the client's address (C21). */
export async function refuse(c: Context<ManageEnv>): Promise<never> {
  await countFailedAuthentication(c, c.env);
  throw invalidCredentials();
}

/** A credential sent with the request (bearer token or key, or an Access JWT), or undefined. */
export async function credentialOf(c: Context<ManageEnv>): Promise<Principal | undefined> {
  const env = c.env;
  const header = c.req.header('Authorization');
  if (header !== undefined) {
    const bearer = parseBearer(header);
    if (!bearer.ok) return refuse(c);
    const token = bearer.token;
    if (looksLikeKey(token)) {
      const keyHash = await keyHashOf(token);
      const project = await resolveProject(
        env,
        placeOfKey(token),
        keyHash,
        config(env).CONFIG_CACHE_SECONDS,
        () => {
          if (!mayLookUpKeys(clientAddress(c))) throw tooManyRequests();
        },
      );
      if (project === undefined) return refuse(c);
      if (project.keyKind !== 'secret') throw publishableKeyCannotManage();
      // C23: a secret key in a web page other than the worker's own (its dashboard) is refused.
      const origin = c.req.header('Origin');
      if (origin !== undefined && origin !== ownOrigin(c)) throw secretKeyInPage();
      await limitEarly(c, env, { rateKey: keyHash, shared: false, projectId: project.id });
      return {
        actor: { kind: 'key', prefix: displayPrefix(token) },
        projectId: project.id,
        place: project.place,
        credentialHash: keyHash,
      };
    }
    const expected = operatorToken(env);
    if (expected === undefined || !(await sameSecret(token, expected))) return refuse(c);
    return { actor: { kind: 'operator' }, projectId: undefined, credentialHash: await sha256Text(expected) };
  }
  const assertion = c.req.header(ACCESS_HEADER);
  if (assertion !== undefined && accessConfigured(env)) {
    const identity = await accessIdentity(assertion, env);
    if (identity === undefined) return refuse(c);
    return {
      actor: { kind: 'access', email: identity.email },
      projectId: undefined,
      credentialHash: null,
      accessExpiresAt: identity.expiresAt,
    };
  }
  return undefined;
}

/** A session lasts at most 12 hours. */
export const SESSION_SECONDS = 12 * 60 * 60;
/** C37: live sessions per credential: a new one ends the oldest beyond it. */
export const MAX_SESSIONS_PER_CREDENTIAL = 10;

/** C37: an Access session is checked against Access again this often, at least. */
export const ACCESS_RECHECK_MS = 60 * 60 * 1000;

/**
 * C37: an Access session due for its check: the request must carry a valid Access token of the
 * same identity (Access adds one to every request it lets through), which moves the check an hour
 * on and the session's end to the token's (never past its first twelve hours). Else it ends.
 */
async function recheckAccess(
  c: Context<ManageEnv>,
  row: { idHash: string; actor: string; createdAt: string; expiresAt: string },
  now: number,
): Promise<string | undefined> {
  const assertion = c.req.header(ACCESS_HEADER);
  const identity =
    assertion !== undefined && accessConfigured(c.env) ? await accessIdentity(assertion, c.env) : undefined;
  const db = database(c.env.DB);
  if (identity === undefined || `access:${identity.email}` !== row.actor) {
    await deleteSession(db, row.idHash);
    return undefined;
  }
  const expiresAt = new Date(
    Math.min(identity.expiresAt, Date.parse(row.createdAt) + SESSION_SECONDS * 1000),
  ).toISOString();
  await recheckSession(db, row.idHash, new Date(now + ACCESS_RECHECK_MS).toISOString(), expiresAt);
  return expiresAt;
}

/**
 * The session of the cookie, if it is live and its credential still holds. C37: a key's session
 * spends the key's rate limit; an Access session is checked against Access again when due.
 */
async function sessionOf(c: Context<ManageEnv>, id: string): Promise<Principal | undefined> {
  const idHash = await sha256Text(id);
  const now = Date.now();
  const row = await findSession(database(c.env.DB), idHash, new Date(now).toISOString());
  if (row === undefined) return undefined;
  let actor: Actor;
  let place: string | undefined;
  let expiresAt = row.expiresAt;
  if (row.actor === 'operator') {
    // Ends when the operator token changes.
    const token = operatorToken(c.env);
    if (token === undefined || row.keyHash !== (await sha256Text(token))) return undefined;
    actor = { kind: 'operator' };
  } else if (row.actor.startsWith('access:')) {
    if (row.recheckAt === null || Date.parse(row.recheckAt) <= now) {
      const until = await recheckAccess(c, row, now);
      if (until === undefined) return undefined;
      expiresAt = until;
    }
    actor = { kind: 'access', email: row.actor.slice('access:'.length) };
  } else {
    // Ends with its key: revoked (C17: seen within the cache's seconds), the session is no more.
    if (row.keyHash === null) return undefined;
    const prefix = row.actor.slice('key:'.length);
    const project = await resolveProject(
      c.env,
      placeOfPrefix(prefix),
      row.keyHash,
      config(c.env).CONFIG_CACHE_SECONDS,
    );
    if (project === undefined || project.id !== row.projectId || project.keyKind !== 'secret')
      return undefined;
    // C37: the key's own budget, as if the key itself were sent.
    await limitEarly(c, c.env, { rateKey: row.keyHash, shared: false, projectId: project.id });
    actor = { kind: 'key', prefix };
    place = project.place;
  }
  return {
    actor,
    projectId: row.projectId ?? undefined,
    ...(place === undefined ? {} : { place }),
    credentialHash: row.keyHash,
    session: { idHash, csrfToken: await csrfTokenOf(id), expiresAt },
  };
}

/**
 * C32: the caller: the session of the cookie, unless a bearer credential is sent; else a credential
 * (a bearer token or key, or an Access token); else undefined (a wrong credential is 401). With the
 * cookie, every method but GET and HEAD must come from the worker's own origin with the CSRF token.
 * (Behind Access, the dashboard's requests carry both the cookie and Access's token: the session
 * answers, and Access's token is what it is checked against again, C37.)
 */
export async function callerOf(c: Context<ManageEnv>): Promise<Principal | undefined> {
  const cookie = c.req.header('Authorization') === undefined ? getCookie(c, sessionCookieName(c)) : undefined;
  const session = cookie === undefined ? undefined : await sessionOf(c, cookie);
  if (session !== undefined) {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const origin = c.req.header('Origin');
      const csrf = c.req.header(CSRF_HEADER) ?? '';
      if (origin !== ownOrigin(c) || !(await sameSecret(csrf, session.session?.csrfToken ?? ''))) {
        throw crossSiteWrite();
      }
    }
    return session;
  }
  const credential = await credentialOf(c);
  if (credential === undefined) return undefined;
  // Access adds its header to every request its cookie comes with, another site's too: a change
  // it vouches for must not come from another origin's page.
  const origin = c.req.header('Origin');
  const write = c.req.method !== 'GET' && c.req.method !== 'HEAD';
  if (credential.actor.kind === 'access' && write && origin !== undefined && origin !== ownOrigin(c)) {
    throw crossSiteWrite();
  }
  return credential;
}
