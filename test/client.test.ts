// The client package (client/src/index.ts) against the real worker, inside workerd: a good
// submission, a bad one (C12, C43: each field's problems by name, with code and parameters), a
// single cause (C7), and a file sent as multipart to the form address (C29, C30).
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../client/src/index.ts';
import type { FieldDef } from '../src/fields/validation.ts';
import { fetchWorker, seedProject, storedData, URL_SUBMIT } from './helpers.ts';
import { PDF } from './uploads.ts';

const FIELDS: FieldDef[] = [
  { name: 'email', type: 'string', required: true, rules: { format: 'email' } },
  { name: 'age', type: 'integer', required: false, rules: { min: 18 } },
  { name: 'topic', type: 'string', required: false, rules: { oneOf: ['sales', 'support'] } },
  { name: 'cv', type: 'file', required: false, rules: { maxSize: 1000, accept: ['application/pdf'] } },
];

type Application = { email: string; age?: number; topic?: string; cv?: File; extra?: number };

/** Every request through the worker's entry point, its reply checked against the OpenAPI document. */
const viaWorker = (input: string, init: RequestInit) => fetchWorker(new Request(input, init));

let project: Awaited<ReturnType<typeof seedProject>>;
beforeAll(async () => {
  project = await seedProject({ fields: FIELDS });
});

const client = () =>
  createClient<Application>({
    endpoint: URL_SUBMIT,
    key: project.apiKey,
    formId: project.formId,
    fetch: viaWorker,
  });

describe('the client against the worker', () => {
  it('C17: a good submission is { ok: true } and is stored', async () => {
    expect(await client().submit({ email: 'ada@example.com', age: 36, topic: 'sales' })).toEqual({
      ok: true,
    });
    expect(await storedData(project.projectId)).toContainEqual({
      email: 'ada@example.com',
      age: 36,
      topic: 'sales',
    });
  });

  it('C12, C43: a bad one gives each field its problems by name, with codes and parameters', async () => {
    const result = await client().submit({ email: 'nope', age: 12, topic: 'other', extra: 1 });
    expect(result).toEqual({
      ok: false,
      status: 400,
      code: 'validation_failed',
      message: 'Validation failed',
      fieldErrors: {
        email: [
          { code: 'format', message: "Field 'email' must be an email address", params: { format: 'email' } },
        ],
        age: [{ code: 'min', message: "Field 'age' must be at least 18", params: { min: 18 } }],
        topic: [
          {
            code: 'one_of',
            message: "Field 'topic' must be one of: sales, support",
            params: { values: ['sales', 'support'] },
          },
        ],
        extra: [{ code: 'unknown_field', message: "Field 'extra' is not defined for this project" }],
      },
    });
  });

  it('C7, C43: an unknown key is a single cause, invalid_key', async () => {
    const stranger = createClient<Application>({
      endpoint: URL_SUBMIT,
      key: `edgeform_pk_${'x'.repeat(32)}`,
      fetch: viaWorker,
    });
    expect(await stranger.submit({ email: 'ada@example.com' })).toEqual({
      ok: false,
      status: 401,
      code: 'invalid_key',
      message: 'Invalid API key',
      fieldErrors: {},
    });
  });

  it('C29, C30: a File goes as multipart to the form address, and its problems come back by field', async () => {
    const cv = new File([PDF], 'cv.pdf', { type: 'application/pdf' });
    expect(await client().submit({ email: 'grace@example.com', cv })).toEqual({ ok: true });
    const notes = new File(['plain text'], 'notes.pdf', { type: 'application/pdf' });
    const result = await client().submit({ email: 'grace@example.com', age: 12, cv: notes });
    expect(result).toMatchObject({ ok: false, status: 400, code: 'validation_failed' });
    expect(result.ok ? {} : result.fieldErrors).toMatchObject({
      age: [{ code: 'min', params: { min: 18 } }],
      cv: [{ code: 'file_type', params: { types: ['application/pdf'] } }],
    });
    // Over the largest file the form takes: refused as the body streams in, a single cause.
    const big = new File([PDF, new Uint8Array(2000)], 'big.pdf', { type: 'application/pdf' });
    expect(await client().submit({ email: 'grace@example.com', cv: big })).toMatchObject({
      ok: false,
      status: 413,
      code: 'file_too_large',
    });
  });
});
