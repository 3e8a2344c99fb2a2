// C43: GET /api/v1/schema: the key's project's submission as JSON Schema, for any key of the project,
// in the envelope (C1), with CORS for pages (C14) and the project's allowed origins (C15); a secret
// key from a page is refused (C23); other methods are 405 (C16). Every reply is checked against the
// OpenAPI document (test/contract.ts). And the management API's GET /api/v1/projects/{id}/types,
// the module the dashboard's Embed screen offers.
import { beforeAll, describe, expect, it } from 'vitest';
import { generateModule } from '../src/fields/generate.ts';
import { submissionJsonSchema } from '../src/fields/json-schema.ts';
import type { FieldDef } from '../src/fields/validation.ts';
import { createKey } from '../src/ops/keys.ts';
import { asTool, expectEnvelope, INVALID_KEY, seedProject, submit } from './helpers.ts';
import { api, ok } from './manage/helpers.ts';

const URL_SCHEMA = 'https://forms.test/api/v1/schema';
const SITE = 'https://shop.example';

const FIELDS: FieldDef[] = [
  { name: 'email', type: 'string', required: true, rules: { format: 'email', maxLength: 100 } },
  { name: 'age', type: 'integer', required: false, rules: { min: 18 } },
  { name: 'topic', type: 'string', required: false, rules: { oneOf: ['sales', 'support'] } },
  { name: '__proto__', type: 'boolean', required: false },
];

let project: { projectId: string; apiKey: string; secret: string };
let open: { projectId: string; apiKey: string };

beforeAll(async () => {
  const p = await seedProject({ fields: FIELDS, origins: [SITE], unknownFields: 'discard' });
  project = { ...p, secret: await createKey(asTool(), p.projectId, 'secret') };
  open = await seedProject({});
});

const get = (key: string | null, headers: Record<string, string> = {}, method = 'GET') =>
  submit({ url: URL_SCHEMA, method, key, contentType: null, headers });

type SchemaData = { message: string; schema: Record<string, unknown> };

async function schemaData(res: Response): Promise<SchemaData> {
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
  expect(res.headers.get('Cache-Control')).toBe('no-store');
  const body = (await res.json()) as { data: SchemaData; status: unknown };
  expect(body.status).toEqual({ code: 200, message: 'OK' });
  expect(Object.keys(body.data)).toEqual(['message', 'schema']);
  expect(body.data.message).toBe('Schema of the project’s submission');
  return body.data;
}

describe('C43: GET /api/v1/schema', () => {
  it("answers a publishable key with the project's fields as JSON Schema, as `forms project schema` prints them", async () => {
    const data = await schemaData(await get(project.apiKey));
    expect(data.schema).toEqual(submissionJsonSchema(FIELDS, 'discard'));
    // C13: `__proto__` is a field like any other, an own property of `properties`.
    const properties = data.schema.properties as Record<string, unknown>;
    expect(Object.hasOwn(properties, '__proto__')).toBe(true);
    expect(Object.keys(properties)).toEqual(['email', 'age', 'topic', '__proto__']);
  });

  it('answers a secret key from a server (no Origin) the same', async () => {
    const data = await schemaData(await get(project.secret));
    expect(data.schema).toEqual(submissionJsonSchema(FIELDS, 'discard'));
  });

  it('C14, C15: answers a page on an allowed origin with CORS, so that its script can read it', async () => {
    const res = await get(project.apiKey, { Origin: SITE });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(SITE);
    expect(res.headers.get('Vary')).toBe('Origin');
    await schemaData(res);
  });

  it('C15: a project without allowed origins answers every page', async () => {
    const res = await get(open.apiKey, { Origin: 'https://anywhere.example' });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('https://anywhere.example');
    const { schema } = await schemaData(res);
    expect(Object.keys(schema.properties as object)).toEqual([
      'name',
      'email',
      'phone',
      'enquiry',
      'message',
    ]);
  });

  it('C15: a page on another origin → 403 Origin not allowed, readable by that page', async () => {
    const res = await get(project.apiKey, { Origin: 'https://evil.example' });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('https://evil.example');
    await expectEnvelope(res, 403, {
      message: 'Request refused',
      error: { message: 'Origin not allowed', code: 'origin_not_allowed' },
    });
  });

  it('C23: a secret key from a page → 403, whatever the origin', async () => {
    await expectEnvelope(await get(project.secret, { Origin: SITE }), 403, {
      message: 'Request refused',
      error: {
        message: 'A secret key must never be used in a web page: use a publishable key (edgeform_pk_…) there',
        code: 'secret_key_in_page',
      },
    });
  });

  it('C6, C7: an unknown key → 401 Invalid API key, a missing one → 401 saying how to send it', async () => {
    const unknown = await get('edgeform_pk_0123456789abcdefghijABCDEFGHIJ01');
    expect(unknown.headers.get('WWW-Authenticate')).toBe('Bearer');
    await expectEnvelope(unknown, 401, INVALID_KEY);
    await expectEnvelope(await get(null), 401, {
      message: 'Authentication failed',
      error: {
        message: "Missing API key: send it as 'Authorization: Bearer <API_KEY>'",
        code: 'missing_key',
      },
    });
  });

  it('C14: the preflight admits any origin for a GET with Authorization: 204, no body', async () => {
    const res = await get(
      null,
      {
        Origin: 'https://evil.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
      'OPTIONS',
    );
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('https://evil.example');
    expect(res.headers.get('Access-Control-Allow-Methods')).toBe('GET, OPTIONS');
    expect(res.headers.get('Access-Control-Allow-Headers')).toBe('Authorization');
    expect(res.headers.get('X-Request-Id')).not.toBeNull();
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])(
    'C16: %s → 405 with Allow: GET, OPTIONS, in the envelope',
    async (method) => {
      const res = await get(project.apiKey, {}, method);
      expect(res.headers.get('Allow')).toBe('GET, OPTIONS');
      await expectEnvelope(res, 405, {
        message: 'Method not allowed',
        error: {
          message: `Method ${method} is not allowed here: use GET, OPTIONS`,
          code: 'method_not_allowed',
        },
      });
    },
  );

  it('C16: the path is exact: a trailing slash is another path, 404', async () => {
    const res = await submit({
      url: `${URL_SCHEMA}/`,
      method: 'GET',
      key: project.apiKey,
      contentType: null,
    });
    await expectEnvelope(res, 404);
  });
});

describe('C43: GET /api/v1/projects/{id}/types (the management API)', () => {
  it("answers the project's module, as `forms types` prints it, honeypot and policy included", async () => {
    const p = await seedProject({ fields: FIELDS, unknownFields: 'discard', honeypot: 'website' });
    const data = await ok<{ message: string; module: string }>(
      await api('GET', `/projects/${p.projectId}/types`),
    );
    expect(data).toEqual({
      message: 'TypeScript module',
      module: generateModule(FIELDS, 'discard', { project: p.projectId, honeypot: 'website' }),
    });
  });
});
