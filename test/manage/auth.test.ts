// C32: who may call the management API: the operator token, a Cloudflare Access identity (a key
// pair made here, its JWKS served at the team's address by a stand-in for the network), a
// project's secret key (its own project only), a session cookie (with the CSRF token and the
// worker's own origin for changes); a publishable key never.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, sessions } from '../../schema/tables.ts';
import { sha256Text } from '../../src/lib/hex.ts';
import { database } from '../../src/store/db.ts';
import { fetchWorkerWith, ONE_WINDOW, withinOneWindow } from '../helpers.ts';
import { api, BASE, newProject, ok, operatorToken, problem, request, secretKeyOf } from './helpers.ts';

const INVALID = 'Invalid credentials';

describe('C32: the operator token', () => {
  it('C32: no credential, a wrong token, a token sharing the real one’s start: 401 with WWW-Authenticate', async () => {
    for (const token of [null, 'nope', `${operatorToken().slice(0, 40)}xyz`, `${operatorToken()}x`]) {
      const res = await api('GET', '/projects', { token });
      expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
      expect(await problem(res, 401)).toBe(INVALID);
    }
  });

  it('C32: the operator token manages every project', async () => {
    const p = await newProject();
    const data = await ok<{ project: { id: string } }>(await api('GET', `/projects/${p.projectId}`));
    expect(data.project.id).toBe(p.projectId);
  });

  it('C32: a token shorter than 43 characters is refused, with one log line that never holds it', async () => {
    const short = 'short-token-of-forty-characters-exactly0';
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const testEnv = { ...env, ADMIN_TOKEN: short };
    for (let i = 0; i < 2; i++) {
      const res = await fetchWorkerWith(testEnv, request('GET', '/projects', { token: short }));
      expect(await problem(res, 401)).toBe(INVALID);
    }
    const lines = logged.mock.calls.map((call) => String(call[0]));
    expect(lines.filter((l) => l.includes('admin-token-refused'))).toHaveLength(1);
    expect(lines.join('\n')).not.toContain(short);
    logged.mockRestore();
  });

  it(
    'C21 + C32: failed sign-ins count per address: over the limit, 429 even for the right token',
    ONE_WINDOW,
    async () => {
      await withinOneWindow();
      const tight = { ...env, AUTH_FAILURE_RATE_LIMIT: env.TIGHT_AUTH_FAILURE_RATE_LIMIT };
      const from = { 'CF-Connecting-IP': '198.51.100.77' };
      for (let i = 0; i < 2; i++) {
        await problem(
          await fetchWorkerWith(tight, request('GET', '/projects', { token: 'wrong', headers: from })),
          401,
        );
      }
      expect(
        await problem(
          await fetchWorkerWith(tight, request('GET', '/projects', { token: 'wrong', headers: from })),
          429,
        ),
      ).toMatch(/Rate limit/);
    },
  );

  it('C32: no CORS headers on these routes, whatever the Origin', async () => {
    const res = await api('GET', '/projects', { headers: { Origin: 'https://example.com' } });
    await ok(res);
    expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });
});

describe('C32: keys', () => {
  it('C32: a publishable key gets 403', async () => {
    const p = await newProject();
    expect(await problem(await api('GET', `/projects/${p.projectId}`, { token: p.apiKey }), 403)).toMatch(
      /publishable key cannot manage/,
    );
  });

  it('C32: a secret key manages its own project; another project is 404, as one that does not exist', async () => {
    const mine = await newProject();
    const other = await newProject();
    const key = await secretKeyOf(mine.projectId);
    await ok(await api('GET', `/projects/${mine.projectId}`, { token: key }));
    const foreign = await problem(
      await api('GET', `/projects/${other.projectId}/submissions`, { token: key }),
      404,
    );
    expect(foreign).toBe(`Unknown project '${other.projectId}'`);
    expect(
      await problem(await api('GET', '/projects/p_nosuchproject/submissions', { token: key }), 404),
    ).toBe("Unknown project 'p_nosuchproject'");
    const list = await ok<{ projects: { id: string }[] }>(await api('GET', '/projects', { token: key }));
    expect(list.projects.map((p) => p.id)).toEqual([mine.projectId]);
  });

  it('C32: a secret key never creates or deletes a project', async () => {
    const p = await newProject();
    const key = await secretKeyOf(p.projectId);
    const body = { name: 'x', fields: [{ name: 'a', type: 'string' }] };
    expect(await problem(await api('POST', '/projects', { token: key, body }), 403)).toMatch(
      /own project only/,
    );
    expect(await problem(await api('DELETE', `/projects/${p.projectId}`, { token: key }), 403)).toMatch(
      /own project only/,
    );
    await ok(await api('GET', `/projects/${p.projectId}`));
  });

  it('C23 + C32: a secret key sent from another origin’s page is 403; from the worker’s own, it is served', async () => {
    const p = await newProject();
    const key = await secretKeyOf(p.projectId);
    const path = `/projects/${p.projectId}`;
    expect(
      await problem(await api('GET', path, { token: key, headers: { Origin: 'https://evil.example' } }), 403),
    ).toMatch(/never be used in a web page/);
    await ok(await api('GET', path, { token: key, headers: { Origin: BASE } }));
  });

  it('C32: changes are recorded under the key’s prefix', async () => {
    const p = await newProject();
    const key = await secretKeyOf(p.projectId);
    await ok(
      await api('POST', `/projects/${p.projectId}/origins`, {
        token: key,
        body: { origin: 'https://a.example' },
      }),
      201,
    );
    const rows = await database(env.DB).select().from(auditLog).where(eq(auditLog.projectId, p.projectId));
    const entry = rows.find((r) => r.action === 'origin.add');
    expect(entry?.actor).toBe(`key:${key.slice(0, 20)}`);
    expect(JSON.stringify(rows)).not.toContain(key);
  });
});

