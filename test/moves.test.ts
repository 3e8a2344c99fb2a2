// C41: moving a project from one place to another: everything copied, verified and switched, the
// source deleted; old keys and form addresses kept working; submissions arriving meanwhile stored
// once each; files along with it; a move that fails undone, one that stopped taken up again.
import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { directory, projects, submissions } from '../schema/tables.ts';
import worker from '../src/index.ts';
import { placeOfKey } from '../src/projects/keys.ts';
import { expectEnvelope, submit } from './helpers.ts';
import { api, newProject, ok, problem, upload } from './manage/helpers.ts';
import { bothPlaces, eu, euProject, FIELDS, home, postForm, rowsIn } from './places.ts';

describe('C41: places', () => {
  describe('moving a project', () => {
    const post = (key: string, email: string, idem?: string) =>
      submit({
        key,
        json: { email, message: 'moving' },
        ...(idem === undefined ? {} : { headers: { 'Idempotency-Key': idem } }),
      });

    it('copies everything, verifies it, switches, deletes the source; old keys and the form address keep working', async () => {
      const { projectId, apiKey, formId } = await newProject(FIELDS);
      await ok(
        await api('POST', `/projects/${projectId}/webhooks`, {
          body: { url: 'https://hooks.example.com/m' },
        }),
        201,
      );
      for (const i of [1, 2, 3]) await expectEnvelope(await post(apiKey, `m${i}@example.com`), 201);
      const moved = await ok<{
        from: string;
        to: string;
        rows: Record<string, number>;
        project: { place: string };
      }>(await api('POST', `/projects/${projectId}/move`, { body: { to: 'eu' } }));
      expect(moved).toMatchObject({ from: 'default', to: 'eu', project: { place: 'eu' } });
      expect(moved.rows).toMatchObject({ projects: 1, submissions: 3, webhooks: 1, fields: 2, api_keys: 1 });
      expect(await rowsIn(home(), projectId)).toEqual([]);
      expect(await home().select().from(projects).where(eq(projects.id, projectId))).toEqual([]);
      expect(await rowsIn(eu(), projectId)).toHaveLength(3);
      // The old (untagged) key and form address now lead to the EU database. A request that meets
      // the project gone from where this isolate had it cached is told to retry (503), once.
      const first = await post(apiKey, 'after@example.com', 'after');
      if (first.status === 503) expect(first.headers.get('Retry-After')).toBe('2');
      else expect(first.status).toBe(201);
      await expectEnvelope(
        await post(apiKey, 'after@example.com', 'after'),
        first.status === 503 ? 201 : 200,
      );
      const res = await postForm(`https://forms.test/f/${formId}`, 'email=form%40example.com');
      expect(res.status).toBe(201);
      expect(await rowsIn(eu(), projectId)).toHaveLength(5);
      expect(await rowsIn(home(), projectId)).toEqual([]);
      // The management API finds it where it lives; the audit log there records the move.
      const audit = await ok<{ entries: { action: string }[] }>(
        await api('GET', `/projects/${projectId}/audit`),
      );
      expect(audit.entries.map((e) => e.action)).toContain('project.move');
    });

    it('a project moved twice: keys made in each place lead to where it lives now', async () => {
      const { projectId, apiKey } = await euProject();
      await ok(await api('POST', `/projects/${projectId}/move`, { body: { to: 'default' } }));
      const newer = await ok<{ key: string }>(
        await api('POST', `/projects/${projectId}/keys`, { body: { kind: 'publishable' } }),
        201,
      );
      expect(placeOfKey(newer.key)).toBe('default');
      await ok(await api('POST', `/projects/${projectId}/move`, { body: { to: 'eu' } }));
      await expectEnvelope(await post(apiKey, 'eu-key@example.com'), 201);
      await expectEnvelope(await post(newer.key, 'default-key@example.com'), 201);
      expect(await rowsIn(eu(), projectId)).toHaveLength(2);
      expect(await home().select().from(directory).where(eq(directory.projectId, projectId))).toEqual(
        expect.arrayContaining([{ lookup: `p:${projectId}`, projectId, place: 'eu', movingTo: null }]),
      );
      // Where it lives holds no forwarding of its own.
      expect(
        (await eu().select().from(directory).where(eq(directory.projectId, projectId))).filter(
          (r) => !r.lookup.startsWith('p:'),
        ),
      ).toEqual([]);
    });

    it('submissions arriving during the move are stored once each, or refused with 503 and Retry-After and stored by their retry', async () => {
      const { projectId, apiKey } = await newProject(FIELDS);
      for (let i = 0; i < 40; i++) await expectEnvelope(await post(apiKey, `before${i}@example.com`), 201);
      const move = api('POST', `/projects/${projectId}/move`, { body: { to: 'eu' } });
      const sent = Array.from({ length: 30 }, (_, i) => `during${i}`);
      const refused: string[] = [];
      for (const idem of sent) {
        const res = await post(apiKey, `${idem}@example.com`, idem);
        if (res.status === 503) {
          expect(res.headers.get('Retry-After')).toMatch(/^\d+$/);
          refused.push(idem);
        } else expect(res.status).toBe(201);
      }
      await ok(await move);
      // Each refused one, retried with its Idempotency-Key; and a retry of every one, to be sure.
      for (const idem of sent) {
        const res = await post(apiKey, `${idem}@example.com`, idem);
        expect([200, 201]).toContain(res.status);
      }
      const stored = [...(await rowsIn(eu(), projectId)), ...(await rowsIn(home(), projectId))];
      const emails = stored.map((r) => (JSON.parse(r.data) as { email: string }).email);
      expect(new Set(emails).size).toBe(emails.length);
      expect(emails).toHaveLength(70);
      expect(await rowsIn(home(), projectId)).toEqual([]);
      expect(refused.length).toBeGreaterThan(0);
    });

    it('moves only its own rows: an id with `_` is never a pattern matching another project’s', async () => {
      const { createProject } = await import('../src/ops/projects.ts');
      const m = bothPlaces('tool');
      await createProject(m, { name: 'Underscore', fields: [], id: 'q_1' });
      await createProject(m, { name: 'Lookalike', fields: [], id: 'qx1' });
      for (const scope of ['confirm:q_1', 'confirm:qx1', 'capped:qx1', 'confirm:qx1:abc'])
        await env.DB.prepare("insert into mail_counts (scope, day, count) values (?, '2026-11-25', 1)")
          .bind(scope)
          .run();
      await env.DB.prepare(
        "insert into file_deletions (prefix, created_at) values ('qx1/s/', '2026-11-25')",
      ).run();
      await ok(await api('POST', '/projects/q_1/move', { body: { to: 'eu' } }));
      const left = await env.DB.prepare(
        "select scope from mail_counts where scope like '%qx1%' order by scope",
      ).all();
      expect(left.results.map((r) => r.scope)).toEqual(['capped:qx1', 'confirm:qx1', 'confirm:qx1:abc']);
      const moved = await env.DB_EU.prepare("select scope from mail_counts where scope like '%q%1%'").all();
      expect(moved.results.map((r) => r.scope)).toEqual(['confirm:q_1']);
      expect(
        await env.DB_EU.prepare("select prefix from file_deletions where prefix = 'qx1/s/'").first(),
      ).toBeNull();
    });

    it('an unknown place, or the place it is in, is 400 and changes nothing', async () => {
      const { projectId, apiKey } = await euProject();
      expect(
        await problem(await api('POST', `/projects/${projectId}/move`, { body: { to: 'mars' } }), 400),
      ).toBe("Unknown place 'mars': this worker's places are 'default', 'eu'");
      expect(
        await problem(await api('POST', `/projects/${projectId}/move`, { body: { to: 'eu' } }), 400),
      ).toBe(`Project '${projectId}' lives in 'eu' already`);
      await expectEnvelope(await post(apiKey, 'still@example.com'), 201);
      expect(await rowsIn(eu(), projectId)).toHaveLength(1);
    });

    it('only the operator moves a project: its own secret key may not', async () => {
      const { projectId } = await euProject();
      const secret = await ok<{ key: string }>(
        await api('POST', `/projects/${projectId}/keys`, { body: { kind: 'secret' } }),
        201,
      );
      const res = await api('POST', `/projects/${projectId}/move`, {
        body: { to: 'default' },
        token: secret.key,
      });
      expect(res.status).toBe(403);
    });
  });

  describe('files, failures and a move in progress', () => {
    const PNG = Uint8Array.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82,
    ]);
    const withPhoto = [
      { name: 'email', type: 'string' },
      { name: 'photo', type: 'file', rules: { accept: ['image/png'], maxSize: '1MB' } },
    ];
    const objects = async (bucket: R2Bucket, projectId: string) =>
      (await bucket.list({ prefix: `${projectId}/` })).objects.map((o) => o.key);

    it('an eu project’s file goes to the EU bucket only; a move takes its files along, and the source bucket is emptied', async () => {
      const { projectId, formId } = await newProject(withPhoto, { region: 'eu' });
      await upload(formId, 'photo', PNG, 'me.png', 'image/png');
      const [key] = await objects(env.FILES_EU, projectId);
      expect(key).toMatch(new RegExp(`^${projectId}/[0-9a-f-]{36}/photo$`));
      expect(await objects(env.FILES, projectId)).toEqual([]);
      const moved = await ok<{ files: number }>(
        await api('POST', `/projects/${projectId}/move`, { body: { to: 'default' } }),
      );
      expect(moved.files).toBe(1);
      expect(await objects(env.FILES, projectId)).toEqual([key]);
      expect(new Uint8Array(await ((await env.FILES.get(key ?? '')) as R2ObjectBody).arrayBuffer())).toEqual(
        PNG,
      );
      // The source's copy leaves with the minute's sweep of its place.
      await worker.scheduled?.(
        createScheduledController({ cron: '* * * * *', scheduledTime: Date.now() }),
        env,
      );
      expect(await objects(env.FILES_EU, projectId)).toEqual([]);
      // The file is served from where the project lives now.
      const { submissions: listed } = await ok<{ submissions: { id: string }[] }>(
        await api('GET', `/projects/${projectId}/submissions`),
      );
      const served = await api('GET', `/projects/${projectId}/submissions/${listed[0]?.id}/files/photo`);
      expect(served.status).toBe(200);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    });

    it('a move that fails leaves the project where it was, taking submissions, with no partial copy', async () => {
      const { projectId, apiKey, formId } = await newProject(FIELDS);
      await expectEnvelope(await submit({ key: apiKey, json: { email: 'stay@example.com' } }), 201);
      // A project in eu holding the same form address: the copy of the project's row is refused.
      await env.DB_EU.prepare(
        "insert into projects (id, name, form_id, created_at) values ('p_squatter', 'Squatter', ?, '2026-01-01T00:00:00.000Z')",
      )
        .bind(formId)
        .run();
      const res = await api('POST', `/projects/${projectId}/move`, { body: { to: 'eu' } });
      expect(await problem(res, 409)).toBe(
        `The move of '${projectId}' to 'eu' was undone: Error: UNIQUE constraint failed: projects.form_id: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_UNIQUE)`,
      );
      expect(await eu().select().from(submissions).where(eq(submissions.projectId, projectId))).toEqual([]);
      expect(await eu().select().from(projects).where(eq(projects.id, projectId))).toEqual([]);
      const [still] = await home().select().from(projects).where(eq(projects.id, projectId));
      expect(still?.movingSince).toBeNull();
      expect(await home().select().from(directory).where(eq(directory.projectId, projectId))).toEqual([]);
      await expectEnvelope(await submit({ key: apiKey, json: { email: 'after@example.com' } }), 201);
      expect(await rowsIn(home(), projectId)).toHaveLength(2);
      await env.DB_EU.prepare("delete from projects where id = 'p_squatter'").run();
    });

    it('a move that stopped midway (its worker gone) is taken up by running it again', async () => {
      const { projectId, apiKey } = await euProject();
      await expectEnvelope(await submit({ key: apiKey, json: { email: 'midway@example.com' } }), 201);
      const { beginMove } = await import('../src/store/directory.ts');
      await beginMove(home(), eu(), projectId, 'eu', 'default');
      await ok(await api('POST', `/projects/${projectId}/move`, { body: { to: 'default' } }));
      expect(await rowsIn(home(), projectId)).toHaveLength(1);
      expect(await rowsIn(eu(), projectId)).toEqual([]);
      expect(
        (await ok<{ project: { place: string } }>(await api('GET', `/projects/${projectId}`))).project.place,
      ).toBe('default');
    });

    it('a move that stopped after its switch: running it again deletes the source copy left behind', async () => {
      const { projectId, apiKey } = await euProject();
      await expectEnvelope(await submit({ key: apiKey, json: { email: 'switched@example.com' } }), 201);
      const { beginMove, forwardTo, settlePlace } = await import('../src/store/directory.ts');
      const { copyProject } = await import('../src/store/copy.ts');
      // Everything of a move up to its switch, and no deletion: its worker went away there.
      await beginMove(home(), eu(), projectId, 'eu', 'default');
      await copyProject(env.DB_EU, env.DB, projectId);
      await forwardTo(eu(), projectId, 'default', []);
      await settlePlace(home(), projectId, 'default');
      expect(await rowsIn(eu(), projectId)).toHaveLength(1);
      const done = await ok<{ from: string; to: string }>(
        await api('POST', `/projects/${projectId}/move`, { body: { to: 'default' } }),
      );
      expect(done).toMatchObject({ from: 'eu', to: 'default' });
      expect(await rowsIn(eu(), projectId)).toEqual([]);
      expect(await eu().select().from(projects).where(eq(projects.id, projectId))).toEqual([]);
      expect(await rowsIn(home(), projectId)).toHaveLength(1);
    });

    it('while a move runs, the management API answers the project’s routes 503 with Retry-After', async () => {
      const { projectId } = await euProject();
      const { beginMove, abandonMove } = await import('../src/store/directory.ts');
      await beginMove(home(), eu(), projectId, 'eu', 'default');
      const res = await api('GET', `/projects/${projectId}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toMatch(/^\d+$/);
      await abandonMove(home(), eu(), projectId, 'eu');
      expect((await api('GET', `/projects/${projectId}`)).status).toBe(200);
    });
  });
});
