// C5: the checks run in order and the first failure answers. Each case breaks its own step and
// every later one, so a reordering of the steps changes the answer.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { isWrite, spyD1 } from './d1-spy.ts';
import { expectEnvelope, type SubmitOptions, seedProject, submit, submitWithEnv } from './helpers.ts';

const BAD_ORIGIN = 'https://evil.example';
const HUGE = `{"name": ${'1'.repeat(70_000)}`; // too large, and not valid JSON either

let open: { apiKey: string };
let guarded: { apiKey: string }; // lists an origin and has no fields
let noFields: { apiKey: string };
beforeAll(async () => {
  open = await seedProject();
  guarded = await seedProject({ fields: [], origins: ['https://shop.example'] });
  noFields = await seedProject({ fields: [] });
});

type Case = [step: string, opts: () => SubmitOptions, code: 400 | 401 | 403 | 413 | 415, detail: string];

const cases: Case[] = [
  [
    '1 (key present and well formed)',
    () => ({
      authorization: 'Basic x',
      contentType: 'text/plain',
      body: HUGE,
      headers: { Origin: BAD_ORIGIN },
    }),
    401,
    "Unsupported authorization scheme: send it as 'Authorization: Bearer <API_KEY>'",
  ],
  [
    '2 (key known)',
    () => ({
      key: 'edgeform_00000000000000000000000000000000',
      contentType: 'text/plain',
      body: HUGE,
      headers: { Origin: BAD_ORIGIN },
    }),
    401,
    'Invalid API key',
  ],
  [
    '3 (origin allowed)',
    () => ({ key: guarded.apiKey, contentType: 'text/plain', body: HUGE, headers: { Origin: BAD_ORIGIN } }),
    403,
    'Origin not allowed',
  ],
  [
    '4 (project has fields)',
    () => ({ key: noFields.apiKey, contentType: 'text/plain', body: HUGE }),
    400,
    'No fields were found for this project',
  ],
  [
    '5 (Content-Type)',
    () => ({ key: open.apiKey, contentType: 'text/plain', body: HUGE }),
    415,
    'Content-Type must be application/json',
  ],
  ['6 (size)', () => ({ key: open.apiKey, body: HUGE }), 413, 'Request body must not exceed 65536 bytes'],
  ['7 (valid JSON)', () => ({ key: open.apiKey, body: '[1, ' }), 400, 'Request body is not valid JSON'],
  [
    '8 (an object)',
    () => ({ key: open.apiKey, body: '[{"name": 1}]' }),
    400,
    'Request body must be a JSON object',
  ],
];

describe('C5: order of checks', () => {
  it.each(cases)('C5: step %s answers first', async (_, opts, code, detail) => {
    const res = await submit(opts());
    const body = await expectEnvelope(res, code);
    expect(body.data.error?.message).toBe(detail);
  });

  it('C5: step 9 (validation) answers before any write is attempted', async () => {
    const spy = spyD1(env.DB, isWrite);
    const res = await submitWithEnv({ ...env, DB: spy.db }, { key: open.apiKey, json: { name: 1 } });
    await expectEnvelope(res, 400, {
      message: 'Validation failed',
      errors: ["Field 'name' is not of type string"],
    });
    expect(spy.trips.some(isWrite)).toBe(false);
  });

  it('C5: step 10 (save) is reached only by a valid submission, and its failure is 503', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const spy = spyD1(env.DB, isWrite);
    const res = await submitWithEnv({ ...env, DB: spy.db }, { key: open.apiKey, json: { name: 'ok' } });
    await expectEnvelope(res, 503);
    expect(spy.trips.filter(isWrite)).toHaveLength(1);
    vi.restoreAllMocks();
  });
});
