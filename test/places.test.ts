// C41: projects in several places (the default database and `eu`, as wrangler.toml declares them):
// placement, routing by key and form address, the queue and the crons per place.
import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveries, directory, projects, submissions, targets } from '../schema/tables.ts';
import { enqueueStored } from '../src/delivery/outbox.ts';
import worker from '../src/index.ts';
import { placeOfKey, placeOfPrefix } from '../src/projects/keys.ts';
import { database } from '../src/store/db.ts';
import { places } from '../src/store/places.ts';
import { expectEnvelope, fetchWorker, submit } from './helpers.ts';
import { api, newProject, ok, problem, upload } from './manage/helpers.ts';
import { consumeOutbox } from './queue.ts';

const home = () => database(env.DB);
const eu = () => database(env.DB_EU);
const rowsIn = async (db: ReturnType<typeof database>, projectId: string) =>
  db.select().from(submissions).where(eq(submissions.projectId, projectId));

const FIELDS = [
  { name: 'email', type: 'string', required: true, rules: { format: 'email' } },
  { name: 'message', type: 'string' },
];
const euProject = () => newProject(FIELDS, { region: 'eu' });

/** C29: an HTML form's fields posted to a form address, answered as JSON. */
const postForm = (url: string, body: string) =>
  fetchWorker(
    new Request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body,
    }),
  );

/** The operations' view of both places, as the worker gives it. */
const bothPlaces = (kind: 'tool' | 'operator') => ({
  db: home(),
  places: new Map([
    ['default', home()],
    ['eu', eu()],
  ]),
  actor: { kind },
});

/** A queue that keeps what is sent to it. */
function recordingQueue() {
  const sent: unknown[] = [];
  const queue = {
    send: async (body: unknown) => void sent.push(body),
    sendBatch: async (batch: { body: unknown }[]) => void sent.push(...batch.map((m) => m.body)),
  } as unknown as Queue;
  return { queue, sent };
}

