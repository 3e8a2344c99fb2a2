// C30: files posted to a project's form address as its tests post them (multipart, answered as
// JSON; with an Idempotency-Key; through a chosen D1), downloaded with a key, and found in R2; the
// minute's sweep that deletes them.
import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { FieldDef } from '../src/fields/validation.ts';
import worker from '../src/index.ts';
import { createKey } from '../src/ops/keys.ts';
import { asTool, fetchWorker, fetchWorkerWith, seedProject } from './helpers.ts';

export const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
export const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82,
]);

const FIELDS: FieldDef[] = [
  { name: 'name', type: 'string', required: false },
  {
    name: 'cv',
    type: 'file',
    required: false,
    rules: { maxSize: 1000, accept: ['application/pdf', 'image/*'] },
  },
];

export async function project(fields: FieldDef[] = FIELDS) {
  const p = await seedProject({ fields });
  const secretKey = await createKey(asTool(), p.projectId, 'secret');
  return { ...p, secretKey };
}

export function form(entries: Record<string, string | [Uint8Array, string, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) {
    if (typeof value === 'string') data.append(name, value);
    else data.append(name, new File([value[0]], value[1], { type: value[2] }));
  }
  return data;
}

export function post(formId: string, body: FormData, testEnv?: Env): Promise<Response> {
  const request = new Request(`https://forms.test/f/${formId}`, {
    method: 'POST',
    body,
    headers: { Accept: 'application/json' },
  });
  if (testEnv === undefined) return fetchWorker(request);
  return fetchWorkerWith(testEnv, request, false);
}

export function download(key: string, id: string, field = 'cv') {
  return fetchWorker(
    new Request(`https://forms.test/api/v1/submissions/${id}/files/${field}`, {
      headers: { Authorization: `Bearer ${key}` },
    }),
  );
}

export async function objectsOf(projectId: string): Promise<string[]> {
  return (await env.FILES.list({ prefix: `${projectId}/` })).objects.map((o) => o.key);
}

export async function sha256(bytes: Uint8Array) {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
}

export async function runSweep(scheduledTime = Date.now()) {
  await worker.scheduled(createScheduledController({ cron: '* * * * *', scheduledTime }), env);
}

/** A form post through the worker with this D1 (a spy), waiting for what it left running. */
export function postWith(formId: string, body: FormData, db: D1Database): Promise<Response> {
  return fetchWorkerWith(
    { ...env, DB: db },
    new Request(`https://forms.test/f/${formId}`, {
      method: 'POST',
      body,
      headers: { Accept: 'application/json' },
    }),
  );
}

function keyedRequest(formId: string, body: FormData, key: string, accept = 'application/json') {
  return new Request(`https://forms.test/f/${formId}`, {
    method: 'POST',
    body,
    headers: { Accept: accept, 'Idempotency-Key': key },
    redirect: 'manual',
  });
}

export const postKeyed = (formId: string, body: FormData, key: string, accept = 'application/json') =>
  fetchWorker(keyedRequest(formId, body, key, accept));

/** A keyed post to the app with a chosen environment, waiting for what it does after its answer. */
export const postKeyedWith = (formId: string, body: FormData, key: string, testEnv: Env) =>
  fetchWorkerWith(testEnv, keyedRequest(formId, body, key));
