// C30: file fields. Files arrive only as multipart at the form endpoint, are typed by their bytes,
// kept within their limits, stored in R2 (the real local binding) before the submission's D1 write,
// downloaded only with a secret key, and sent to webhooks as their metadata.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { submissionEvent } from '../src/delivery/channels/webhook.ts';
import { expectEnvelope, fetchWorker, storedRows, submit } from './helpers.ts';
import { download, form, objectsOf, PDF, PNG, post, project, sha256 } from './uploads.ts';

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
