// C30: file fields. Files arrive only as multipart at the form endpoint, are typed by their bytes,
// kept within their limits, stored in R2 (the real local binding) before the submission's D1 write,
// downloaded only with a secret key, and deleted with their submission.
import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fileDeletions } from '../schema/tables.ts';
import { submissionEvent } from '../src/delivery/channels/webhook.ts';
import { UploadedFile } from '../src/fields/file.ts';
import type { FieldDef } from '../src/fields/validation.ts';
import { putFiles, UPLOAD_GRACE_MS } from '../src/files/r2.ts';
import worker from '../src/index.ts';
import { createKey } from '../src/ops/keys.ts';
import { database } from '../src/store/db.ts';
import { deleteProject } from '../src/store/projects.ts';
import { deleteReceivedBefore, eraseSubmissions } from '../src/store/submissions.ts';
import { isWrite, spyD1 } from './d1-spy.ts';
import {
  asTool,
  expectEnvelope,
  fetchWorker,
  fetchWorkerWith,
  seedProject,
  storedRows,
  submit,
} from './helpers.ts';

const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

const FIELDS: FieldDef[] = [
  { name: 'name', type: 'string', required: false },
  {
    name: 'cv',
    type: 'file',
    required: false,
    rules: { maxSize: 1000, accept: ['application/pdf', 'image/*'] },
  },
];

async function project(fields: FieldDef[] = FIELDS) {
  const p = await seedProject({ fields });
  const secretKey = await createKey(asTool(), p.projectId, 'secret');
  return { ...p, secretKey };
}

function form(entries: Record<string, string | [Uint8Array, string, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) {
    if (typeof value === 'string') data.append(name, value);
    else data.append(name, new File([value[0]], value[1], { type: value[2] }));
  }
  return data;
}

function post(formId: string, body: FormData, testEnv?: Env): Promise<Response> {
  const request = new Request(`https://forms.test/f/${formId}`, {
    method: 'POST',
    body,
    headers: { Accept: 'application/json' },
  });
  if (testEnv === undefined) return fetchWorker(request);
  return fetchWorkerWith(testEnv, request, false);
}

function download(key: string, id: string, field = 'cv') {
  return fetchWorker(
    new Request(`https://forms.test/api/v1/submissions/${id}/files/${field}`, {
      headers: { Authorization: `Bearer ${key}` },
    }),
  );
}

async function objectsOf(projectId: string): Promise<string[]> {
  return (await env.FILES.list({ prefix: `${projectId}/` })).objects.map((o) => o.key);
}

async function sha256(bytes: Uint8Array) {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
}

async function runSweep(scheduledTime = Date.now()) {
  await worker.scheduled(createScheduledController({ cron: '* * * * *', scheduledTime }), env);
}

