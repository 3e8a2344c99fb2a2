// C24, C25, C30: files belong to their submission: deleting it, erasing it, retention and the
// project's deletion take its files from R2, by the minute's sweep.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fileDeletions } from '../schema/tables.ts';
import { database } from '../src/store/db.ts';
import { deleteProject } from '../src/store/projects.ts';
import { deleteReceivedBefore, eraseSubmissions } from '../src/store/submissions.ts';
import { expectEnvelope, fetchWorker, storedRows } from './helpers.ts';
import { form, objectsOf, PDF, PNG, post, project, runSweep } from './uploads.ts';

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
    expect((await eraseSubmissions(database(env.DB), p.projectId, 'name', 'erase-me')).submissions).toBe(1);
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
