// C32, C37: every route of the management API against every kind of credential (test/credentials.ts):
// the expectations are written here, route by route, not read from the routes' own declarations; a
// route of the management API's table without a row here fails the suite.
import { describe, expect, it } from 'vitest';
import { MANAGE_ROUTES, type ManageRouteName } from '../../src/api/manage/table.ts';
import { type Case, CREDENTIALS, type Credential, type Fixture, send, TELEGRAM } from '../credentials.ts';

const UNKNOWN = '019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e';

const p = (f: Fixture) => `/api/v1/projects/${f.projectId}`;

const MANAGE: Record<Exclude<ManageRouteName, 'signIn' | 'getSession' | 'signOut'>, Case> = {
  listProjects: { method: 'GET', path: () => '/api/v1/projects', allowed: 200, who: 'any' },
  listPlaces: { method: 'GET', path: () => '/api/v1/places', allowed: 200, who: 'operator' },
  createProject: {
    method: 'POST',
    path: () => '/api/v1/projects',
    body: { name: 'New', fields: [{ name: 'email', type: 'string' }] },
    allowed: 201,
    who: 'operator',
  },
  getProject: { method: 'GET', path: p, allowed: 200, who: 'project' },
  updateProject: {
    method: 'PATCH',
    path: p,
    body: { unknownFields: 'reject' },
    allowed: 200,
    who: 'project',
  },
  deleteProject: { method: 'DELETE', path: p, allowed: 200, who: 'operator' },
  // C41: an unknown place, so that the matrix moves nothing: 400 once the caller may move it.
  moveProject: {
    method: 'POST',
    path: (f) => `${p(f)}/move`,
    body: { to: 'nowhere' },
    allowed: 400,
    who: 'operator',
  },
  // C44: a JSON body is no image: 415 once the caller may set the logo; the fixture has none to remove.
  setPageLogo: {
    method: 'PUT',
    path: (f) => `${p(f)}/page/logo`,
    body: {},
    allowed: 415,
    who: 'project',
  },
  removePageLogo: { method: 'DELETE', path: (f) => `${p(f)}/page/logo`, allowed: 404, who: 'project' },
  previewPage: { method: 'GET', path: (f) => `${p(f)}/page/preview`, allowed: 200, who: 'project' },
  getProjectSchema: { method: 'GET', path: (f) => `${p(f)}/schema`, allowed: 200, who: 'project' },
  getProjectTypes: { method: 'GET', path: (f) => `${p(f)}/types`, allowed: 200, who: 'project' },
  defineField: {
    method: 'PUT',
    path: (f) => `${p(f)}/fields/extra`,
    body: { type: 'string' },
    allowed: 200,
    who: 'project',
  },
  removeField: { method: 'DELETE', path: (f) => `${p(f)}/fields/message`, allowed: 200, who: 'project' },
  addOrigin: {
    method: 'POST',
    path: (f) => `${p(f)}/origins`,
    body: { origin: 'https://example.com' },
    allowed: 201,
    who: 'project',
  },
  removeOrigin: {
    method: 'DELETE',
    path: (f) => `${p(f)}/origins/${encodeURIComponent('https://example.org')}`,
    allowed: 200,
    who: 'project',
  },
  listKeys: { method: 'GET', path: (f) => `${p(f)}/keys`, allowed: 200, who: 'project' },
  createKey: {
    method: 'POST',
    path: (f) => `${p(f)}/keys`,
    body: { kind: 'publishable' },
    allowed: 201,
    who: 'project',
  },
  revokeKey: {
    method: 'DELETE',
    path: (f) => `${p(f)}/keys/${f.spareKeyPrefix}`,
    allowed: 200,
    who: 'project',
  },
  listIntegrations: { method: 'GET', path: (f) => `${p(f)}/integrations`, allowed: 200, who: 'project' },
  addIntegration: {
    method: 'POST',
    path: (f) => `${p(f)}/integrations`,
    body: TELEGRAM,
    allowed: 201,
    who: 'project',
  },
  removeIntegration: {
    method: 'DELETE',
    path: (f) => `${p(f)}/integrations/${f.integrationId}`,
    allowed: 200,
    who: 'project',
  },
  setIntegrationEnabled: {
    method: 'PATCH',
    path: (f) => `${p(f)}/integrations/${f.integrationId}`,
    body: { enabled: false },
    allowed: 200,
    who: 'project',
  },
  // An unknown integration: a test sends to the network, which the suite has not.
  testIntegration: {
    method: 'POST',
    path: (f) => `${p(f)}/integrations/${UNKNOWN}/test`,
    allowed: 404,
    who: 'project',
  },
  listWebhooks: { method: 'GET', path: (f) => `${p(f)}/webhooks`, allowed: 200, who: 'project' },
  addWebhook: {
    method: 'POST',
    path: (f) => `${p(f)}/webhooks`,
    body: { url: 'https://hooks.example.com/new' },
    allowed: 201,
    who: 'project',
  },
  setWebhookEnabled: {
    method: 'PATCH',
    path: (f) => `${p(f)}/webhooks/${f.webhookId}`,
    body: { enabled: false },
    allowed: 200,
    who: 'project',
  },
  removeWebhook: {
    method: 'DELETE',
    path: (f) => `${p(f)}/webhooks/${f.webhookId}`,
    allowed: 200,
    who: 'project',
  },
  // An unknown webhook: a test sends to the network, which the suite has not.
  testWebhook: {
    method: 'POST',
    path: (f) => `${p(f)}/webhooks/${UNKNOWN}/test`,
    allowed: 404,
    who: 'project',
  },
  rotateWebhookSecret: {
    method: 'POST',
    path: (f) => `${p(f)}/webhooks/${f.webhookId}/rotate-secret`,
    allowed: 200,
    who: 'project',
  },
  listNotifications: { method: 'GET', path: (f) => `${p(f)}/notifications`, allowed: 200, who: 'project' },
  addNotification: {
    method: 'POST',
    path: (f) => `${p(f)}/notifications`,
    body: { address: 'team@example.com' },
    allowed: 201,
    who: 'project',
  },
  removeNotification: {
    method: 'DELETE',
    path: (f) => `${p(f)}/notifications/${f.notificationId}`,
    allowed: 200,
    who: 'project',
  },
  listDeliveries: { method: 'GET', path: (f) => `${p(f)}/deliveries`, allowed: 200, who: 'project' },
  redeliverFailed: {
    method: 'POST',
    path: (f) => `${p(f)}/deliveries/redeliver-failed`,
    allowed: 200,
    who: 'project',
  },
  getDelivery: { method: 'GET', path: (f) => `${p(f)}/deliveries/${UNKNOWN}`, allowed: 404, who: 'project' },
  redeliver: {
    method: 'POST',
    path: (f) => `${p(f)}/deliveries/${UNKNOWN}/redeliver`,
    allowed: 404,
    who: 'project',
  },
  listInbox: { method: 'GET', path: (f) => `${p(f)}/submissions`, allowed: 200, who: 'project' },
  exportSubmissions: {
    method: 'GET',
    path: (f) => `${p(f)}/submissions/export`,
    allowed: 200,
    who: 'project',
  },
  bulkSubmissions: {
    method: 'POST',
    path: (f) => `${p(f)}/submissions/bulk`,
    body: { ids: [UNKNOWN], action: 'read' },
    allowed: 200,
    who: 'project',
  },
  eraseByValue: {
    method: 'POST',
    path: (f) => `${p(f)}/submissions/erase`,
    body: { field: 'email', value: 'nobody@example.com' },
    allowed: 200,
    who: 'project',
  },
  getInboxSubmission: {
    method: 'GET',
    path: (f) => `${p(f)}/submissions/${f.submissionId}`,
    allowed: 200,
    who: 'project',
  },
  // `email` holds no file.
  viewFile: {
    method: 'GET',
    path: (f) => `${p(f)}/submissions/${f.submissionId}/files/email`,
    allowed: 404,
    who: 'project',
  },
  updateSubmission: {
    method: 'PATCH',
    path: (f) => `${p(f)}/submissions/${f.submissionId}`,
    body: { starred: true },
    allowed: 200,
    who: 'project',
  },
  deleteInboxSubmission: {
    method: 'DELETE',
    path: (f) => `${p(f)}/submissions/${f.submissionId}`,
    allowed: 200,
    who: 'project',
  },
  projectStats: { method: 'GET', path: (f) => `${p(f)}/stats`, allowed: 200, who: 'project' },
  auditLog: { method: 'GET', path: (f) => `${p(f)}/audit`, allowed: 200, who: 'project' },
  rebuildSearch: { method: 'POST', path: (f) => `${p(f)}/search/rebuild`, allowed: 200, who: 'project' },
};

