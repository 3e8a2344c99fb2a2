// C43: the code of every failure a form post can meet, end to end through the worker: each field
// problem's issue (with its parameters, in the order of `errors`), and each single cause's code,
// with SPEC's texts unchanged beside them.
import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FieldDef } from '../src/fields/validation.ts';
import { expectEnvelope, seedProject, submit } from './helpers.ts';
import { form, PDF, PNG, post } from './uploads.ts';

const FIELDS: FieldDef[] = [
  { name: 'email', type: 'string', required: true, rules: { format: 'email' } },
  { name: 'name', type: 'string', required: false, rules: { minLength: 2, maxLength: 5 } },
  { name: 'age', type: 'integer', required: false, rules: { min: 18, max: 120 } },
  { name: 'topic', type: 'string', required: false, rules: { oneOf: ['sales', 'support'] } },
  { name: 'code', type: 'string', required: false, rules: { pattern: '^[A-Z]{3}$' } },
  { name: 'agree', type: 'boolean', required: false },
  { name: 'cv', type: 'file', required: false, rules: { maxSize: 100, accept: ['application/pdf'] } },
  // The largest file a form takes is checked as the body streams in (413); a smaller field's, here.
  { name: 'photo', type: 'file', required: false, rules: { maxSize: 1000 } },
];

let key: string;
let formId: string;
beforeAll(async () => {
  const p = await seedProject({ fields: FIELDS });
  key = p.apiKey;
  formId = p.formId;
});

type Issue = { field: string; code: string; params?: Record<string, unknown> };

async function issuesOf(res: Response): Promise<Issue[]> {
  const body = (await expectEnvelope(res, 400)) as { data: { errors: string[]; issues: Issue[] } };
  return body.data.issues;
}

async function causeOf(res: Response, status: Parameters<typeof expectEnvelope>[1]): Promise<string> {
  const body = (await expectEnvelope(res, status)) as { data: { error: { code: string } } };
  return body.data.error.code;
}

describe('C43: a field problem is an issue beside its text', () => {
  it('every rule of a JSON body: its code and parameters, in the order of the texts', async () => {
    const res = await submit({
      key,
      json: {
        email: 'nope',
        name: 'A',
        age: 12,
        topic: 'other',
        code: 'abc',
        agree: 'yes',
        extra: 1,
      },
    });
    const body = (await expectEnvelope(res, 400, {
      message: 'Validation failed',
      errors: [
        "Field 'email' must be an email address",
        "Field 'name' must be at least 2 characters",
        "Field 'age' must be at least 18",
        "Field 'topic' must be one of: sales, support",
        "Field 'code' does not match the required pattern",
        "Field 'agree' is not of type boolean",
        "Field 'extra' is not defined for this project",
      ],
      issues: [
        { field: 'email', code: 'format', params: { format: 'email' } },
        { field: 'name', code: 'min_length', params: { min: 2 } },
        { field: 'age', code: 'min', params: { min: 18 } },
        { field: 'topic', code: 'one_of', params: { values: ['sales', 'support'] } },
        { field: 'code', code: 'pattern' },
        { field: 'agree', code: 'type', params: { type: 'boolean' } },
        { field: 'extra', code: 'unknown_field' },
      ],
    })) as { data: Record<string, unknown> };
    // C43: the unknown field's hint beside them (test/hints.test.ts).
    expect(Object.keys(body.data)).toEqual(['message', 'errors', 'issues', 'hint']);
  });

  it('the upper bounds, and a missing required field last', async () => {
    expect(await issuesOf(await submit({ key, json: { name: 'Ada Lovelace', age: 121 } }))).toEqual([
      { field: 'name', code: 'max_length', params: { max: 5 } },
      { field: 'age', code: 'max', params: { max: 120 } },
      { field: 'email', code: 'required' },
    ]);
  });

  it("a form's files: their size and type, one too many, and a name sent twice", async () => {
    const big = new Uint8Array(200);
    big.set(PDF);
    expect(
      await issuesOf(
        await post(formId, form({ email: 'a@example.com', cv: [big, 'cv.pdf', 'application/pdf'] })),
      ),
    ).toEqual([{ field: 'cv', code: 'file_size', params: { max: 100 } }]);
    expect(
      await issuesOf(await post(formId, form({ email: 'a@example.com', cv: [PNG, 'cv.png', 'image/png'] }))),
    ).toEqual([{ field: 'cv', code: 'file_type', params: { types: ['application/pdf'] } }]);
    const twice = form({ email: 'a@example.com', name: 'Ada', cv: [PDF, 'a.pdf', 'application/pdf'] });
    twice.append('name', 'Bea');
    twice.append('cv', new File([PDF], 'b.pdf', { type: 'application/pdf' }));
    expect(await issuesOf(await post(formId, twice))).toEqual([
      { field: 'name', code: 'duplicate_field' },
      { field: 'cv', code: 'too_many_files' },
    ]);
    const huge = form({ email: 'a@example.com', photo: [new Uint8Array(2000), 'p.bin', 'image/png'] });
    expect(await causeOf(await post(formId, huge), 413)).toBe('file_too_large');
  });
});

