// C16, C23, C24: who may call the read API, and how: a secret key only (a publishable key is 403, no
// key or a wrong one 401), never from a web page on any route; a secret key may submit too, with its
// per-key limit only; a method a path does not take is 405 with Allow.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, storedRows, submit, submitWithEnv, VALID_BODY } from './helpers.ts';
import { BASE, insertRows, read, withSecret } from './read-api.ts';

describe('C23: keys for the read API', () => {
  let p: Awaited<ReturnType<typeof withSecret>>;
  beforeAll(async () => {
    p = await withSecret();
  });

  it('C23: a publishable key is refused with 403, saying a secret key is needed', async () => {
    await expectEnvelope(await read(p.apiKey), 403, {
      message: 'Request refused',
      error: { message: 'This route needs a secret key (edgeform_sk_…); a publishable key can only submit' },
    });
  });

  it('C6 + C24: no key or a wrong key is 401, as on the submit path', async () => {
    await expectEnvelope(await submit({ url: BASE, method: 'GET', contentType: null }), 401);
    await expectEnvelope(await read('edgeform_sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), 401, {
      message: 'Authentication failed',
      error: { message: 'Invalid API key' },
    });
  });

  it('C23: a secret key may submit too, from a server; in a browser request (Origin) it is refused', async () => {
    await expectEnvelope(await submit({ key: p.secret, json: VALID_BODY }), 201);
    await expectEnvelope(
      await submit({ key: p.secret, json: VALID_BODY, headers: { Origin: 'https://site.example' } }),
      403,
      {
        message: 'Request refused',
        error: {
          message:
            'A secret key must never be used in a web page: use a publishable key (edgeform_pk_…) there',
        },
      },
    );
  });

  it('C21 + C23: a secret key has its per-key limit only, not the per-address one', async () => {
    const q = await withSecret();
    const tight = { ...env, ADDRESS_RATE_LIMIT: env.TIGHT_ADDRESS_RATE_LIMIT };
    const server = { 'CF-Connecting-IP': '198.51.100.77' };
    // The tight per-address limit is 2: a server's third request goes through on its secret key.
    for (let i = 0; i < 4; i++) {
      await expectEnvelope(
        await submitWithEnv(tight, { key: q.secret, json: VALID_BODY, headers: server }),
        201,
      );
    }
    // Its publishable key has the address's two.
    for (let i = 0; i < 2; i++) {
      await expectEnvelope(
        await submitWithEnv(tight, { key: q.apiKey, json: VALID_BODY, headers: server }),
        201,
      );
    }
    await expectEnvelope(
      await submitWithEnv(tight, { key: q.apiKey, json: VALID_BODY, headers: server }),
      429,
    );
  });
});

describe('C23: a secret key from a web page', () => {
  it('C23: a request with an Origin header and a secret key is 403 on every route of the read API', async () => {
    const p = await withSecret();
    const [row] = await insertRows(p.projectId, 1);
    const page = { Origin: 'https://site.example' };
    for (const [path, method, body] of [
      ['', 'GET', undefined],
      [`/${row?.id}`, 'GET', undefined],
      [`/${row?.id}`, 'DELETE', undefined],
      [`/${row?.id}/files/cv`, 'GET', undefined],
      ['/erase', 'POST', JSON.stringify({ field: 'name', value: 'n0' })],
    ] as const) {
      const res = await read(p.secret, path, { method, headers: page, ...(body ? { body } : {}) });
      await expectEnvelope(res, 403);
      expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
    }
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });
});

describe('C16 + C24: methods and paths', () => {
  it.each([
    ['PUT', '', 'GET'],
    ['POST', '', 'GET'],
    ['OPTIONS', '', 'GET'],
    ['GET', '/erase', 'POST'],
    ['PUT', '/019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e', 'GET, DELETE'],
  ])('C16: %s %s is 405 with Allow: %s, in the envelope, without CORS', async (method, path, allow) => {
    const p = await withSecret();
    const res = await submit({
      url: `${BASE}${path}`,
      key: p.secret,
      method,
      contentType: null,
      headers: { Origin: 'https://site.example' },
      body: method === 'GET' ? null : '',
    });
    await expectEnvelope(res, 405);
    expect(res.headers.get('Allow')).toBe(allow);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});
