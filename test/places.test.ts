// C41: projects in several places (the default database and `eu`, as wrangler.toml declares them):
// placement, routing by key and form address, the queue and the crons per place, each place's
// capacity. Moving a project from one place to another: test/moves.test.ts.
import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveries, directory, projects, submissions, targets } from '../schema/tables.ts';
import { enqueueStored } from '../src/delivery/outbox.ts';
import worker from '../src/index.ts';
import { placeOfKey, placeOfPrefix } from '../src/projects/keys.ts';
import { places } from '../src/store/places.ts';
import { expectEnvelope, fetchWorker, submit } from './helpers.ts';
import { api, newProject, ok, problem } from './manage/helpers.ts';
import { bothPlaces, eu, euProject, FIELDS, home, postForm, rowsIn } from './places.ts';
import { consumeOutbox } from './queue.ts';

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
});
