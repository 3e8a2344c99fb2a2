// End to end through the worker: a submission as SPEC describes it, the envelope of every reply
// (C1–C3), routing (C16) and storage (C17), each test named after its rule.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CREATED,
  expectEnvelope,
  INVALID_KEY,
  seedProject,
  storedData,
  storedRows,
  submit,
  VALID_BODY,
} from './helpers.ts';

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

  // (The worker's own address answers GET with where things are, C16: test/hints.test.ts.)
  it.each([
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