describe('C32: Cloudflare Access', () => {
  const issuer = 'https://forms-test.cloudflareaccess.com';
  let sign: (
    claims: Record<string, unknown>,
    options?: { kid?: string; expires?: string | null },
  ) => Promise<string>;

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'test-kid', alg: 'RS256', use: 'sig' };
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url === `${issuer}/cdn-cgi/access/certs`) return Response.json({ keys: [jwk] });
      return realFetch(input, init);
    });
    sign = (claims, options = {}) => {
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'test-kid' })
        .setIssuedAt();
      if (options.expires !== null) jwt.setExpirationTime(options.expires ?? '5m');
      return jwt.sign(privateKey);
    };
  });

  const withJwt = (jwt: string) => ({ token: null, headers: { 'Cf-Access-Jwt-Assertion': jwt } });

  it('C32: a valid identity manages everything, and its changes are recorded under its email', async () => {
    const jwt = await sign({ iss: issuer, aud: 'aud-forms-test', email: 'ops@example.com' });
    const created = await ok<{ projectId: string }>(
      await api('POST', '/projects', {
        ...withJwt(jwt),
        body: { name: 'By Access', fields: [{ name: 'a', type: 'string' }] },
      }),
      201,
    );
    const [entry] = await database(env.DB)
      .select()
      .from(auditLog)
      .where(eq(auditLog.projectId, created.projectId));
    expect(entry?.actor).toBe('access:ops@example.com');
    expect(entry?.action).toBe('project.create');
  });

  it('C32: an expired token, another audience, another issuer, an unknown key id: 401', async () => {
    const good = { iss: issuer, aud: 'aud-forms-test', email: 'ops@example.com' };
    const bad = [
      await sign(good, { expires: '-1m' }),
      await sign({ ...good, aud: 'another-app' }),
      await sign({ ...good, iss: 'https://other-team.cloudflareaccess.com' }),
      await sign(good, { kid: 'unknown-kid' }),
      'not.a.jwt',
    ];
    for (const jwt of bad)
      expect(await problem(await api('GET', '/projects', withJwt(jwt)), 401)).toBe(INVALID);
  });

  it('C32: an unsigned token (alg none) is refused', async () => {
    const part = (o: unknown) =>
      btoa(JSON.stringify(o)).replaceAll('=', '').replaceAll('+', '-').replaceAll('/', '_');
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${part({ alg: 'none' })}.${part({ iss: issuer, aud: 'aud-forms-test', email: 'x@example.com', exp: now + 60 })}.`;
    expect(await problem(await api('GET', '/projects', withJwt(unsigned)), 401)).toBe(INVALID);
  });

  it('C32: a change vouched for by Access from another origin’s page is refused (Access adds its header to any request)', async () => {
    const jwt = await sign({ iss: issuer, aud: 'aud-forms-test', email: 'ops@example.com' });
    const body = { name: 'Cross-site', fields: [{ name: 'a', type: 'string' }] };
    const headers = { 'Cf-Access-Jwt-Assertion': jwt, Origin: 'https://evil.example' };
    expect(await problem(await api('POST', '/projects', { token: null, body, headers }), 403)).toMatch(
      /X-CSRF-Token/,
    );
    await ok(await api('GET', '/projects', { token: null, headers }));
    await ok(
      await api('POST', '/projects', { token: null, body, headers: { ...headers, Origin: BASE } }),
      201,
    );
  });

  it('C33: behind Access, the dashboard’s POST /api/v1/session with no credential of its own makes the session', async () => {
    const jwt = await sign({ iss: issuer, aud: 'aud-forms-test', email: 'ops@example.com' });
    const res = await api('POST', '/session', withJwt(jwt));
    const data = await ok<{ session: { actor: string; projectId: string | null } }>(res, 201);
    expect(data.session).toMatchObject({ actor: 'access:ops@example.com', projectId: null });
    expect(res.headers.get('Set-Cookie')).toMatch(/^__Host-edgeform_session=/);
  });

  it('C33: GET /api/v1/session with a valid Access token and no session: `access: true`, and POST makes one', async () => {
    const jwt = await sign({ iss: issuer, aud: 'aud-forms-test', email: 'ops@example.com' });
    const before = await ok(await api('GET', '/session', withJwt(jwt)));
    expect(before).toEqual({ message: 'Not signed in', session: null, access: true });
    const made = await api('POST', '/session', withJwt(jwt));
    await ok(made, 201);
    const headers = { Cookie: (made.headers.get('Set-Cookie') ?? '').split(';')[0] ?? '' };
    const after = await ok(await api('GET', '/session', { token: null, headers }));
    expect(after).toMatchObject({ message: 'Signed in', session: { actor: 'access:ops@example.com' } });
    expect(after.access).toBe(true);
    // A token that fails is a wrong credential, not no credential.
    expect(await problem(await api('GET', '/session', withJwt('not.a.jwt')), 401)).toBe(INVALID);
  });

  it('C37: signing in with an Access token from another origin’s page is refused (Access adds it to any request)', async () => {
    const jwt = await sign({ iss: issuer, aud: 'aud-forms-test', email: 'ops@example.com' });
    const headers = { 'Cf-Access-Jwt-Assertion': jwt, Origin: 'https://evil.example' };
    const res = await api('POST', '/session', { token: null, headers });
    expect(await problem(res, 403)).toMatch(/^Sign in from this worker’s own pages/);
    expect(res.headers.get('Set-Cookie')).toBeNull();
  });

  it('C37: a token without `exp` is refused: it would never end', async () => {
    const jwt = await sign(
      { iss: issuer, aud: 'aud-forms-test', email: 'ops@example.com' },
      { expires: null },
    );
    expect(await problem(await api('GET', '/projects', withJwt(jwt)), 401)).toBe(INVALID);
    expect(await problem(await api('POST', '/session', withJwt(jwt)), 401)).toBe(INVALID);
  });

  it('C37: an Access session never outlives its token', async () => {
    const jwt = await sign(
      { iss: issuer, aud: 'aud-forms-test', email: 'ops@example.com' },
      { expires: '5m' },
    );
    const res = await api('POST', '/session', withJwt(jwt));
    const { session } = await ok<{ session: { expiresAt: string } }>(res, 201);
    const left = Date.parse(session.expiresAt) - Date.now();
    expect(left).toBeGreaterThan(4 * 60_000);
    expect(left).toBeLessThanOrEqual(5 * 60_000);
    const maxAge = Number(/Max-Age=(\d+)/.exec(res.headers.get('Set-Cookie') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(240);
    expect(maxAge).toBeLessThanOrEqual(300);
  });

  it('C37: an Access session is checked against Access again when due: without a valid token of the same identity it ends', async () => {
    const claims = { iss: issuer, aud: 'aud-forms-test', email: 'ops@example.com' };
    const res = await api('POST', '/session', withJwt(await sign(claims, { expires: '2h' })));
    await ok(res, 201);
    const cookie = (res.headers.get('Set-Cookie') ?? '').split(';')[0] ?? '';
    const idHash = await sha256Text(cookie.slice(cookie.indexOf('=') + 1));
    const mine = eq(sessions.idHash, idHash);
    const due = () =>
      database(env.DB)
        .update(sessions)
        .set({ recheckAt: new Date(Date.now() - 1000).toISOString() })
        .where(mine);
    // Not due: the cookie alone serves.
    await ok(await api('GET', '/projects', { token: null, headers: { Cookie: cookie } }));
    // Due, with a fresh token of the same identity: served, and the next check is an hour on.
    await due();
    const fresh = await sign(claims, { expires: '30m' });
    await ok(
      await api('GET', '/projects', {
        token: null,
        headers: { Cookie: cookie, 'Cf-Access-Jwt-Assertion': fresh },
      }),
    );
    const [rechecked] = await database(env.DB).select().from(sessions).where(mine);
    expect(Date.parse(rechecked?.recheckAt ?? '') - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(Date.parse(rechecked?.expiresAt ?? '') - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    // Due, with another identity's token: the session ends (that token answers for itself alone).
    await due();
    const other = await sign({ ...claims, email: 'someone@example.com' });
    // GET /session answers for a session only: the other identity has none (C33: it may make one).
    const asOther = { Cookie: cookie, 'Cf-Access-Jwt-Assertion': other };
    expect(await ok(await api('GET', '/session', { token: null, headers: asOther }))).toEqual({
      message: 'Not signed in',
      session: null,
      access: true,
    });
    expect(await database(env.DB).select().from(sessions).where(mine)).toEqual([]);
    expect(
      await problem(await api('GET', '/projects', { token: null, headers: { Cookie: cookie } }), 401),
    ).toBe(INVALID);
  });

  it('C32: without ACCESS_TEAM_DOMAIN and ACCESS_AUD, the header is no credential', async () => {
    const jwt = await sign({ iss: issuer, aud: 'aud-forms-test', email: 'ops@example.com' });
    const off = { ...env, ACCESS_TEAM_DOMAIN: '', ACCESS_AUD: '' };
    expect(await problem(await fetchWorkerWith(off, request('GET', '/projects', withJwt(jwt))), 401)).toBe(
      INVALID,
    );
  });
});

describe('C32: sessions', () => {
  const cookieOf = (res: Response) => (res.headers.get('Set-Cookie') ?? '').split(';')[0] ?? '';

  async function signIn(token = operatorToken(), url = BASE) {
    const res = await fetchWorkerWith(
      env,
      new Request(`${url}/api/v1/session`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } }),
    );
    const data = await ok<{ session: { csrfToken: string; actor: string; projectId: string | null } }>(
      res,
      201,
    );
    return { res, cookie: cookieOf(res), csrf: data.session.csrfToken, session: data.session };
  }

  it('C32: signing in sets an HttpOnly, Secure, SameSite=Strict cookie of at most 12 hours; D1 keeps only its hash', async () => {
    const { res, cookie, session } = await signIn();
    const header = res.headers.get('Set-Cookie') ?? '';
    // C37: `__Host-` on https: Secure, this host only, the whole path.
    expect(header).toMatch(/^__Host-edgeform_session=[A-Za-z0-9_-]{43}; /);
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/', 'Max-Age=43200']) {
      expect(header).toContain(attribute);
    }
    expect(session.actor).toBe('operator');
    const id = cookie.split('=')[1] ?? '';
    const stored = JSON.stringify(await database(env.DB).select().from(sessions));
    expect(stored).not.toContain(id);
    expect(stored).not.toContain(session.csrfToken);
  });

  it('C32: on localhost the cookie is not Secure (wrangler dev serves plain http), so not __Host- either', async () => {
    const { res, cookie } = await signIn(operatorToken(), 'http://localhost:8787');
    expect(res.headers.get('Set-Cookie')).not.toContain('Secure');
    expect(cookie).toMatch(/^edgeform_session=/);
    const local = new Request('http://localhost:8787/api/v1/projects', { headers: { Cookie: cookie } });
    await ok(await fetchWorkerWith(env, local));
    // The plain name is no session on https: a sibling of the host could have planted it.
    expect(
      await problem(await api('GET', '/projects', { token: null, headers: { Cookie: cookie } }), 401),
    ).toBe(INVALID);
  });

  it('C37: signing in from another origin’s page is refused, whatever the credential', async () => {
    const p = await newProject();
    const key = await secretKeyOf(p.projectId);
    for (const token of [operatorToken(), key]) {
      const res = await api('POST', '/session', { token, headers: { Origin: 'https://evil.example' } });
      expect(await problem(res, 403)).toMatch(/^Sign in from this worker’s own pages/);
      expect(res.headers.get('Set-Cookie')).toBeNull();
    }
    await ok(await api('POST', '/session', { token: key, headers: { Origin: BASE } }), 201);
  });

  it('C37: a credential has at most 10 sessions: the 11th ends the oldest', async () => {
    const p = await newProject();
    const key = await secretKeyOf(p.projectId);
    const cookies: string[] = [];
    for (let i = 0; i < 11; i++) cookies.push((await signIn(key)).cookie);
    const get = (cookie: string) =>
      api('GET', `/projects/${p.projectId}`, { token: null, headers: { Cookie: cookie } });
    expect(await problem(await get(cookies[0] ?? ''), 401)).toBe(INVALID);
    for (const cookie of cookies.slice(1)) await ok(await get(cookie));
    const stored = await database(env.DB).select().from(sessions).where(eq(sessions.projectId, p.projectId));
    expect(stored).toHaveLength(10);
    // Another credential's sessions are its own.
    await ok(await api('GET', '/projects', { token: null, headers: { Cookie: (await signIn()).cookie } }));
  });

  it('C37: a session made from a key spends the key’s own rate limit', ONE_WINDOW, async () => {
    await withinOneWindow();
    const tight = { ...env, KEY_RATE_LIMIT: env.TIGHT_KEY_RATE_LIMIT };
    const p = await newProject();
    const key = await secretKeyOf(p.projectId);
    const { cookie } = await signIn(key);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetchWorkerWith(
        tight,
        request('GET', `/projects/${p.projectId}`, { token: null, headers: { Cookie: cookie } }),
      );
      statuses.push(res.status);
      await res.body?.cancel();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // The key itself has spent the same budget.
    const direct = await fetchWorkerWith(tight, request('GET', `/projects/${p.projectId}`, { token: key }));
    expect(direct.status).toBe(429);
  });

  it('C32: the cookie reads; GET /session gives the CSRF token again', async () => {
    const { cookie, csrf } = await signIn();
    await ok(await api('GET', '/projects', { token: null, headers: { Cookie: cookie } }));
    const again = await ok<{ session: { csrfToken: string } }>(
      await api('GET', '/session', { token: null, headers: { Cookie: cookie } }),
    );
    expect(again.session.csrfToken).toBe(csrf);
  });

  it('C32: a change made with the cookie needs the CSRF header and the worker’s own Origin', async () => {
    const { cookie, csrf } = await signIn();
    const body = { name: 'By cookie', fields: [{ name: 'a', type: 'string' }] };
    const cases = [
      { Cookie: cookie, Origin: BASE },
      { Cookie: cookie, 'X-CSRF-Token': csrf },
      { Cookie: cookie, 'X-CSRF-Token': csrf, Origin: 'https://evil.example' },
      { Cookie: cookie, 'X-CSRF-Token': `${csrf}x`, Origin: BASE },
    ];
    for (const headers of cases) {
      expect(await problem(await api('POST', '/projects', { token: null, body, headers }), 403)).toMatch(
        /X-CSRF-Token/,
      );
    }
    await ok(
      await api('POST', '/projects', {
        token: null,
        body,
        headers: { Cookie: cookie, 'X-CSRF-Token': csrf, Origin: BASE },
      }),
      201,
    );
  });

  it('C32: signing in takes a credential, never a cookie; a cookie after sign-out is no credential', async () => {
    const { cookie, csrf } = await signIn();
    expect(
      await problem(await api('POST', '/session', { token: null, headers: { Cookie: cookie } }), 401),
    ).toBe(INVALID);
    const headers = { Cookie: cookie, 'X-CSRF-Token': csrf, Origin: BASE };
    const out = await api('DELETE', '/session', { token: null, headers });
    await ok(out);
    expect(out.headers.get('Set-Cookie')).toContain('Max-Age=0');
    expect(
      await problem(await api('GET', '/projects', { token: null, headers: { Cookie: cookie } }), 401),
    ).toBe(INVALID);
  });

  it('C32: a session made from a secret key is scoped to its project, and ends when the key is revoked', async () => {
    const p = await newProject();
    const other = await newProject();
    const key = await secretKeyOf(p.projectId);
    const { cookie, session } = await signIn(key);
    expect(session.projectId).toBe(p.projectId);
    const uncached = { ...env, CONFIG_CACHE_SECONDS: '0' } as unknown as Env;
    const get = (path: string) =>
      fetchWorkerWith(uncached, request('GET', path, { token: null, headers: { Cookie: cookie } }));
    await ok(await get(`/projects/${p.projectId}`));
    await problem(await get(`/projects/${other.projectId}`), 404);
    await ok(await api('DELETE', `/projects/${p.projectId}/keys/${key.slice(0, 20)}`));
    expect(await problem(await get(`/projects/${p.projectId}`), 401)).toBe(INVALID);
  });

  it('C32: an operator session ends when the operator token changes', async () => {
    const { cookie } = await signIn();
    const rotated = { ...env, ADMIN_TOKEN: `${operatorToken()}-rotated` };
    const res = await fetchWorkerWith(
      rotated,
      request('GET', '/projects', { token: null, headers: { Cookie: cookie } }),
    );
    expect(await problem(res, 401)).toBe(INVALID);
  });
});
