// C18, C30: a submission's files when D1 fails around its write: stored in R2 before the row, they
// stay while the row may exist (a retry answered from it puts back a file R2 lacks), and leave an
// hour on when no row came (the worker gone after the upload); nothing reaches R2 when D1 fails first.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fileDeletions } from '../schema/tables.ts';
import { UploadedFile } from '../src/fields/file.ts';
import { putFiles, UPLOAD_GRACE_MS } from '../src/files/r2.ts';
import { database } from '../src/store/db.ts';
import { deleteProject } from '../src/store/projects.ts';
import { isWrite, spyD1 } from './d1-spy.ts';
import { expectEnvelope, storedRows } from './helpers.ts';
import {
  download,
  form,
  objectsOf,
  PDF,
  post,
  postKeyed,
  postKeyedWith,
  postWith,
  project,
  runSweep,
  sha256,
} from './uploads.ts';

describe('C30: uploading a file', () => {
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
});
