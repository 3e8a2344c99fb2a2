// C32: the dashboard's sessions. A credential is exchanged once for a cookie that no script can
// read (HttpOnly), that no other site sends (SameSite=Strict), and whose id D1 never sees (only
// its hash); the page keeps the session's CSRF token in memory, and asks for it again on reload.
import type { Context } from 'hono';
import * as v from 'valibot';
import { described } from '../../http/query-values.ts';
import { crossSiteSignIn, invalidCredentials } from '../../http/replies.ts';
import { randomToken, sha256Text } from '../../lib/hex.ts';
import { actorName } from '../../ops/context.ts';
import { database } from '../../store/db.ts';
import { deleteSession, insertSession } from '../../store/sessions.ts';
import type { ManageRoutes } from './define.ts';
import {
  ACCESS_RECHECK_MS,
  csrfTokenOf,
  isLocalHttp,
  MAX_SESSIONS_PER_CREDENTIAL,
  type ManageEnv,
  type Principal,
  SESSION_SECONDS,
  sessionCookieName,
} from './principal.ts';
import { MANAGE_ROUTES } from './table.ts';
import { SessionSchema } from './views.ts';

/**
 * The cookie: `Secure` and (C37) `__Host-` everywhere but on this machine, where `wrangler dev`
 * serves plain http.
 */
function cookie(c: Context, value: string, maxAge: number): string {
  const secure = isLocalHttp(c) ? '' : '; Secure';
  return `${sessionCookieName(c)}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
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
    ...MANAGE_ROUTES.signIn,
    tag: 'Sessions',
    summary: 'Exchanges a credential for a session cookie (C32)',
    description:
      "Send the operator token or a secret key as `Authorization: Bearer …` (or an Access JWT), from no page or from the worker's own (another `Origin` is 403). The reply sets `__Host-edgeform_session` (`edgeform_session` on http://localhost; HttpOnly, SameSite=Strict, Secure, 12 hours, or until the Access token ends) and gives the CSRF token that every change made with the cookie must send as `X-CSRF-Token`. A credential has at most 10 sessions: a new one ends the oldest.",
    access: 'credential',
    refusals: [{ name: 'from another origin', reply: crossSiteSignIn() }],
    reply: {
      status: 201,
      description: 'Signed in: the cookie is set.',
      members: { session: SessionSchema },
      example: { message: 'Signed in', session: EXAMPLE },
    },
    extra: {},
    handler: async ({ c, principal }) => {
      const id = randomToken();
      const now = Date.now();
      // C37: a session made from an Access token never outlives it, and is checked again hourly.
      const ends = Math.min(
        now + SESSION_SECONDS * 1000,
        principal.accessExpiresAt ?? Number.POSITIVE_INFINITY,
      );
      const expiresAt = new Date(ends).toISOString();
      await insertSession(
        database(c.env.DB),
        {
          idHash: await sha256Text(id),
          actor: actorName(principal.actor),
          projectId: principal.projectId ?? null,
          keyHash: principal.credentialHash,
          createdAt: new Date(now).toISOString(),
          expiresAt,
          recheckAt:
            principal.accessExpiresAt === undefined ? null : new Date(now + ACCESS_RECHECK_MS).toISOString(),
        },
        MAX_SESSIONS_PER_CREDENTIAL,
      );
      return {
        status: 201,
        message: 'Signed in',
        data: { session: view(principal, await csrfTokenOf(id), expiresAt) },
        headers: {
          'Set-Cookie': cookie(c, id, Math.max(0, Math.floor((ends - now) / 1000))),
          'Cache-Control': 'no-store',
        },
      };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.getSession,
    tag: 'Sessions',
    summary: "The cookie's session: who, which project, until when, and its CSRF token",
    description:
      'Never 401 for want of a session (C33: the dashboard asks it before anyone has signed in): with no live session, `session` is null. `access` says whether the caller is a Cloudflare Access identity: with no session, `POST /api/v1/session` with no credential then makes one. A wrong or malformed credential is 401 as on every route.',
    access: 'optional',
    reply: {
      status: 200,
      description: 'The session, or null when there is none.',
      members: {
        session: v.nullable(SessionSchema),
        access: described(
          v.boolean(),
          'Whether the caller is a Cloudflare Access identity (its session was made by Access; with none, POST /api/v1/session with no credential makes one).',
        ),
      },
      example: { message: 'Signed in', session: EXAMPLE, access: false },
    },
    handler: async ({ principal }) => {
      // C33: not signed in is an answer, not a failure: no 401, and no failed authentication counted.
      const access = principal?.actor.kind === 'access';
      const headers = { 'Cache-Control': 'no-store' };
      if (principal?.session === undefined) {
        return { message: 'Not signed in', data: { session: null, access }, headers };
      }
      const { csrfToken, expiresAt } = principal.session;
      return {
        message: 'Signed in',
        data: { session: view(principal, csrfToken, expiresAt), access },
        headers,
      };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.signOut,
    tag: 'Sessions',
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
