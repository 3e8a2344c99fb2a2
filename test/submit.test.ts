// End to end through the worker: the rules C1–C17 of docs/behaviour.md, each test named after its rule.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../schema/tables.ts';
import { createKey } from '../src/ops/keys.ts';
import { hashKey } from '../src/projects/keys.ts';
import { database } from '../src/store/db.ts';
import {
  asTool,
  expectEnvelope,
  type SPEC_FIELDS,
  seedProject,
  storedData,
  storedRows,
  submit,
  VALID_BODY,
} from './helpers.ts';

const CREATED = { message: 'Submission received' };
const INVALID_KEY = { message: 'Authentication failed', error: { message: 'Invalid API key' } };
const HOW = "send it as 'Authorization: Bearer <API_KEY>'";

let project: { projectId: string; apiKey: string };
beforeAll(async () => {
  project = await seedProject();
});

describe('SPEC: submit', () => {
  it('SPEC Submit 1: a valid submission is saved and answered 201 with only a message', async () => {
    const res = await submit({ key: project.apiKey, json: VALID_BODY });
    await expectEnvelope(res, 201, CREATED);
    expect(await storedData(project.projectId)).toContainEqual(VALID_BODY);
  });

  it('SPEC Errors: a wrong type is 400 with "Field \'<name>\' is not of type <type>" per field', async () => {
    const p = await seedProject();
    const res = await submit({
      key: p.apiKey,
      json: { name: 42, email: 'a@b.c', phone: '5551234', enquiry: 'yes', message: null },
    });
    await expectEnvelope(res, 400, {
      message: 'Validation failed',
      errors: [
        "Field 'name' is not of type string",
        "Field 'phone' is not of type integer",
        "Field 'enquiry' is not of type boolean",
        "Field 'message' is not of type string",
      ],
    });
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('SPEC Errors: an invalid key is 401 saying the API key is invalid', async () => {
    const res = await submit({ key: 'edgeform_00000000000000000000000000000000', json: VALID_BODY });
    await expectEnvelope(res, 401, INVALID_KEY);
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
  });

  it('SPEC Errors: a project with no configured fields is 400 saying no fields were found', async () => {
    const empty = await seedProject({ fields: [] });
    const res = await submit({ key: empty.apiKey, json: VALID_BODY });
    await expectEnvelope(res, 400, {
      message: 'Project not configured',
      error: { message: 'No fields were found for this project' },
    });
    expect(await storedRows(empty.projectId)).toEqual([]);
  });

  it('SPEC Auth 2: the key selects the project whose fields are used', async () => {
    const other = await seedProject({ fields: [{ name: 'phone', type: 'string', required: false }] });
    // `phone` is a string in this project and an integer in the SPEC example.
    await expectEnvelope(await submit({ key: other.apiKey, json: { phone: '555' } }), 201, CREATED);
    await expectEnvelope(await submit({ key: project.apiKey, json: { phone: '555' } }), 400, {
      message: 'Validation failed',
      errors: ["Field 'phone' is not of type integer"],
    });
    expect(await storedData(other.projectId)).toEqual([{ phone: '555' }]);
  });
});

describe('C1–C3: the envelope', () => {
  it('C1: every reply is JSON with charset=utf-8 and status.code equal to the HTTP status', async () => {
    const replies = await Promise.all([
      submit({ key: project.apiKey, json: { name: 'x' } }),
      submit({ key: project.apiKey, json: { name: 1 } }),
      submit({ json: VALID_BODY }),
      submit({ method: 'GET' }),
      submit({ url: 'https://forms.test/nope' }),
      submit({ key: project.apiKey, contentType: 'text/plain', body: 'x' }),
      submit({ key: project.apiKey, body: 'x'.repeat(70_000) }),
    ]);
    const codes = [201, 400, 401, 405, 404, 415, 413] as const;
    for (const [i, res] of replies.entries()) await expectEnvelope(res, codes[i] ?? 500);
  });

  it('C2: status.message is the RFC 9110 reason phrase', async () => {
    const res = await submit({ key: project.apiKey, body: 'x'.repeat(70_000) });
    const body = await expectEnvelope(res, 413);
    expect(body.status.message).toBe('Content Too Large');
  });

  it('C3: a failure carries exactly one of error or errors', async () => {
    const single = await expectEnvelope(await submit({ json: {} }), 401);
    expect(single.data.errors).toBeUndefined();
    const multi = await expectEnvelope(await submit({ key: project.apiKey, json: { name: 1 } }), 400);
    expect(multi.data.error).toBeUndefined();
  });
});

describe('C6: bearer credentials', () => {
  it.each([['bearer'], ['BEARER'], ['BeArEr']])(
    'C6: the scheme "%s" is accepted (case-insensitive)',
    async (scheme) => {
      const res = await submit({ authorization: `${scheme} ${project.apiKey}`, json: { name: 'x' } });
      await expectEnvelope(res, 201, CREATED);
    },
  );

  it.each([
    ['no header', undefined, `Missing API key: ${HOW}`],
    ['an empty header', '', `Missing API key: ${HOW}`],
    ['another scheme', 'Basic dXNlcjpwYXNz', `Unsupported authorization scheme: ${HOW}`],
    ['the bare key', 'edgeform_00000000000000000000000000000000', `Unsupported authorization scheme: ${HOW}`],
    ['an empty token', 'Bearer', `Empty API key: ${HOW}`],
    ['an empty token after spaces', 'Bearer    ', `Empty API key: ${HOW}`],
    ['two tokens', 'Bearer abc def', `Malformed API key: ${HOW}`],
    ['a token with forbidden characters', 'Bearer abc"def', `Malformed API key: ${HOW}`],
  ])('C6: %s is 401 saying how to send the key, with WWW-Authenticate', async (_, header, text) => {
    const headers: Record<string, string> = {};
    if (header !== undefined) headers.Authorization = header;
    const res = await submit({ headers, json: VALID_BODY });
    await expectEnvelope(res, 401, { message: 'Authentication failed', error: { message: text } });
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
  });

  it('C6: a well-formed token that is not a key of ours is "Invalid API key"', async () => {
    const res = await submit({ authorization: 'Bearer sk_live_abc123', json: VALID_BODY });
    await expectEnvelope(res, 401, INVALID_KEY);
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
  });
});

describe('C7: API keys', () => {
  it('C7: only the SHA-256 of a key is stored, never the key', async () => {
    const p = await seedProject();
    const rows = await database(env.DB).select().from(apiKeys).where(eq(apiKeys.projectId, p.projectId));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.keyHash).toBe(await hashKey(p.apiKey));
    expect(JSON.stringify(rows)).not.toContain(p.apiKey);
    expect(p.apiKey.startsWith(rows[0]?.displayPrefix ?? '?')).toBe(true);
    expect(rows[0]?.displayPrefix.length).toBeLessThan(p.apiKey.length / 2);
  });

  it('C7: a project may have several keys at once, each of which works', async () => {
    const p = await seedProject();
    const second = await createKey(asTool(), p.projectId, 'publishable');
    expect(second).not.toBe(p.apiKey);
    await expectEnvelope(await submit({ key: p.apiKey, json: { name: 'one' } }), 201, CREATED);
    await expectEnvelope(await submit({ key: second, json: { name: 'two' } }), 201, CREATED);
    expect(await storedData(p.projectId)).toEqual([{ name: 'one' }, { name: 'two' }]);
  });

  it('C7: a revoked key answers exactly like an unknown key, and its sibling keeps working', async () => {
    const p = await seedProject();
    const second = await createKey(asTool(), p.projectId, 'publishable');
    await database(env.DB)
      .update(apiKeys)
      .set({ revokedAt: new Date().toISOString() })
      .where(eq(apiKeys.keyHash, await hashKey(p.apiKey)));
    const revoked = await submit({ key: p.apiKey, json: { name: 'x' } });
    const unknown = await submit({ key: 'edgeform_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ', json: { name: 'x' } });
    const revokedBody = await expectEnvelope(revoked, 401, INVALID_KEY);
    const unknownBody = await expectEnvelope(unknown, 401, INVALID_KEY);
    expect(revokedBody).toEqual(unknownBody);
    await expectEnvelope(await submit({ key: second, json: { name: 'y' } }), 201, CREATED);
    expect(await storedData(p.projectId)).toEqual([{ name: 'y' }]);
  });
});

describe('C9: media types', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'APPLICATION/JSON',
    'Application/Json ; charset=utf-8',
    'application/vnd.api+json',
    'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
    'application/merge-patch+JSON',
  ])('C9: "%s" is accepted', async (contentType) => {
    const res = await submit({ key: project.apiKey, contentType, json: { name: contentType } });
    await expectEnvelope(res, 201, CREATED);
  });

  it.each([
    ['none', null],
    ['text/plain', 'text/plain'],
    ['text/json', 'text/json'],
    ['form encoding', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['application/jsonp', 'application/jsonp'],
    ['application/json-seq', 'application/json-seq'],
    ['an empty +json subtype', 'application/+json'],
    ['application/xml', 'application/xml'],
  ])('C9: %s is 415', async (_, contentType) => {
    const p = await seedProject();
    const res = await submit({ key: p.apiKey, contentType, body: JSON.stringify({ name: 'x' }) });
    await expectEnvelope(res, 415, {
      message: 'Unsupported media type',
      error: { message: 'Content-Type must be application/json' },
    });
    expect(await storedRows(p.projectId)).toEqual([]);
  });
});