/** A form post through the worker with this D1 (a spy), waiting for what it left running. */
function postWith(formId: string, body: FormData, db: D1Database): Promise<Response> {
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

const postKeyed = (formId: string, body: FormData, key: string, accept = 'application/json') =>
  fetchWorker(keyedRequest(formId, body, key, accept));

/** A keyed post to the app with a chosen environment, waiting for what it does after its answer. */
const postKeyedWith = (formId: string, body: FormData, key: string, testEnv: Env) =>
  fetchWorkerWith(testEnv, keyedRequest(formId, body, key));

describe('C30: uploading a file', () => {
  it('C30: a PDF is stored in R2, its metadata in D1, and it comes back byte for byte with a secret key', async () => {
    const p = await project();
    await expectEnvelope(
      await post(p.formId, form({ name: 'Ada', cv: [PDF, 'My CV.pdf', 'application/pdf'] })),
      201,
    );
    const [row] = await storedRows(p.projectId);
    expect(JSON.parse(row?.data ?? '{}')).toEqual({
      name: 'Ada',
      cv: { name: 'My CV.pdf', type: 'application/pdf', size: PDF.length, sha256: await sha256(PDF) },
    });
    expect(row?.files).toBe('["cv"]');
    expect(await objectsOf(p.projectId)).toEqual([`${p.projectId}/${row?.id}/cv`]);
    const res = await download(p.secretKey, row?.id ?? '');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Content-Disposition')).toBe(
      `attachment; filename="My CV.pdf"; filename*=UTF-8''My%20CV.pdf`,
    );
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PDF);
  });

  it.each([
    [
      'a name that is not plain ASCII keeps its UTF-8 name in filename*, and an ASCII stand-in in filename',
      'Lebenslauf "Jörg".pdf',
      `attachment; filename="Lebenslauf _J_rg_.pdf"; filename*=UTF-8''Lebenslauf%20%22J%C3%B6rg%22.pdf`,
    ],
    [
      "filename* holds only RFC 8187 attr-chars: ' ( ) * are percent-encoded too",
      "it's (a) *test*!.pdf",
      `attachment; filename="it's (a) *test*!.pdf"; filename*=UTF-8''it%27s%20%28a%29%20%2Atest%2A!.pdf`,
    ],
  ])('C30: %s', async (_, name, disposition) => {
    const p = await project();
    await expectEnvelope(await post(p.formId, form({ cv: [PDF, name, 'application/pdf'] })), 201);
    const [row] = await storedRows(p.projectId);
    const res = await download(p.secretKey, row?.id ?? '');
    expect(res.headers.get('Content-Disposition')).toBe(disposition);
    const encoded = res.headers.get('Content-Disposition')?.split("filename*=UTF-8''")[1] ?? '';
    expect(encoded).toMatch(/^(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})+$/);
  });

  it('C30: a wildcard never admits a script-capable type (SVG, XML, XHTML); only its exact type does, and it downloads as bytes', async () => {
    const SVG = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const XHTML = new TextEncoder().encode(
      '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"></html>',
    );
    const wide = await project([
      {
        name: 'pic',
        type: 'file',
        required: false,
        rules: { accept: ['image/*', 'application/*', 'text/*'] },
      },
    ]);
    for (const [bytes, name] of [
      [SVG, 'x.svg'],
      [XHTML, 'x.xhtml'],
    ] as const) {
      const res = await post(wide.formId, form({ pic: [bytes, name, 'image/png'] }));
      await expectEnvelope(res, 400, {
        message: 'Validation failed',
        errors: ["Field 'pic' must be a file of type image/*, application/*, text/*"],
      });
    }
    expect(await objectsOf(wide.projectId)).toEqual([]);
    const exact = await project([
      { name: 'pic', type: 'file', required: false, rules: { accept: ['image/svg+xml'] } },
    ]);
    await expectEnvelope(await post(exact.formId, form({ pic: [SVG, 'x.svg', 'image/svg+xml'] })), 201);
    const [row] = await storedRows(exact.projectId);
    expect(JSON.parse(row?.data ?? '{}').pic.type).toBe('image/svg+xml');
    const res = await download(exact.secretKey, row?.id ?? '', 'pic');
    expect(res.headers.get('Content-Type')).toBe('application/octet-stream');
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment;/);
  });

  it('C30: bytes with no known signature that hold a NUL are application/octet-stream, never text', async () => {
    const p = await project([{ name: 'doc', type: 'file', required: false }]);
    const binary = new TextEncoder().encode('plain words\u0000and more words');
    await expectEnvelope(await post(p.formId, form({ doc: [binary, 'a.txt', 'text/plain'] })), 201);
    const text = new TextEncoder().encode('plain words and more words');
    await expectEnvelope(await post(p.formId, form({ doc: [text, 'b.txt', 'text/plain'] })), 201);
    expect((await storedRows(p.projectId)).map((r) => JSON.parse(r.data).doc.type)).toEqual([
      'application/octet-stream',
      'text/plain',
    ]);
  });

  it('C30: a file of exactly maxSize bytes is accepted; one byte more is refused', async () => {
    const p = await project([{ name: 'doc', type: 'file', required: false, rules: { maxSize: 100 } }]);
    const of = (n: number) => new Uint8Array(n).fill(0x61);
    await expectEnvelope(await post(p.formId, form({ doc: [of(100), 'a.txt', 'text/plain'] })), 201);
    await expectEnvelope(await post(p.formId, form({ doc: [of(101), 'b.txt', 'text/plain'] })), 413, {
      message: 'Request body too large',
      error: { message: "Field 'doc' must be at most 100 bytes" },
    });
  });

  it('C23 + C30: a publishable key cannot download; another project, or a field without a file, is 404', async () => {
    const p = await project();
    const other = await project();
    await expectEnvelope(await post(p.formId, form({ cv: [PDF, 'a.pdf', 'application/pdf'] })), 201);
    const [row] = await storedRows(p.projectId);
    await expectEnvelope(await download(p.apiKey, row?.id ?? ''), 403);
    await expectEnvelope(await download(other.secretKey, row?.id ?? ''), 404);
    await expectEnvelope(await download(p.secretKey, row?.id ?? '', 'name'), 404);
    await expectEnvelope(await download(p.secretKey, row?.id ?? '', 'nope'), 404);
  });

  it('C30: the type is judged from the bytes, never from what the client says', async () => {
    const p = await project();
    await expectEnvelope(await post(p.formId, form({ cv: [PNG, 'photo.pdf', 'application/pdf'] })), 201);
    const [row] = await storedRows(p.projectId);
    expect(JSON.parse(row?.data ?? '{}').cv.type).toBe('image/png');
    // Text dressed as a PDF is text, which this field does not accept: refused, nothing kept.
    const q = await project();
    await expectEnvelope(
      await post(
        q.formId,
        form({ cv: [new TextEncoder().encode('not a pdf'), 'cv.pdf', 'application/pdf'] }),
      ),
      400,
      {
        message: 'Validation failed',
        errors: ["Field 'cv' must be a file of type application/pdf, image/*"],
      },
    );
    expect(await storedRows(q.projectId)).toEqual([]);
    expect(await objectsOf(q.projectId)).toEqual([]);
  });

  it('C30: a file over its maxSize is refused with the field’s message, and nothing of it is stored', async () => {
    const p = await project();
    const big = new Uint8Array(1001);
    big.set(PDF);
    await expectEnvelope(
      await post(p.formId, form({ name: 'A', cv: [big, 'big.pdf', 'application/pdf'] })),
      413,
      {
        message: 'Request body too large',
        error: { message: "Field 'cv' must be at most 1 kB" },
      },
    );
    expect(await storedRows(p.projectId)).toEqual([]);
    expect(await objectsOf(p.projectId)).toEqual([]);
  });

  it('C30: with two file fields, a file over the smaller limit gets that field’s message', async () => {
    const p = await project([
      { name: 'small', type: 'file', required: false, rules: { maxSize: 100 } },
      { name: 'large', type: 'file', required: false, rules: { maxSize: 5000 } },
    ]);
    const file = new Uint8Array(200).fill(65);
    await expectEnvelope(await post(p.formId, form({ small: [file, 'a.txt', 'text/plain'] })), 400, {
      message: 'Validation failed',
      errors: ["Field 'small' must be at most 100 bytes"],
    });
    await expectEnvelope(await post(p.formId, form({ large: [file, 'a.txt', 'text/plain'] })), 201);
    const [row] = await storedRows(p.projectId);
    expect(JSON.parse(row?.data ?? '{}').large).toMatchObject({ type: 'text/plain', size: 200 });
  });

  it('C30: the files of one submission together stay within MAX_UPLOAD_BYTES', async () => {
    const p = await project([
      { name: 'a', type: 'file', required: false },
      { name: 'b', type: 'file', required: false },
    ]);
    const file = new Uint8Array(600).fill(66);
    const res = await post(p.formId, form({ a: [file, 'a.bin', 'x/y'], b: [file, 'b.bin', 'x/y'] }), {
      ...env,
      MAX_UPLOAD_BYTES: 1000,
    } as unknown as Env);
    await expectEnvelope(res, 413, {
      message: 'Request body too large',
      error: { message: 'The files of a submission must not exceed 1000 bytes' },
    });
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C30: the JSON endpoint refuses any value of a file field; a required one cannot be sent there', async () => {
    const p = await project([
      { name: 'cv', type: 'file', required: true },
      { name: 'name', type: 'string', required: false },
    ]);
    const meta = { name: 'a.pdf', type: 'application/pdf', size: 1, sha256: 'x' };
    await expectEnvelope(await submit({ key: p.apiKey, json: { cv: meta } }), 400, {
      message: 'Validation failed',
      errors: ["Field 'cv' is not of type file"],
    });
    await expectEnvelope(await submit({ key: p.apiKey, json: { name: 'x' } }), 400, {
      message: 'Validation failed',
      errors: ["Field 'cv' is required"],
    });
    // Nor as text through a urlencoded form.
    await expectEnvelope(
      await fetchWorker(
        new Request(`https://forms.test/f/${p.formId}`, {
          method: 'POST',
          body: 'cv=a.pdf',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        }),
      ),
      400,
      { message: 'Validation failed', errors: ["Field 'cv' is not of type file"] },
    );
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C30: no file chosen is no value; a file under a text field gets the type message', async () => {
    const p = await project();
    await expectEnvelope(
      await post(p.formId, form({ name: 'A', cv: [new Uint8Array(0), '', 'application/octet-stream'] })),
      201,
    );
    expect(JSON.parse((await storedRows(p.projectId))[0]?.data ?? '{}')).toEqual({ name: 'A' });
    await expectEnvelope(await post(p.formId, form({ name: [PDF, 'a.pdf', 'application/pdf'] })), 400, {
      message: 'Validation failed',
      errors: ["Field 'name' is not of type string"],
    });
  });

  it('C18 + C30: when D1 fails the write, the answer is 503; the files, whose row may be stored, stay until the upload’s cleanup an hour on', async () => {
    const p = await project();
    // Warm the form's project into the cache with a working D1, then fail the submission's write.
    await expectEnvelope(await post(p.formId, form({ name: 'warm' })), 201);
    const spy = spyD1(
      env.DB,
      (sql) => sql.startsWith('insert into "submissions"') || sql.startsWith('batch'),
    );
    const res = await postWith(p.formId, form({ cv: [PDF, 'a.pdf', 'application/pdf'] }), spy.db);
    await expectEnvelope(res, 503);
    // The upload was recorded, then its files were put; an outage's outcome is unknown, so they stay.
    expect(spy.trips.filter(isWrite)[0]).toMatch(/^insert into "file_deletions"/);
    expect(await storedRows(p.projectId)).toHaveLength(1);
    expect(await objectsOf(p.projectId)).toHaveLength(1);
    // No row appeared: the sweep deletes them an hour on.
    await runSweep(Date.now() + UPLOAD_GRACE_MS + 60_000);
    expect(await objectsOf(p.projectId)).toEqual([]);
  });

  it('C18 + C30: a write that D1 acknowledges after the lost-write time is 503 to its waiting request, and deletes nothing: the retry is answered from the stored row, with its file', async () => {
    const p = await project();
    await expectEnvelope(await post(p.formId, form({ name: 'warm' })), 201);
    const spy = spyD1(
      env.DB,
      () => false,
      () => 0,
      (sql) => (sql.startsWith('insert into "submissions"') ? 1500 : undefined),
    );
    const late = { ...env, DB: spy.db, LOST_WRITE_SECONDS: 1 } as unknown as Env;
    const entries = (name: string) => ({
      name,
      cv: [PDF, `${name}.pdf`, 'application/pdf'] as [Uint8Array, string, string],
    });
    // Two at once: while the first's write is in flight, the second gives it up as lost after 1 s
    // (its own write then goes through); D1 acknowledges the first after 1.5 s.
    const replies = await Promise.all(
      ['ada', 'grace'].map((name) => postKeyedWith(p.formId, form(entries(name)), `late-${name}`, late)),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 503]);
    const stored = (await storedRows(p.projectId)).filter((r) => r.files !== null);
    expect(stored).toHaveLength(2);
    expect((await objectsOf(p.projectId)).sort()).toEqual(
      stored.map((r) => `${p.projectId}/${r.id}/cv`).sort(),
    );
    const lost = ['ada', 'grace'][replies.findIndex((r) => r.status === 503)] ?? '';
    const retry = await postKeyed(p.formId, form(entries(lost)), `late-${lost}`);
    await expectEnvelope(retry, 201);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    for (const row of stored) {
      const res = await download(p.secretKey, row.id);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(PDF);
    }
    // The sweep an hour on keeps the files of stored rows.
    await runSweep(Date.now() + UPLOAD_GRACE_MS + 60_000);
    expect(await objectsOf(p.projectId)).toHaveLength(2);
  });

  it('C18 + C30: D1 failing after it committed is 503 and deletes nothing; a replay puts back a file R2 lacks', async () => {
    const p = await project();
    await expectEnvelope(await post(p.formId, form({ name: 'warm' })), 201);
    const spy = spyD1(
      env.DB,
      () => false,
      () => 0,
      (sql) => (sql.startsWith('insert into "submissions"') ? 'fail' : undefined),
    );
    const entries = { name: 'Ada', cv: [PDF, 'lost.pdf', 'application/pdf'] as [Uint8Array, string, string] };
    await expectEnvelope(
      await postKeyedWith(p.formId, form(entries), 'ambiguous-1', { ...env, DB: spy.db }),
      503,
    );
    const [stored] = (await storedRows(p.projectId)).filter((r) => r.files !== null);
    expect(await objectsOf(p.projectId)).toEqual([`${p.projectId}/${stored?.id}/cv`]);
    // Lost from R2 however it happened: the retry, which carries the same bytes, puts it back.
    await env.FILES.delete(`${p.projectId}/${stored?.id}/cv`);
    await expectEnvelope(await postKeyed(p.formId, form(entries), 'ambiguous-1'), 201);
    const res = await download(p.secretKey, stored?.id ?? '');
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PDF);
  });

  it('C18 + C30: a submission D1 refuses for its own sake leaves no file behind', async () => {
    const p = await project();
    await expectEnvelope(await post(p.formId, form({ name: 'warm' })), 201);
    // The project is deleted while its form is cached: the write is refused by the foreign key.
    await deleteProject(database(env.DB), p.projectId);
    await expectEnvelope(await post(p.formId, form({ cv: [PDF, 'a.pdf', 'application/pdf'] })), 404);
    expect(await objectsOf(p.projectId)).toEqual([]);
  });

  it('C18 + C30: when D1 fails before the upload, the answer is 503 and nothing reaches R2', async () => {
    const p = await project();
    await expectEnvelope(await post(p.formId, form({ name: 'warm' })), 201);
    const spy = spyD1(env.DB, isWrite);
    const res = await postWith(p.formId, form({ cv: [PDF, 'a.pdf', 'application/pdf'] }), spy.db);
    await expectEnvelope(res, 503);
    expect(spy.trips.filter(isWrite)).toEqual([expect.stringMatching(/^insert into "file_deletions"/)]);
    expect(await storedRows(p.projectId)).toHaveLength(1);
    expect(await objectsOf(p.projectId)).toEqual([]);
  });

  it('C30: files whose submission was never stored (the worker gone after the upload) leave R2 an hour on', async () => {
    const p = await project();
    // A stored submission: its insert took its upload off the list.
    await expectEnvelope(await post(p.formId, form({ cv: [PDF, 'kept.pdf', 'application/pdf'] })), 201);
    const [stored] = await storedRows(p.projectId);
    expect(
      await database(env.DB)
        .select()
        .from(fileDeletions)
        .where(eq(fileDeletions.prefix, `${p.projectId}/${stored?.id}/`)),
    ).toEqual([]);
    // An upload whose worker stopped before the submission's write.
    const orphan = '01a00000-0000-7000-8000-0000000000f1';
    const file = new UploadedFile(
      { name: 'lost.pdf', type: 'application/pdf', size: PDF.length, sha256: await sha256(PDF) },
      PDF,
    );
    await putFiles(env.DB, env.FILES, p.projectId, orphan, [['cv', file]]);
    expect(await objectsOf(p.projectId)).toHaveLength(2);
    const now = Date.now();
    await runSweep(now + 60_000);
    expect(await objectsOf(p.projectId)).toHaveLength(2);
    await runSweep(now + UPLOAD_GRACE_MS + 60_000);
    expect(await objectsOf(p.projectId)).toEqual([`${p.projectId}/${stored?.id}/cv`]);
    expect(
      await database(env.DB)
        .select()
        .from(fileDeletions)
        .where(eq(fileDeletions.prefix, `${p.projectId}/${orphan}/`)),
    ).toEqual([]);
  });

  it('C26 + C30: a webhook carries the metadata and the path of each file, never its bytes', () => {
    const event = JSON.parse(
      submissionEvent({
        projectId: 'p_1',
        submissionId: 'abc',
        receivedAt: '2026-11-23T00:00:00.000Z',
        data: '{"cv":{"name":"a.pdf","type":"application/pdf","size":3,"sha256":"00"}}',
        files: '["cv"]',
      }),
    );
    expect(event.data.fields.cv).toEqual({ name: 'a.pdf', type: 'application/pdf', size: 3, sha256: '00' });
    expect(event.data.files).toEqual({ cv: '/api/v1/submissions/abc/files/cv' });
  });
});

