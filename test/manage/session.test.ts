// C32, C33: GET /api/v1/session answers whether anyone is signed in, so that the dashboard's first
// request fails for no one who has not signed in yet: no session is `session: null` (200), and
// counts as no failed authentication; a wrong credential is 401 and counts, as on every route.
// (With a valid Access token and no session, `access: true`: test/manage/auth.test.ts.)
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { fetchWorkerWith, ONE_WINDOW, withinOneWindow } from '../helpers.ts';
import { api, ok, operatorToken, problem, request, signedIn } from './helpers.ts';

const NOT_SIGNED_IN = { message: 'Not signed in', session: null, access: false };

describe('C33: GET /api/v1/session', () => {
  it('with no cookie and no credential: 200, `session: null`, `access: false`, never stored', async () => {
    const res = await api('GET', '/session', { token: null });
    expect(res.headers.get('WWW-Authenticate')).toBeNull();
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(await ok(res)).toEqual(NOT_SIGNED_IN);
  });

  it('with a cookie that names no live session (made up, or signed out): not signed in either', async () => {
    const made = 'edgeform_session_made_up_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const madeUp = { Cookie: `__Host-edgeform_session=${made}` };
    expect(await ok(await api('GET', '/session', { token: null, headers: madeUp }))).toEqual(NOT_SIGNED_IN);
    const headers = await signedIn(operatorToken());
    await ok(await api('DELETE', '/session', { token: null, headers }));
    const ended = { Cookie: headers.Cookie ?? '' };
    expect(await ok(await api('GET', '/session', { token: null, headers: ended }))).toEqual(NOT_SIGNED_IN);
  });

  it('with a live session’s cookie: the session and its CSRF token, `access: false` for the operator', async () => {
    const headers = await signedIn(operatorToken());
    const data = await ok<{ message: string; session: Record<string, unknown>; access: boolean }>(
      await api('GET', '/session', { token: null, headers: { Cookie: headers.Cookie ?? '' } }),
    );
    expect(data.message).toBe('Signed in');
    expect(data.session).toMatchObject({ actor: 'operator', projectId: null });
    expect(data.session.csrfToken).toBe(headers['X-CSRF-Token']);
    expect(data.access).toBe(false);
  });

  it('a valid credential in Authorization is no session: not signed in (POST it to make one)', async () => {
    expect(await ok(await api('GET', '/session'))).toEqual(NOT_SIGNED_IN);
  });

  it('a wrong or malformed credential in Authorization is still 401 Invalid credentials', async () => {
    expect(await problem(await api('GET', '/session', { token: 'nope' }), 401)).toBe('Invalid credentials');
    const basic = { token: null, headers: { Authorization: 'Basic b3BlcmF0b3I6bm9wZQ==' } };
    const res = await api('GET', '/session', basic);
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
    expect(await problem(res, 401)).toBe('Invalid credentials');
  });

  it(
    'C21: asking with no credential counts as no failed authentication; a wrong credential does',
    ONE_WINDOW,
    async () => {
      await withinOneWindow();
      // Two failures an address are allowed in a window here: the third is 429.
      const tight = { ...env, AUTH_FAILURE_RATE_LIMIT: env.TIGHT_AUTH_FAILURE_RATE_LIMIT };
      const from = { 'CF-Connecting-IP': '198.51.100.78' };
      const get = async (token: string | null) => {
        const res = await fetchWorkerWith(tight, request('GET', '/session', { token, headers: from }));
        await res.body?.cancel();
        return res.status;
      };
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push(await get(null));
      for (let i = 0; i < 3; i++) statuses.push(await get('wrong'));
      expect(statuses).toEqual([200, 200, 200, 401, 401, 429]);
    },
  );
});
