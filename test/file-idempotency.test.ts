// C20, C29, C30: an Idempotency-Key sent by a script with files to the form address: a retry is
// answered from the first request (one row, one upload), another body is 422, concurrent requests
// store one submission; a malformed key is 400, and the preflight allows the header.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { expectEnvelope, fetchWorker, storedRows } from './helpers.ts';
import { form, PDF, PNG, postKeyed, project } from './uploads.ts';

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
