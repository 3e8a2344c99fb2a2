import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { submissions } from '../schema/tables.ts';
import type { FieldDef } from '../src/fields/validation.ts';
import { REASON_PHRASES, type StatusCode } from '../src/http/envelope.ts';
import worker from '../src/index.ts';
import { ERROR_CODES, ISSUE_CODES } from '../src/lib/codes.ts';
import type { Manager } from '../src/ops/context.ts';
import { createProject } from '../src/ops/projects.ts';
import { database } from '../src/store/db.ts';
import type { ProjectSpec } from '../src/store/projects.ts';
import { expectDocumented } from './contract.ts';

export const URL_SUBMIT = 'https://forms.test/api/v1/submit';

/** SPEC's example configuration: the five fields, none required. */
export const SPEC_FIELDS: FieldDef[] = [
  { name: 'name', type: 'string', required: false },
  { name: 'email', type: 'string', required: false },
  { name: 'phone', type: 'integer', required: false },
  { name: 'enquiry', type: 'boolean', required: false },
  { name: 'message', type: 'string', required: false },
];

export const VALID_BODY = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: 2025550123,
  enquiry: true,
  message: 'Hello!',
};

/** The data of a submission's 201. */
export const CREATED = { message: 'Submission received' };

/** The data of the 401 of a key that is not one of ours, unknown or revoked alike. */
export const INVALID_KEY = { message: 'Authentication failed', error: { message: 'Invalid API key' } };

/** The tool's standing in the operations (an operator, recorded as `tool`), on the test database. */
export const asTool = (db = database(env.DB)): Manager => ({ db, actor: { kind: 'tool' } });

/** A project made as the tool makes one: through the audited operation. */
export async function seedProject(spec: Partial<ProjectSpec> = {}) {
  const { honeypot, turnstileSecret, ...rest } = spec;
  return createProject(asTool(), {
    name: 'Test',
    fields: SPEC_FIELDS,
    ...rest,
    ...(honeypot == null ? {} : { honeypot }),
    ...(turnstileSecret == null ? {} : { turnstileSecret }),
  });
}

export type SubmitOptions = {
  key?: string | null;
  authorization?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
  method?: string;
  url?: string;
  /** A raw body; otherwise `json` is serialised. */
  body?: BodyInit | null;
  json?: unknown;
};

function buildRequest(opts: SubmitOptions): Request {
  const headers = new Headers(opts.headers);
  if (opts.authorization !== undefined) headers.set('Authorization', opts.authorization);
  else if (opts.key) headers.set('Authorization', `Bearer ${opts.key}`);
  if (opts.contentType !== null) headers.set('Content-Type', opts.contentType ?? 'application/json');
  const body =
    opts.body !== undefined ? opts.body : opts.json === undefined ? null : JSON.stringify(opts.json);
  const method = opts.method ?? 'POST';
  return new Request(opts.url ?? URL_SUBMIT, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? null : body,
  });
}

/**
 * A request through the deployed entry point, as a client would send it; its reply is checked
 * against the OpenAPI document (test/contract.ts), as every reply a test receives is.
 */
export async function fetchWorker(request: Request): Promise<Response> {
  const res = await exports.default.fetch(request);
  await expectDocumented(request, res);
  return res;
}

/**
 * A request straight into the app with a chosen environment (a wrapped D1, other settings), once
 * what it does after its reply is done (unless `wait` is false); its reply checked as above.
 */
export async function fetchWorkerWith(testEnv: Env, request: Request, wait = true): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, testEnv, ctx);
  if (wait) await waitOnExecutionContext(ctx);
  await expectDocumented(request, res);
  return res;
}

/** Through the deployed entry point, as a client would reach it. */
export function submit(opts: SubmitOptions = {}): Promise<Response> {
  return fetchWorker(buildRequest(opts));
}

/** Straight into the app with a chosen environment (a wrapped D1, other settings). */
export function submitWithEnv(testEnv: Env, opts: SubmitOptions = {}): Promise<Response> {
  return fetchWorkerWith(testEnv, buildRequest(opts));
}

export type EnvelopeData = {
  message: string;
  error?: { message: string; code?: string };
  errors?: string[];
  issues?: { field: string; code: string; params?: Record<string, unknown> }[];
  /** What to do instead, beside SPEC's texts (C43): compared only where a test names it. */
  hint?: string;
};

/**
 * C43 on every failure a test reads: a single cause's code is one of the list; a validation
 * failure has one issue for each text, in the same order, naming the same field with a listed code.
 */
function expectCodes(data: EnvelopeData) {
  if (data.error) {
    expect(Object.keys(data.error).sort()).toEqual(['code', 'message']);
    expect(Object.keys(ERROR_CODES)).toContain(data.error.code);
  }
  if (data.errors) {
    const issues = data.issues ?? [];
    expect(issues).toHaveLength(data.errors.length);
    issues.forEach((issue, i) => {
      expect(Object.keys(ISSUE_CODES)).toContain(issue.code);
      expect(data.errors?.[i]).toContain(`Field '${issue.field}'`);
    });
  }
}

/** What a test expects, compared with what it left unsaid (a code, the issues) taken out. */
function sameData(actual: EnvelopeData, expected: Partial<EnvelopeData>) {
  const seen: Partial<EnvelopeData> = { ...actual };
  if (actual.error && expected.error && expected.error.code === undefined) {
    seen.error = { message: actual.error.message };
  }
  if (expected.issues === undefined) delete seen.issues;
  if (expected.hint === undefined) delete seen.hint;
  expect(seen).toEqual(expected);
}

/** C1–C3: status, content type, and the whole envelope; returns the body for further checks. */
export async function expectEnvelope(res: Response, code: StatusCode, data?: Partial<EnvelopeData>) {
  expect(res.status).toBe(code);
  expect(res.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
  const body = (await res.json()) as { data: EnvelopeData; status: { code: number; message: string } };
  expect(Object.keys(body).sort()).toEqual(['data', 'status']);
  expect(body.status).toEqual({ code, message: REASON_PHRASES[code] });
  expect(typeof body.data.message).toBe('string');
  if (code === 201) {
    expect(Object.keys(body.data)).toEqual(['message']);
  } else {
    // C3: exactly one of `error` and `errors`.
    expect(('error' in body.data ? 1 : 0) + ('errors' in body.data ? 1 : 0)).toBe(1);
    expectCodes(body.data);
  }
  if (data) sameData(body.data, data);
  return body;
}

export async function storedRows(projectId: string) {
  return database(env.DB)
    .select()
    .from(submissions)
    .where(eq(submissions.projectId, projectId))
    .orderBy(submissions.id);
}

export async function storedData(projectId: string): Promise<unknown[]> {
  return (await storedRows(projectId)).map((r) => JSON.parse(r.data));
}

/**
 * C21: the local Rate Limiting binding counts in windows aligned to the clock (60 s for the tight
 * limiters of vitest.config.ts). A test that spends a whole budget first waits out a window about
 * to end, or its requests would be counted in two windows and the limit never reached. Such a
 * test gets `ONE_WINDOW`'s time-out, room for the wait and the test.
 */
export const ONE_WINDOW = { timeout: 25_000 };

export async function withinOneWindow(periodSeconds = 60, needSeconds = 10): Promise<void> {
  const left = periodSeconds * 1000 - (Date.now() % (periodSeconds * 1000));
  if (left < needSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
