// C19, C32: the tool's remote client builds each request from the management API's own route
// table: what it sends is what the route takes, paging included (a cursor from `after` and
// `before`, which a hand-written copy once dropped).
import { describe, expect, it } from 'vitest';
import { remoteOps } from '../../cli/ops.ts';
import { MANAGE_ROUTES } from '../../src/api/manage/table.ts';
import { decodeCursor } from '../../src/http/cursor.ts';
import { LOGOS, SVG } from '../logos.ts';

const AFTER = '019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e';

/** A worker that answers every request with an empty page, and keeps what it was sent. */
function recording() {
  const sent: { method: string; url: URL; body: unknown }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({
      method: init?.method ?? 'GET',
      url: new URL(String(input)),
      body: init?.body === undefined ? undefined : JSON.parse(String(init.body)),
    });
    const data = { message: '0', submissions: [], entries: [], nextCursor: 'more' };
    return new Response(JSON.stringify({ data, status: { code: 200, message: 'OK' } }));
  }) as typeof fetch;
  return { sent, ops: remoteOps('https://forms.example', 'token', fetchImpl) };
}

/** The route of the table whose method and path template the request matches. */
function routeOf(method: string, path: string) {
  return Object.values(MANAGE_ROUTES).find((r) => {
    const pattern = new RegExp(`^/api/v1${r.path.replace(/:\w+/g, '[^/]+')}$`);
    return r.method.toUpperCase() === method && pattern.test(path);
  });
}

describe("C32: the tool's remote client", () => {
  it('pages the inbox after a submission, in the order asked, as the route reads its cursor', async () => {
    const { sent, ops } = recording();
    for (const order of ['asc', 'desc'] as const) {
      const page = await ops.listInbox('p_k3jd8s2mq0zx', { order, after: AFTER, limit: 2 });
      expect(page.more).toBe(true);
      const request = sent.at(-1);
      expect(request?.url.pathname).toBe('/api/v1/projects/p_k3jd8s2mq0zx/submissions');
      expect(decodeCursor(request?.url.searchParams.get('cursor') ?? '', order)).toBe(AFTER);
      expect(request?.url.searchParams.get('limit')).toBe('2');
    }
  });

  it('pages the audit log before an entry, newest first', async () => {
    const { sent, ops } = recording();
    await ops.auditLog('p_k3jd8s2mq0zx', { before: AFTER, limit: 5 });
    const request = sent.at(-1);
    expect(request?.url.pathname).toBe('/api/v1/projects/p_k3jd8s2mq0zx/audit');
    expect(decodeCursor(request?.url.searchParams.get('cursor') ?? '', 'desc')).toBe(AFTER);
  });

  it("sends every request to a route of the table, each path's values encoded as one segment", async () => {
    const { sent, ops } = recording();
    const id = 'p/../x y';
    await ops.showProject(id);
    await ops.removeOrigin(id, 'https://example.com');
    await ops.redeliver(id, { id: AFTER }, { allowLocalHttp: false });
    await ops.redeliver(id, { failed: true }, { allowLocalHttp: false });
    await ops.bulkSubmissions(id, [AFTER], 'read');
    await ops.defineField(id, { name: 'email', type: 'string', required: true }, 'add');
    for (const request of sent) {
      expect(routeOf(request.method, request.url.pathname), request.url.pathname).toBeDefined();
      expect(request.url.pathname).toContain(encodeURIComponent(id));
    }
    expect(sent.map((r) => routeOf(r.method, r.url.pathname)?.operationId)).toEqual([
      'getProject',
      'removeOrigin',
      'redeliver',
      'redeliverFailed',
      'bulkSubmissions',
      'defineField',
    ]);
    expect(sent.at(-2)?.body).toEqual({ ids: [AFTER], action: 'read' });
  });

  it("C44: sends a page's logo as it is, typed, to the logo's route; a logo that will not do is never sent", async () => {
    const sent: { method: string; path: string; type: string | null; body: unknown }[] = [];
    const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push({
        method: init?.method ?? 'GET',
        path: new URL(String(input)).pathname,
        type: new Headers(init?.headers).get('Content-Type'),
        body: init?.body,
      });
      const data = { message: 'Logo set', project: { page: { logo: null } } };
      return new Response(JSON.stringify({ data, status: { code: 200, message: 'OK' } }));
    }) as typeof fetch;
    const ops = remoteOps('https://forms.example', 'token', fetchImpl);
    await ops.setLogo('p_k3jd8s2mq0zx', LOGOS['image/gif'], 'image/gif');
    expect(sent).toEqual([
      {
        method: 'PUT',
        path: '/api/v1/projects/p_k3jd8s2mq0zx/page/logo',
        type: 'image/gif',
        body: LOGOS['image/gif'],
      },
    ]);
    expect(routeOf('PUT', sent[0]?.path ?? '')?.operationId).toBe('setPageLogo');
    await expect(ops.setLogo('p_k3jd8s2mq0zx', SVG, 'image/svg+xml')).rejects.toThrow(
      /an SVG image can carry script/,
    );
    expect(sent).toHaveLength(1);
  });
});
