// C23, C24: every route of the key-scoped submissions API (the read API) against every kind of
// credential (test/credentials.ts): a secret key of the project only, written here route by route.
import { describe, expect, it } from 'vitest';
import { type Case, CREDENTIALS, type Credential, send } from './credentials.ts';

/** The key-scoped submissions API (C24, C25): a secret key's own project, nothing else. */
const KEY_SCOPED: Record<string, Case & { otherSecret: number }> = {
  listSubmissions: {
    method: 'GET',
    path: () => '/api/v1/submissions',
    allowed: 200,
    who: 'project',
    // Its own project's (empty) page: the key names the project.
    otherSecret: 200,
  },
  eraseSubmissions: {
    method: 'POST',
    path: () => '/api/v1/submissions/erase',
    body: { field: 'email', value: 'nobody@example.com' },
    allowed: 200,
    who: 'project',
    otherSecret: 200,
  },
  getSubmission: {
    method: 'GET',
    path: (f) => `/api/v1/submissions/${f.submissionId}`,
    allowed: 200,
    who: 'project',
    otherSecret: 404,
  },
  downloadFile: {
    method: 'GET',
    path: (f) => `/api/v1/submissions/${f.submissionId}/files/email`,
    allowed: 404,
    who: 'project',
    otherSecret: 404,
  },
  deleteSubmission: {
    method: 'DELETE',
    path: (f) => `/api/v1/submissions/${f.submissionId}`,
    allowed: 200,
    who: 'project',
    otherSecret: 404,
  },
};

function expectedKeyScoped(c: (typeof KEY_SCOPED)[string], credential: Credential): number {
  switch (credential) {
    case 'secret':
      return c.allowed;
    case 'other secret':
      return c.otherSecret;
    case 'publishable':
      return 403;
    default:
      // C23: a secret key in `Authorization` is the only credential here: the operator's token is
      // no key, and a session's cookie is not read.
      return 401;
  }
}

describe('C23, C24: every route of the key-scoped submissions API, against every credential', () => {
  it.each(Object.keys(KEY_SCOPED))('%s', async (name) => {
    const c = KEY_SCOPED[name] as (typeof KEY_SCOPED)[string];
    const got: Record<string, number> = {};
    const want: Record<string, number> = {};
    for (const credential of CREDENTIALS) {
      got[credential] = await send(c, credential);
      want[credential] = expectedKeyScoped(c, credential);
    }
    expect(got).toEqual(want);
  });
});