describe('C30: files belong to their submission', () => {
  it('C24 + C30: deleting a submission queues its files; the minute sweep deletes them from R2', async () => {
    const p = await project();
    await expectEnvelope(await post(p.formId, form({ cv: [PDF, 'a.pdf', 'application/pdf'] })), 201);
    const [row] = await storedRows(p.projectId);
    const res = await fetchWorker(
      new Request(`https://forms.test/api/v1/submissions/${row?.id}`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${p.secretKey}` },
      }),
    );
    expect(res.status).toBe(200);
    const prefix = `${p.projectId}/${row?.id}/`;
    expect(
      await database(env.DB).select().from(fileDeletions).where(eq(fileDeletions.prefix, prefix)),
    ).toHaveLength(1);
    expect(await objectsOf(p.projectId)).toHaveLength(1);
    await runSweep();
    expect(await objectsOf(p.projectId)).toEqual([]);
    expect(
      await database(env.DB).select().from(fileDeletions).where(eq(fileDeletions.prefix, prefix)),
    ).toEqual([]);
  });

  it('C25 + C30: erasure and project deletion take the files too', async () => {
    const p = await project();
    await expectEnvelope(
      await post(p.formId, form({ name: 'erase-me', cv: [PDF, 'a.pdf', 'application/pdf'] })),
      201,
    );
    await expectEnvelope(await post(p.formId, form({ name: 'keep', cv: [PNG, 'b.png', 'image/png'] })), 201);
    expect(await eraseSubmissions(database(env.DB), p.projectId, 'name', 'erase-me')).toBe(1);
    await runSweep();
    const [kept] = await storedRows(p.projectId);
    expect(await objectsOf(p.projectId)).toEqual([`${p.projectId}/${kept?.id}/cv`]);
    await deleteProject(database(env.DB), p.projectId);
    await runSweep();
    expect(await objectsOf(p.projectId)).toEqual([]);
  });

  it('C25 + C30: retention deletes the files of the submissions it deletes', async () => {
    const p = await project();
    await expectEnvelope(await post(p.formId, form({ cv: [PDF, 'a.pdf', 'application/pdf'] })), 201);
    expect(await objectsOf(p.projectId)).toHaveLength(1);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect(await deleteReceivedBefore(database(env.DB), p.projectId, tomorrow, 1)).toBe(1);
    await runSweep();
    expect(await objectsOf(p.projectId)).toEqual([]);
  });
});

describe('C20 + C30: an Idempotency-Key at the form address (sent by a script)', () => {
  it('C20 + C30: a retry is answered from the first request: one row, one upload, and a body that differs is 422', async () => {
    const p = await project();
    const entries = { name: 'Ada', cv: [PDF, 'a.pdf', 'application/pdf'] as [Uint8Array, string, string] };
    const first = await postKeyed(p.formId, form(entries), 'upload-1');
    await expectEnvelope(first, 201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const [row] = await storedRows(p.projectId);
    const objects = await env.FILES.list({ prefix: `${p.projectId}/` });
    // A new FormData: another boundary, the same content.
    const retry = await postKeyed(p.formId, form(entries), 'upload-1');
    await expectEnvelope(retry, 201);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    // Without a script, the same thank-you page as the first time.
    const page = await postKeyed(p.formId, form(entries), 'upload-1', 'text/html');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Thank you');
    expect((await storedRows(p.projectId)).map((r) => r.id)).toEqual([row?.id]);
    expect((await env.FILES.list({ prefix: `${p.projectId}/` })).objects.map((o) => o.key)).toEqual(
      objects.objects.map((o) => o.key),
    );
    // The same key with another file is another request: refused, nothing stored or put.
    const other = { ...entries, cv: [PNG, 'a.png', 'image/png'] as [Uint8Array, string, string] };
    await expectEnvelope(await postKeyed(p.formId, form(other), 'upload-1'), 422);
    expect(await storedRows(p.projectId)).toHaveLength(1);
    expect((await env.FILES.list({ prefix: `${p.projectId}/` })).objects).toHaveLength(1);
    // Another key is another submission.
    await expectEnvelope(await postKeyed(p.formId, form(entries), 'upload-2'), 201);
    expect(await storedRows(p.projectId)).toHaveLength(2);
  });

  it('C20 + C30: concurrent requests with one key store one submission and one set of files', async () => {
    const p = await project();
    const entries = { name: 'Ada', cv: [PDF, 'a.pdf', 'application/pdf'] as [Uint8Array, string, string] };
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => postKeyed(p.formId, form(entries), 'double-click')),
    );
    for (const res of replies) await expectEnvelope(res, 201);
    expect(replies.filter((r) => r.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(3);
    expect(await storedRows(p.projectId)).toHaveLength(1);
    expect((await env.FILES.list({ prefix: `${p.projectId}/` })).objects).toHaveLength(1);
  });

  it('C20 + C29: a malformed key is 400; the form address answers the preflight of a script that sends one', async () => {
    const p = await project();
    await expectEnvelope(await postKeyed(p.formId, form({ name: 'Ada' }), 'x'.repeat(256)), 400);
    expect(await storedRows(p.projectId)).toEqual([]);
    const preflight = await fetchWorker(
      new Request(`https://forms.test/f/${p.formId}`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://www.example.com',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'idempotency-key',
        },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBe('https://www.example.com');
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toContain('Idempotency-Key');
  });
});
