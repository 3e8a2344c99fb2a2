// C14, C15: a submission from a web page, end to end through the worker: CORS on every reply and the
// preflight; a project's allowed origins.
import { beforeAll, describe, expect, it } from 'vitest';
import { CREATED, expectEnvelope, seedProject, storedRows, submit, VALID_BODY } from './helpers.ts';

let project: { projectId: string; apiKey: string };
beforeAll(async () => {
  project = await seedProject();
});

describe('C14: CORS', () => {
  const origin = 'https://site.example';

  it('C14: OPTIONS /api/v1/submit is a 204 preflight with no body and the contracted headers', async () => {
    const res = await submit({
      method: 'OPTIONS',
      contentType: null,
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(origin);
    expect(res.headers.get('Access-Control-Allow-Methods')).toBe('POST, OPTIONS');
    expect(res.headers.get('Access-Control-Allow-Headers')).toBe(
      'Authorization, Content-Type, Idempotency-Key',
    );
    expect(res.headers.get('Access-Control-Max-Age')).toBe('86400');
    expect(res.headers.get('Vary')).toContain('Origin');
  });

  it.each([
    ['201', { key: 'VALID', json: { name: 'x' } }, 201],
    ['400', { key: 'VALID', json: { name: 1 } }, 400],
    ['401', { json: VALID_BODY }, 401],
    ['404', { url: 'https://forms.test/elsewhere' }, 404],
    ['404 for OPTIONS elsewhere', { url: 'https://forms.test/elsewhere', method: 'OPTIONS' }, 404],
    ['405', { method: 'PUT', json: VALID_BODY }, 405],
    ['413', { key: 'VALID', body: 'x'.repeat(70_000) }, 413],
    ['415', { key: 'VALID', contentType: 'text/plain', body: 'x' }, 415],
  ] as const)(
    'C14: a %s reply to a request with Origin carries Access-Control-Allow-Origin and Vary: Origin',
    async (_, opts, code) => {
      const key = 'key' in opts ? project.apiKey : null;
      const res = await submit({ ...opts, key, headers: { Origin: origin } });
      await expectEnvelope(res, code);
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe(origin);
      expect(res.headers.get('Vary')).toContain('Origin');
    },
  );

  it('C14: a request without Origin gets no Access-Control-Allow-Origin', async () => {
    const res = await submit({ key: project.apiKey, json: { name: 'x' } });
    await expectEnvelope(res, 201);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('C15: allowed origins', () => {
  const allowed = 'https://shop.example';
  let p: { apiKey: string; projectId: string };
  beforeAll(async () => {
    p = await seedProject({ origins: [allowed, 'http://localhost:5173'] });
  });

  it('C15: a listed origin is accepted', async () => {
    const res = await submit({ key: p.apiKey, json: { name: 'listed' }, headers: { Origin: allowed } });
    await expectEnvelope(res, 201, CREATED);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(allowed);
  });

  it.each(['https://evil.example', 'http://shop.example', 'https://shop.example:8443', 'null'])(
    'C15: origin %s, absent from the list, is 403 "Origin not allowed", readable by the page',
    async (origin) => {
      const before = (await storedRows(p.projectId)).length;
      const res = await submit({ key: p.apiKey, json: { name: 'x' }, headers: { Origin: origin } });
      await expectEnvelope(res, 403, {
        message: 'Request refused',
        error: { message: 'Origin not allowed' },
      });
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe(origin);
      expect(await storedRows(p.projectId)).toHaveLength(before);
    },
  );

  it('C15: a request without Origin (a server) is allowed', async () => {
    await expectEnvelope(await submit({ key: p.apiKey, json: { name: 'server' } }), 201, CREATED);
  });

  it('C15: an empty list allows every origin', async () => {
    const res = await submit({
      key: project.apiKey,
      json: { name: 'x' },
      headers: { Origin: 'https://anywhere.example' },
    });
    await expectEnvelope(res, 201, CREATED);
  });
});