describe('C11: the body', () => {
  const notJson = { message: 'Invalid request body', error: { message: 'Request body is not valid JSON' } };
  const notObject = {
    message: 'Invalid request body',
    error: { message: 'Request body must be a JSON object' },
  };
  const noFields = { message: 'Invalid request body', error: { message: 'Submission has no fields' } };

  it.each([
    ['an empty body', ''],
    ['a truncated object', '{"name": "x"'],
    ['a bare word', 'hello'],
    ['a trailing comma', '{"name": "x",}'],
    ['single quotes', "{'name': 'x'}"],
    ['two values', '{} {}'],
  ])('C11: %s is 400 "Request body is not valid JSON"', async (_, body) => {
    const p = await seedProject();
    await expectEnvelope(await submit({ key: p.apiKey, body }), 400, notJson);
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C11: bytes that are not UTF-8 are not valid JSON (never silently replaced)', async () => {
    const p = await seedProject();
    const bytes = new Uint8Array([...new TextEncoder().encode('{"name":"'), 0xff, 0xfe, 0x22, 0x7d]);
    await expectEnvelope(await submit({ key: p.apiKey, body: bytes }), 400, notJson);
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it.each([
    ['an array', '[{"name": "x"}]'],
    ['a string', '"name"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ])('C11: %s is 400 "Request body must be a JSON object"', async (_, body) => {
    const p = await seedProject();
    await expectEnvelope(await submit({ key: p.apiKey, body }), 400, notObject);
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C11: {} is 400 "Submission has no fields" and stores no empty row', async () => {
    const p = await seedProject();
    await expectEnvelope(await submit({ key: p.apiKey, body: '{}' }), 400, noFields);
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C11: {} is refused before validation: "Submission has no fields" even where fields are required', async () => {
    const p = await seedProject({
      fields: [
        { name: 'name', type: 'string', required: true },
        { name: 'email', type: 'string', required: true },
      ],
    });
    await expectEnvelope(await submit({ key: p.apiKey, body: '{}' }), 400, noFields);
    // With the Turnstile token or the honeypot alone, nothing is left either.
    await expectEnvelope(
      await submit({ key: p.apiKey, json: { 'cf-turnstile-response': 'x' } }),
      400,
      noFields,
    );
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C11: nothing left after the discard policy is 400 "Submission has no fields"', async () => {
    const p = await seedProject({ unknownFields: 'discard' });
    await expectEnvelope(await submit({ key: p.apiKey, json: { other: 1, more: 'x' } }), 400, noFields);
    expect(await storedRows(p.projectId)).toEqual([]);
  });
});

describe('C12–C13: field validation', () => {
  const required: typeof SPEC_FIELDS = [
    { name: 'name', type: 'string', required: true },
    { name: 'email', type: 'string', required: true },
    { name: 'phone', type: 'integer', required: false },
    { name: 'message', type: 'string', required: true },
  ];

  it('C12: every problem in body order, then missing required fields in configured order', async () => {
    const p = await seedProject({ fields: required });
    const body = '{"zeta": 1, "phone": 1.5, "email": false, "alpha": true}';
    await expectEnvelope(await submit({ key: p.apiKey, body }), 400, {
      message: 'Validation failed',
      errors: [
        "Field 'zeta' is not defined for this project",
        "Field 'phone' is not of type integer",
        "Field 'email' is not of type string",
        "Field 'alpha' is not defined for this project",
        "Field 'name' is required",
        "Field 'message' is required",
      ],
    });
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C13: configured fields are optional unless marked required', async () => {
    const p = await seedProject({ fields: required });
    await expectEnvelope(
      await submit({ key: p.apiKey, json: { message: 'hi', email: 'e', name: 'n' } }),
      201,
      CREATED,
    );
    await expectEnvelope(await submit({ key: project.apiKey, json: { enquiry: false } }), 201, CREATED);
  });

  it('C13: a present but wrongly typed required field is a type error, not "required"', async () => {
    const p = await seedProject({ fields: required });
    await expectEnvelope(
      await submit({ key: p.apiKey, json: { name: null, email: 'e', message: 'm' } }),
      400,
      {
        message: 'Validation failed',
        errors: ["Field 'name' is not of type string"],
      },
    );
  });

  it('C13: the reject policy (default) refuses unknown fields and stores nothing', async () => {
    const p = await seedProject();
    await expectEnvelope(await submit({ key: p.apiKey, json: { name: 'x', website: 'spam' } }), 400, {
      message: 'Validation failed',
      errors: ["Field 'website' is not defined for this project"],
    });
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C13: the discard policy drops unknown fields and stores the rest', async () => {
    const p = await seedProject({ unknownFields: 'discard' });
    const res = await submit({ key: p.apiKey, json: { website: 'x', name: 'n', phone: 7, extra: [1] } });
    await expectEnvelope(res, 201, CREATED);
    expect((await storedRows(p.projectId)).map((r) => r.data)).toEqual(['{"name":"n","phone":7}']);
  });

  it('C13: the discard policy still rejects a wrong type', async () => {
    const p = await seedProject({ unknownFields: 'discard' });
    await expectEnvelope(await submit({ key: p.apiKey, json: { website: 'x', phone: '7' } }), 400, {
      message: 'Validation failed',
      errors: ["Field 'phone' is not of type integer"],
    });
  });

  it('C13: __proto__ and constructor are ordinary unknown field names', async () => {
    const p = await seedProject();
    const body = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}';
    await expectEnvelope(await submit({ key: p.apiKey, body }), 400, {
      message: 'Validation failed',
      errors: [
        "Field '__proto__' is not defined for this project",
        "Field 'constructor' is not defined for this project",
      ],
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('C13: with discard, a __proto__ field is dropped and changes no prototype', async () => {
    const p = await seedProject({ unknownFields: 'discard' });
    const body = '{"__proto__": {"name": 5}, "name": "real"}';
    await expectEnvelope(await submit({ key: p.apiKey, body }), 201, CREATED);
    expect((await storedRows(p.projectId)).map((r) => r.data)).toEqual(['{"name":"real"}']);
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });

  it('C13: a field configured as __proto__ is stored as data', async () => {
    const p = await seedProject({ fields: [{ name: '__proto__', type: 'string', required: true }] });
    await expectEnvelope(await submit({ key: p.apiKey, body: '{"__proto__": "x"}' }), 201, CREATED);
    expect((await storedRows(p.projectId)).map((r) => r.data)).toEqual(['{"__proto__":"x"}']);
  });
});

describe('C13: type matrix (every type against every JSON kind)', () => {
  const kinds = {
    string: '"text"',
    emptyString: '""',
    integer: '42',
    negativeInteger: '-7',
    zero: '0',
    wholeWithFraction: '3.0',
    exponentWhole: '1e3',
    fraction: '3.14',
    fractionLostInADouble: '4503599627370496.5',
    tinyFractionLost: '1.0000000000000001',
    negativeZero: '-0',
    maxSafe: '9007199254740991',
    minSafe: '-9007199254740991',
    hugeInteger: '9007199254740993',
    overflow: '1e400',
    true: 'true',
    false: 'false',
    null: 'null',
    array: '[1, 2]',
    object: '{"a": 1}',
  } as const;
  type Kind = keyof typeof kinds;
  const accepts: Record<'string' | 'integer' | 'number' | 'boolean', Kind[]> = {
    string: ['string', 'emptyString'],
    // C13: judged on the source text: digits alone (so not `3.0`, `1e3`).
    integer: ['integer', 'negativeInteger', 'zero', 'negativeZero', 'maxSafe', 'minSafe'],
    number: [
      'integer',
      'negativeInteger',
      'zero',
      'wholeWithFraction',
      'exponentWhole',
      'fraction',
      'fractionLostInADouble',
      'tinyFractionLost',
      'negativeZero',
      'maxSafe',
      'minSafe',
      'hugeInteger',
    ],
    boolean: ['true', 'false'],
  };
  const cases = (Object.keys(accepts) as (keyof typeof accepts)[]).flatMap((type) =>
    (Object.keys(kinds) as Kind[]).map((kind) => [type, kind, accepts[type].includes(kind)] as const),
  );
  let typed: { apiKey: string; projectId: string };
  beforeAll(async () => {
    typed = await seedProject({
      fields: (['string', 'integer', 'number', 'boolean'] as const).map((type) => ({
        name: type,
        type,
        required: false,
      })),
    });
  });

  it.each(cases)('C13: a %s field given %s → accepted: %s', async (type, kind, ok) => {
    const body = `{"${type}": ${kinds[kind]}}`;
    const before = (await storedRows(typed.projectId)).length;
    const res = await submit({ key: typed.apiKey, body });
    if (ok) {
      await expectEnvelope(res, 201, CREATED);
      const rows = await storedRows(typed.projectId);
      expect(rows).toHaveLength(before + 1);
      // Stored as re-serialised JSON: `-0` is written `0`.
      expect(rows.at(-1)?.data).toEqual(JSON.stringify(JSON.parse(body)));
    } else {
      await expectEnvelope(res, 400, {
        message: 'Validation failed',
        errors: [`Field '${type}' is not of type ${type}`],
      });
      expect(await storedRows(typed.projectId)).toHaveLength(before);
    }
  });
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

describe('C16: routing', () => {
  it.each(['GET', 'PUT', 'PATCH', 'DELETE'])(
    'C16: %s /api/v1/submit is 405 with Allow: POST, OPTIONS',
    async (method) => {
      const res = await submit({ method, key: project.apiKey, json: VALID_BODY });
      await expectEnvelope(res, 405, {
        message: 'Method not allowed',
        error: { message: `Method ${method} is not allowed here: submit with POST` },
      });
      expect(res.headers.get('Allow')).toBe('POST, OPTIONS');
    },
  );

  it('C16: HEAD /api/v1/submit is 405 with Allow', async () => {
    const res = await submit({ method: 'HEAD' });
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('POST, OPTIONS');
  });

  it.each([
    'https://forms.test/',
    'https://forms.test/api/v1/submit/',
    'https://forms.test/api/v2/submit',
    'https://forms.test/api/v1/submits',
    'https://forms.test/API/V1/SUBMIT',
  ])('C16: %s is 404 in the envelope', async (url) => {
    const res = await submit({ url, key: project.apiKey, json: VALID_BODY });
    await expectEnvelope(res, 404, {
      message: 'Not found',
      error: { message: 'No endpoint here: submit with POST /api/v1/submit' },
    });
  });
});

describe('C17: storage', () => {
  it('C17: a stored submission has a UUIDv7 id, the project, the fields exactly, and the UTC time', async () => {
    const p = await seedProject();
    const before = Date.now();
    await expectEnvelope(await submit({ key: p.apiKey, json: VALID_BODY }), 201, CREATED);
    const [row, ...rest] = await storedRows(p.projectId);
    expect(rest).toEqual([]);
    expect(row?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(row?.projectId).toBe(p.projectId);
    expect(row?.data).toBe(JSON.stringify(VALID_BODY));
    expect(row?.receivedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const received = Date.parse(row?.receivedAt ?? '');
    expect(received).toBeGreaterThanOrEqual(before - 1000);
    expect(received).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('C17: ids are unique and ordered by arrival', async () => {
    const p = await seedProject();
    for (let i = 0; i < 20; i++) {
      await expectEnvelope(await submit({ key: p.apiKey, json: { phone: i } }), 201, CREATED);
    }
    const rows = await storedRows(p.projectId);
    expect(new Set(rows.map((r) => r.id)).size).toBe(20);
    // storedRows orders by id: arrival order must come back.
    expect(rows.map((r) => JSON.parse(r.data).phone)).toEqual([...Array(20).keys()]);
  });

  it('C17: a rejected submission stores nothing, and what was stored before is kept', async () => {
    const p = await seedProject();
    await expectEnvelope(await submit({ key: p.apiKey, json: { name: 'kept' } }), 201, CREATED);
    await expectEnvelope(await submit({ key: p.apiKey, json: { name: 1 } }), 400);
    await expectEnvelope(await submit({ key: p.apiKey, body: 'nope' }), 400);
    await expectEnvelope(await submit({ key: p.apiKey, body: 'x'.repeat(70_000) }), 413);
    expect(await storedData(p.projectId)).toEqual([{ name: 'kept' }]);
  });

  it('C17: the fields are stored exactly as submitted, including unicode and escapes', async () => {
    const p = await seedProject();
    const body = { name: 'Zoë 😀 \u0000 "quoted" \\ \ud800', message: '\n\t<script>', phone: -0 };
    await expectEnvelope(await submit({ key: p.apiKey, json: body }), 201, CREATED);
    expect((await storedRows(p.projectId)).map((r) => r.data)).toEqual([JSON.stringify(body)]);
  });
});