/** What the management API answers this credential on a route of this kind. */
function expectedManage(c: Case, credential: Credential): number {
  switch (credential) {
    case 'none':
    case 'wrong':
      return 401;
    case 'publishable':
      return 403;
    case 'operator':
      return c.allowed;
    case 'other secret':
      // C32: another project's id is as unknown to a key as one that does not exist.
      return c.who === 'operator' ? 403 : c.who === 'project' ? 404 : c.allowed;
    case 'session without CSRF':
      // C32: a cookie alone never changes anything.
      if (c.method !== 'GET') return 403;
      return c.who === 'operator' ? 403 : c.allowed;
    case 'secret':
    case 'session':
      return c.who === 'operator' ? 403 : c.allowed;
  }
}

describe('C32: every route of the management API, against every credential', () => {
  it('has a row here for every route of its table', () => {
    const rows = [...Object.keys(MANAGE), 'signIn', 'getSession', 'signOut'].sort();
    expect(rows).toEqual(Object.keys(MANAGE_ROUTES).sort());
    for (const [name, c] of Object.entries(MANAGE)) {
      const route = MANAGE_ROUTES[name as keyof typeof MANAGE];
      expect(c.method, name).toBe(route.method.toUpperCase());
    }
  });

  it.each(Object.keys(MANAGE))('%s', async (name) => {
    const c = MANAGE[name as keyof typeof MANAGE];
    const got: Record<string, number> = {};
    const want: Record<string, number> = {};
    for (const credential of CREDENTIALS) {
      got[credential] = await send(c, credential);
      want[credential] = expectedManage(c, credential);
    }
    expect(got).toEqual(want);
  });

  it('sessions: signing in takes a credential itself, never a session; reading and ending one takes its cookie, and reading needs none', async () => {
    const sessionCases = {
      signIn: { method: 'POST', path: () => '/api/v1/session', allowed: 201, who: 'any' },
      getSession: { method: 'GET', path: () => '/api/v1/session', allowed: 200, who: 'any' },
      signOut: { method: 'DELETE', path: () => '/api/v1/session', allowed: 200, who: 'any' },
    } satisfies Record<string, Case>;
    const got: Record<string, Record<string, number>> = {};
    for (const [name, c] of Object.entries(sessionCases)) {
      got[name] = {};
      for (const credential of CREDENTIALS) got[name][credential] = await send(c, credential);
    }
    expect(got).toEqual({
      signIn: {
        none: 401,
        wrong: 401,
        publishable: 403,
        secret: 201,
        'other secret': 201,
        operator: 201,
        // C32: a session is never traded for another.
        session: 401,
        'session without CSRF': 401,
      },
      // C32: a session is read and ended by its cookie; a bearer credential has none. C33: reading
      // it with none (not signed in) is an answer, `session: null`; a wrong credential is not.
      getSession: {
        none: 200,
        wrong: 401,
        publishable: 403,
        secret: 200,
        'other secret': 200,
        operator: 200,
        session: 200,
        'session without CSRF': 200,
      },
      signOut: {
        none: 401,
        wrong: 401,
        publishable: 403,
        secret: 401,
        'other secret': 401,
        operator: 401,
        session: 200,
        'session without CSRF': 403,
      },
    });
  });
});
