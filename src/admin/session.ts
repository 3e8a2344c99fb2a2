// C32: the dashboard's sessions. A credential is exchanged once for a cookie that no script can
// read (HttpOnly), that no other site sends (SameSite=Strict), and whose id D1 never sees (only
// its hash); the page keeps the session's CSRF token in memory, and asks for it again on reload.
import type { Context } from 'hono';
import { invalidCredentials } from '../http/replies.ts';
import { sha256Text } from '../lib/hex.ts';
import { actorName } from '../manage/context.ts';
import { deleteSession, insertSession } from '../store/sessions.ts';
import type { ManageRoutes } from './define.ts';
import { managerOf } from './define.ts';
import { csrfTokenOf, type ManageEnv, type Principal, SESSION_COOKIE } from './principal.ts';
import { SessionSchema } from './schemas.ts';

/** A session lasts at most 12 hours. */
export const SESSION_SECONDS = 12 * 60 * 60;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The cookie: `Secure` everywhere but on this machine, where `wrangler dev` serves plain http. */
function cookie(c: Context, value: string, maxAge: number): string {
  const secure = LOCAL_HOSTS.has(new URL(c.req.url).hostname) ? '' : '; Secure';
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replaceAll('=', '');
}

const view = (p: Principal, csrfToken: string, expiresAt: string) => ({
  actor: actorName(p.actor),
  projectId: p.projectId ?? null,
  expiresAt,
  csrfToken,
});

const EXAMPLE = {
  actor: 'operator',
  projectId: null,
  expiresAt: '2026-11-23T21:00:00.000Z',
  csrfToken: 'Zk3q…',
};

export function sessionRoutes(routes: ManageRoutes): void {
  routes.add({
    method: 'post',
    path: '/session',
    tag: 'Sessions',
    operationId: 'signIn',
    summary: 'Exchanges a credential for a session cookie (C32)',
    description:
      'Send the operator token or a secret key as `Authorization: Bearer …` (or an Access JWT). The reply sets `edgeform_session` (HttpOnly, SameSite=Strict, Secure but on localhost, 12 hours) and gives the CSRF token that every change made with the cookie must send as `X-CSRF-Token`.',
    access: 'credential',
    reply: {
      status: 201,
      description: 'Signed in: the cookie is set.',
      members: { session: SessionSchema },
      example: { message: 'Signed in', session: EXAMPLE },
    },
    extra: {},
    handler: async ({ c, principal }) => {
      const id = base64url(crypto.getRandomValues(new Uint8Array(32)));
      const now = Date.now();
      const expiresAt = new Date(now + SESSION_SECONDS * 1000).toISOString();
      await insertSession(managerOf(c, principal).db, {
        idHash: await sha256Text(id),
        actor: actorName(principal.actor),
        projectId: principal.projectId ?? null,
        keyHash: principal.credentialHash,
        createdAt: new Date(now).toISOString(),
        expiresAt,
      });
      return {
        status: 201,
        message: 'Signed in',
        data: { session: view(principal, await csrfTokenOf(id), expiresAt) },
        headers: { 'Set-Cookie': cookie(c, id, SESSION_SECONDS), 'Cache-Control': 'no-store' },
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/session',
    tag: 'Sessions',
    operationId: 'getSession',
    summary: "The cookie's session: who, which project, until when, and its CSRF token",
    access: 'any',
    reply: {
      status: 200,
      description: 'The session.',
      members: { session: SessionSchema },
      example: { message: 'Signed in', session: EXAMPLE },
    },
    handler: async ({ principal }) => {
      if (principal.session === undefined) throw invalidCredentials();
      return {
        message: 'Signed in',
        data: { session: view(principal, principal.session.csrfToken, principal.session.expiresAt) },
        headers: { 'Cache-Control': 'no-store' },
      };
    },
  });

  routes.add({
    method: 'delete',
    path: '/session',
    tag: 'Sessions',
    operationId: 'signOut',
    summary: "Ends the cookie's session",
    access: 'any',
    reply: {
      status: 200,
      description: 'Signed out: the cookie is cleared.',
      members: {},
      example: { message: 'Signed out' },
    },
    handler: async ({ c, m, principal }) => {
      if (principal.session === undefined) throw invalidCredentials();
      await deleteSession(m.db, principal.session.idHash);
      return { message: 'Signed out', headers: { 'Set-Cookie': cookie(c as Context<ManageEnv>, '', 0) } };
    },
  });
}