describe('C41: places', () => {
  it('the places are the bindings DB and DB_<NAME>, each with its own bucket', () => {
    expect(places(env).map((p) => [p.name, p.d1 === env.DB_EU, p.files === env.FILES_EU])).toEqual([
      ['default', false, false],
      ['eu', true, true],
    ]);
  });

  it('a project made in eu lives in the EU database only; its key and form address name the place', async () => {
    const created = await euProject();
    expect(created.apiKey).toMatch(/^edgeform_pk_eu_[0-9A-Za-z]{32}$/);
    expect(created.formId).toMatch(/^f_eu_[a-z2-7]{12}$/);
    expect(placeOfKey(created.apiKey)).toBe('eu');
    expect(await eu().select().from(projects).where(eq(projects.id, created.projectId))).toHaveLength(1);
    expect(await home().select().from(projects).where(eq(projects.id, created.projectId))).toHaveLength(0);
    // The default database knows only where it is.
    expect(await home().select().from(directory).where(eq(directory.projectId, created.projectId))).toEqual([
      { lookup: `p:${created.projectId}`, projectId: created.projectId, place: 'eu', movingTo: null },
    ]);
    // Every view says where it lives.
    const shown = await ok<{ project: { place: string } }>(
      await api('GET', `/projects/${created.projectId}`),
    );
    expect(shown.project.place).toBe('eu');
    const listed = await ok<{ projects: { id: string; place: string }[] }>(await api('GET', '/projects'));
    expect(listed.projects.find((p) => p.id === created.projectId)?.place).toBe('eu');
  });

  it('a project made without a region lives in the default place, with keys as before', async () => {
    const created = await newProject(FIELDS);
    expect(created.apiKey).toMatch(/^edgeform_pk_[0-9A-Za-z]{32}$/);
    expect(placeOfKey(created.apiKey)).toBe('default');
    expect(created.formId).toMatch(/^f_[a-z2-7]{12}$/);
    expect(await home().select().from(directory).where(eq(directory.projectId, created.projectId))).toEqual(
      [],
    );
  });

  it('an unknown place is refused with 400, and nothing is made in any database', async () => {
    const before = [
      (await home().select().from(projects)).length,
      (await eu().select().from(projects)).length,
      (await home().select().from(directory)).length,
    ];
    const res = await api('POST', '/projects', { body: { name: 'Mars', fields: FIELDS, region: 'mars' } });
    expect(await problem(res, 400)).toBe("Unknown place 'mars': this worker's places are 'default', 'eu'");
    expect([
      (await home().select().from(projects)).length,
      (await eu().select().from(projects)).length,
      (await home().select().from(directory)).length,
    ]).toEqual(before);
  });

  it('a submission with an eu key is stored in the EU database, and not in the default one', async () => {
    const { projectId, apiKey } = await euProject();
    await expectEnvelope(
      await submit({ key: apiKey, json: { email: 'a@example.com', message: 'hej' } }),
      201,
    );
    expect((await rowsIn(eu(), projectId)).map((r) => JSON.parse(r.data))).toEqual([
      { email: 'a@example.com', message: 'hej' },
    ]);
    expect(await rowsIn(home(), projectId)).toEqual([]);
  });

  it('an HTML form posted to an eu form address is stored in the EU database', async () => {
    const { projectId, formId } = await euProject();
    const res = await postForm(`https://forms.test/f/${formId}`, 'email=b%40example.com&message=hi');
    expect(res.status).toBe(201);
    expect(await rowsIn(eu(), projectId)).toHaveLength(1);
  });

  it('a key or form address naming a place this worker lacks is refused without a query (401, 404)', async () => {
    const key = `edgeform_pk_mars_${'A'.repeat(32)}`;
    await expectEnvelope(await submit({ key, json: { email: 'a@example.com' } }), 401);
    const res = await postForm('https://forms.test/f/f_mars_abcdefghijkl', 'email=b%40example.com');
    expect(res.status).toBe(404);
  });

  it('a secret key of an eu project reads its submissions (the read API) and manages it', async () => {
    const { projectId, apiKey } = await euProject();
    await expectEnvelope(await submit({ key: apiKey, json: { email: 'c@example.com' } }), 201);
    const secret = await ok<{ key: string }>(
      await api('POST', `/projects/${projectId}/keys`, { body: { kind: 'secret' } }),
      201,
    );
    expect(secret.key).toMatch(/^edgeform_sk_eu_/);
    expect(placeOfPrefix(secret.key.slice(0, 'edgeform_sk_eu_'.length + 8))).toBe('eu');
    const read = await fetchWorker(
      new Request('https://forms.test/api/v1/submissions', {
        headers: { Authorization: `Bearer ${secret.key}` },
      }),
    );
    expect(read.status).toBe(200);
    const body = (await read.json()) as { data: { submissions: { fields: { email: string } }[] } };
    expect(body.data.submissions.map((s) => s.fields.email)).toEqual(['c@example.com']);
    const inbox = await ok<{ submissions: unknown[] }>(
      await api('GET', `/projects/${projectId}/submissions`, { token: secret.key }),
    );
    expect(inbox.submissions).toHaveLength(1);
  });

  it('the queue: a message names its place; the EU project’s deliveries are written in the EU database', async () => {
    const { projectId, apiKey } = await euProject();
    await ok(
      await api('POST', `/projects/${projectId}/webhooks`, { body: { url: 'https://hooks.example.com/x' } }),
      201,
    );
    await expectEnvelope(await submit({ key: apiKey, json: { email: 'd@example.com' } }), 201);
    const [row] = await rowsIn(eu(), projectId);
    // What the submission path sends after its write names the place…
    const { queue, sent } = recordingQueue();
    await enqueueStored(queue, [{ id: row?.id ?? '' }], 'eu');
    await enqueueStored(queue, [{ id: 'default-one' }]);
    expect(sent).toEqual([{ submissionIds: [row?.id], place: 'eu' }, { submissionIds: ['default-one'] }]);
    // …and the consumer writes the deliveries in that place's database.
    await consumeOutbox([row?.id ?? ''], env, 'eu');
    const written = await eu().select().from(deliveries).where(eq(deliveries.projectId, projectId));
    expect(written).toHaveLength(1);
    expect(await home().select().from(deliveries).where(eq(deliveries.projectId, projectId))).toEqual([]);
  });

  it('every minute, each place’s overdue deliveries go to the queue again, naming their place', async () => {
    const { projectId, apiKey } = await euProject();
    await ok(
      await api('POST', `/projects/${projectId}/webhooks`, { body: { url: 'https://hooks.example.com/y' } }),
      201,
    );
    await expectEnvelope(await submit({ key: apiKey, json: { email: 'e@example.com' } }), 201);
    const { queue, sent } = recordingQueue();
    const later = Date.now() + 10 * 60_000;
    await worker.scheduled?.(createScheduledController({ cron: '* * * * *', scheduledTime: later }), {
      ...env,
      DELIVERIES: queue,
    });
    const [hook] = await eu().select().from(targets).where(eq(targets.projectId, projectId));
    const [row] = await rowsIn(eu(), projectId);
    expect(sent).toContainEqual({ deliveryId: `${row?.id}.${hook?.id}`, place: 'eu' });
  });

  it('every hour, retention runs in each place: an EU project’s old submissions leave the EU database', async () => {
    const { projectId, apiKey } = await euProject();
    await ok(await api('PATCH', `/projects/${projectId}`, { body: { retentionDays: 1 } }));
    await expectEnvelope(await submit({ key: apiKey, json: { email: 'f@example.com' } }), 201);
    await worker.scheduled?.(
      createScheduledController({ cron: '7 * * * *', scheduledTime: Date.now() + 3 * 86_400_000 }),
      env,
    );
    expect(await rowsIn(eu(), projectId)).toEqual([]);
  });

  it('every hour, each place forgets its Idempotency-Keys of a day ago, and rolls up its analytics', async () => {
    const { projectId, apiKey } = await euProject();
    const res = await submit({
      key: apiKey,
      json: { email: 'idem@example.com' },
      headers: { 'Idempotency-Key': 'eu-key-1' },
    });
    await expectEnvelope(res, 201);
    await env.DB_EU.prepare(
      "insert into analytics_visitors (project_id, day, visitor, viewed, started, submitted) values (?, '2026-01-01', 'v1', 1, 1, 0)",
    )
      .bind(projectId)
      .run();
    await worker.scheduled?.(
      createScheduledController({ cron: '7 * * * *', scheduledTime: Date.now() + 2 * 86_400_000 }),
      env,
    );
    const [row] = await rowsIn(eu(), projectId);
    expect(row?.idempotencyKey).toBeNull();
    const days = await env.DB_EU.prepare('select views, starts from analytics_days where project_id = ?')
      .bind(projectId)
      .all();
    expect(days.results).toEqual([{ views: 1, starts: 1 }]);
  });

  it('a project id is one project’s across places: the same id in eu is a conflict', async () => {
    const { projectId } = await newProject(FIELDS);
    const { createProject } = await import('../src/ops/projects.ts');
    const m = bothPlaces('tool');
    await expect(createProject(m, { name: 'Twin', fields: [], id: projectId, region: 'eu' })).rejects.toThrow(
      `A project '${projectId}' exists already`,
    );
    expect(await eu().select().from(projects).where(eq(projects.id, projectId))).toEqual([]);
  });

  describe('capacity', () => {
    it('the operator sees each database: its size as D1 reports it, its rows; a key may not', async () => {
      const { apiKey } = await euProject();
      await expectEnvelope(await submit({ key: apiKey, json: { email: 'size@example.com' } }), 201);
      const { places: shown } = await ok<{
        places: {
          name: string;
          bytes: number | null;
          used: number | null;
          warning: null;
          rows: Record<string, number>;
        }[];
      }>(await api('GET', '/places'));
      expect(shown.map((p) => p.name)).toEqual(['default', 'eu']);
      const euShown = shown[1];
      expect(euShown?.rows.submissions).toBe((await eu().select().from(submissions)).length);
      expect(euShown?.rows.projects).toBe((await eu().select().from(projects)).length);
      expect(euShown?.bytes).toBeGreaterThan(0);
      expect(euShown?.warning).toBeNull();
      const secret = await ok<{ key: string }>(
        await api('POST', `/projects/${(await euProject()).projectId}/keys`, { body: { kind: 'secret' } }),
        201,
      );
      expect((await api('GET', '/places', { token: secret.key })).status).toBe(403);
    });

    it('at 80% of the limit, the place is named with what to do', async () => {
      const { listPlaces } = await import('../src/ops/places.ts');
      const m = bothPlaces('operator');
      const [, euPlace] = await listPlaces(m);
      const bytes = euPlace?.bytes ?? 0;
      // A limit just above its size: under 80%, no warning; just below 125% of it: a warning.
      const [, roomy] = await listPlaces(m, Math.ceil(bytes / 0.79));
      expect(roomy?.warning).toBeNull();
      const [, full] = await listPlaces(m, Math.floor(bytes / 0.81));
      expect(full?.warning).toBe(
        `The database of 'eu' is 81% full: add a place and move projects to it (docs/places.md)`,
      );
    });
  });

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

    it('property: any text as a key or a form address names a place or the default, and never throws', async () => {
      const { placeOfForm } = await import('../src/projects/cache.ts');
      const { generateKey, looksLikeKey } = await import('../src/projects/keys.ts');
      fc.assert(
        fc.property(fc.string(), (text) => {
          expect(typeof placeOfKey(text)).toBe('string');
          expect(typeof placeOfForm(text)).toBe('string');
          expect(typeof placeOfPrefix(text)).toBe('string');
        }),
      );
      fc.assert(
        fc.property(
          fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/),
          fc.constantFrom('publishable', 'secret'),
          (place, kind) => {
            fc.pre(place !== 'pk' && place !== 'sk');
            const key = generateKey(kind as 'publishable' | 'secret', place);
            expect(looksLikeKey(key)).toBe(true);
            expect(placeOfKey(key)).toBe(place === 'default' ? 'default' : place);
          },
        ),
      );
    });
  });
});