describe('C43: a single cause carries its code', () => {
  it('the key: missing, malformed, unknown', async () => {
    expect(await causeOf(await submit({ json: { email: 'a@example.com' } }), 401)).toBe('missing_key');
    expect(await causeOf(await submit({ authorization: 'Basic abc', json: {} }), 401)).toBe('missing_key');
    expect(await causeOf(await submit({ authorization: 'Bearer a b', json: {} }), 401)).toBe('invalid_key');
    const unknown = `edgeform_pk_${'A'.repeat(32)}`;
    expect(await causeOf(await submit({ key: unknown, json: {} }), 401)).toBe('invalid_key');
  });

  it('the origin, the project, the media type, the body and the Idempotency-Key', async () => {
    const guarded = await seedProject({ origins: ['https://shop.example'] });
    const elsewhere = { Origin: 'https://evil.example' };
    expect(await causeOf(await submit({ key: guarded.apiKey, headers: elsewhere, json: {} }), 403)).toBe(
      'origin_not_allowed',
    );
    const empty = await seedProject({ fields: [] });
    expect(await causeOf(await submit({ key: empty.apiKey, json: { a: 1 } }), 400)).toBe('no_fields');
    expect(await causeOf(await submit({ key, contentType: 'text/plain', body: '{}' }), 415)).toBe(
      'unsupported_media_type',
    );
    expect(await causeOf(await submit({ key, body: '{' }), 400)).toBe('invalid_json');
    expect(await causeOf(await submit({ key, json: [1] }), 400)).toBe('not_an_object');
    expect(await causeOf(await submit({ key, json: {} }), 400)).toBe('empty_submission');
    expect(await causeOf(await submit({ key, body: `{"a":"${'x'.repeat(70_000)}"}` }), 413)).toBe(
      'body_too_large',
    );
    const badKey = { 'Idempotency-Key': 'é' };
    expect(await causeOf(await submit({ key, headers: badKey, json: { email: 'a@example.com' } }), 400)).toBe(
      'invalid_idempotency_key',
    );
  });

  it('a reused Idempotency-Key, a wrong method, a wrong path, an unknown form', async () => {
    const headers = { 'Idempotency-Key': `codes-${crypto.randomUUID()}` };
    await expectEnvelope(await submit({ key, headers, json: { email: 'a@example.com' } }), 201);
    expect(await causeOf(await submit({ key, headers, json: { email: 'b@example.com' } }), 422)).toBe(
      'idempotency_key_reused',
    );
    expect(await causeOf(await submit({ key, method: 'PUT', json: {} }), 405)).toBe('method_not_allowed');
    expect(await causeOf(await submit({ key, url: 'https://forms.test/nowhere', json: {} }), 404)).toBe(
      'not_found',
    );
    expect(await causeOf(await post('f_nosuchform0000', form({ email: 'a@example.com' })), 404)).toBe(
      'form_not_found',
    );
  });

  it('a form: a body that is not multipart, and a redirect to another origin', async () => {
    const broken = new Request(`https://forms.test/f/${formId}`, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'multipart/form-data; boundary=x' },
      body: 'not multipart',
    });
    expect(await causeOf(await exports.default.fetch(broken), 400)).toBe('invalid_form_body');
    const away = form({ email: 'a@example.com', _next: 'https://evil.example/thanks' });
    expect(await causeOf(await post(formId, away), 400)).toBe('redirect_not_allowed');
  });
});
