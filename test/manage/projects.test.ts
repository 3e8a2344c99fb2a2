// C19, C28, C32: projects, fields, origins and keys over the management API, and the audit log
// that records each change.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { parseFieldSpec } from '../../src/fields/spec.ts';
import { InvalidInput } from '../../src/lib/faults.ts';
import { fetchWorker, submit } from '../helpers.ts';
import { api, BASE, newProject, ok, problem } from './helpers.ts';

type Project = {
  id: string;
  fields: { name: string; type: string; required: boolean; rules?: Record<string, unknown> }[];
  origins: string[];
  turnstile: boolean;
  retentionDays: number | null;
  thankYouUrl: string | null;
  keys: { prefix: string; kind: string; revokedAt: string | null }[];
};
type Entry = { actor: string; action: string; detail: Record<string, unknown> | null };

const auditOf = async (projectId: string) =>
  (await ok<{ entries: Entry[] }>(await api('GET', `/projects/${projectId}/audit`))).entries;

describe('C32: projects', () => {
  it('C32: create over HTTP, then submit with the returned key: 201; the key is shown once', async () => {
    const created = await newProject();
    expect(created.apiKey).toMatch(/^edgeform_pk_/);
    const res = await submit({ key: created.apiKey, json: { email: 'ada@example.com', message: 'Hi' } });
    expect(res.status).toBe(201);
    const { project } = await ok<{ project: Project }>(await api('GET', `/projects/${created.projectId}`));
    expect(project.fields).toEqual([
      { name: 'email', type: 'string', required: true, rules: { format: 'email' } },
      { name: 'message', type: 'string', required: false },
    ]);
    expect(JSON.stringify(project)).not.toContain(created.apiKey);
  });

  it('C32: create takes origins, honeypot, policy, thank-you page and retention, checked as the tool checks them', async () => {
    const created = await ok<{ projectId: string; thankYouUrl: string; retentionDays: number }>(
      await api('POST', '/projects', {
        body: {
          name: 'Full',
          fields: [{ name: 'email', type: 'string' }],
          origins: ['https://example.com'],
          honeypot: 'website',
          unknownFields: 'discard',
          thankYouUrl: 'https://example.com/thanks',
          retentionDays: 30,
        },
      }),
      201,
    );
    expect(created.thankYouUrl).toBe('https://example.com/thanks');
    expect(created.retentionDays).toBe(30);
    const refused = await api('POST', '/projects', {
      body: { name: 'Bad', fields: [{ name: 'a', type: 'string' }], origins: ['example.com'] },
    });
    expect(await problem(refused, 400)).toBe(
      "Invalid origin 'example.com': expected scheme://host[:port], e.g. https://example.com",
    );
  });

  it('C28 + C32: a field with rules as JSON is checked exactly as the tool checks a field spec', async () => {
    const p = await newProject();
    const bad: [unknown, string][] = [
      [{ type: 'string', rules: { maxLength: -1 } }, 'email:string:maxLength=-1'],
      [{ type: 'string', rules: { format: 'phone' } }, 'email:string:format=phone'],
      [{ type: 'integer', rules: { minimum: 5, maximum: 1 } }, 'email:integer:minimum=5:maximum=1'],
    ];
    for (const [json, spec] of bad) {
      let toolSays = '';
      try {
        parseFieldSpec(spec);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidInput);
        toolSays = (error as Error).message;
      }
      const apiSays = await problem(
        await api('PUT', `/projects/${p.projectId}/fields/email`, { body: json }),
        400,
      );
      // The same sentence, but for where: the spec as typed, or the field's name.
      const where = / in (?:field )?'[^']*'/;
      expect(apiSays?.replace(where, '')).toBe(toolSays.replace(where, ''));
      expect(apiSays).toContain("in field 'email'");
    }
  });

  it('C32: PUT a field adds or replaces it; If-None-Match: * only adds, If-Match: * only replaces', async () => {
    const p = await newProject();
    const path = `/projects/${p.projectId}/fields/topic`;
    const body = { type: 'string', rules: { oneOf: ['sales', 'support'] } };
    const added = await ok<{ added: boolean; project: Project }>(await api('PUT', path, { body }));
    expect(added.added).toBe(true);
    expect(added.project.fields.at(-1)).toEqual({
      name: 'topic',
      type: 'string',
      required: false,
      rules: { oneOf: ['sales', 'support'] },
    });
    expect(await problem(await api('PUT', path, { body, headers: { 'If-None-Match': '*' } }), 409)).toMatch(
      /already exists/,
    );
    const replaced = await ok<{ added: boolean }>(
      await api('PUT', path, { body: { type: 'integer' }, headers: { 'If-Match': '*' } }),
    );
    expect(replaced.added).toBe(false);
    expect(
      await problem(
        await api('PUT', `/projects/${p.projectId}/fields/nope`, { body, headers: { 'If-Match': '*' } }),
        404,
      ),
    ).toMatch(/has no field 'nope'/);
    await ok(await api('DELETE', path));
    expect(await problem(await api('DELETE', path), 404)).toMatch(/has no field 'topic'/);
  });

  it('C22 + C32: the Turnstile secret is write-only: neither the reply nor the audit log holds it', async () => {
    const p = await newProject();
    const secret = '0x4AAAAAAAtestsecretvalue000000000';
    const after = await ok<{ project: Project }>(
      await api('PATCH', `/projects/${p.projectId}`, { body: { turnstileSecret: secret, retentionDays: 7 } }),
    );
    expect(after.project.turnstile).toBe(true);
    expect(after.project.retentionDays).toBe(7);
    const entries = await auditOf(p.projectId);
    expect(entries[0]).toMatchObject({
      actor: 'operator',
      action: 'project.update',
      detail: { retentionDays: 7, turnstile: true },
    });
    expect(JSON.stringify(entries)).not.toContain(secret);
    const cleared = await ok<{ project: Project }>(
      await api('PATCH', `/projects/${p.projectId}`, { body: { turnstileSecret: null } }),
    );
    expect(cleared.project.turnstile).toBe(false);
  });

  it('C32: a body that is not what the route takes is 400 naming the member; not JSON 415/400; another method 405 with Allow', async () => {
    const p = await newProject();
    const path = `/projects/${p.projectId}`;
    expect(await problem(await api('PATCH', path, { body: { colour: 'red' } }), 400)).toBe(
      "Unknown member 'colour'",
    );
    expect(await problem(await api('PATCH', path, { body: { retentionDays: 'ten' } }), 400)).toMatch(
      /^Member 'retentionDays': /,
    );
    expect(
      await problem(await api('PATCH', path, { body: {}, headers: { 'Content-Type': 'text/plain' } }), 415),
    ).toMatch(/application\/json/);
    const res = await fetchWorker(
      new Request(`${BASE}/api/v1${path}`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${env.ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        body: '{',
      }),
    );
    expect(await problem(res, 400)).toMatch(/not valid JSON/);
    const put = await api('PUT', path);
    expect(put.status).toBe(405);
    expect(put.headers.get('Allow')).toBe('GET, PATCH, DELETE');
  });

  it('C15 + C32: origins are added normalised, refused twice, removed', async () => {
    const p = await newProject();
    const added = await ok<{ origin: string }>(
      await api('POST', `/projects/${p.projectId}/origins`, { body: { origin: 'https://Example.COM/' } }),
      201,
    );
    expect(added.origin).toBe('https://example.com');
    await problem(
      await api('POST', `/projects/${p.projectId}/origins`, { body: { origin: 'https://example.com' } }),
      409,
    );
    await ok(
      await api('DELETE', `/projects/${p.projectId}/origins/${encodeURIComponent('https://example.com')}`),
    );
    const { project } = await ok<{ project: Project }>(await api('GET', `/projects/${p.projectId}`));
    expect(project.origins).toEqual([]);
  });

  it('C7 + C32: keys: made and shown once, listed by prefix with their last use, revoked', async () => {
    const p = await newProject();
    const made = await ok<{ key: string; prefix: string }>(
      await api('POST', `/projects/${p.projectId}/keys`, { body: { kind: 'publishable' } }),
      201,
    );
    const { keys } = await ok<{ keys: Project['keys'] }>(await api('GET', `/projects/${p.projectId}/keys`));
    expect(keys.map((k) => k.prefix)).toContain(made.prefix);
    expect(JSON.stringify(keys)).not.toContain(made.key);
    // C32: a key's last use is recorded with the submission it stored; an unused key shows none.
    expect((await submit({ key: p.apiKey, json: { email: 'ada@example.com' } })).status).toBe(201);
    const used = await ok<{ keys: { prefix: string; lastUsedAt: string | null }[] }>(
      await api('GET', `/projects/${p.projectId}/keys`),
    );
    expect(
      Date.parse(used.keys.find((k) => p.apiKey.startsWith(k.prefix))?.lastUsedAt ?? ''),
    ).toBeGreaterThan(Date.now() - 60_000);
    expect(used.keys.find((k) => k.prefix === made.prefix)?.lastUsedAt).toBeNull();
    await ok(await api('DELETE', `/projects/${p.projectId}/keys/${made.prefix}`));
    expect(await problem(await api('DELETE', `/projects/${p.projectId}/keys/${made.key}`), 400)).toMatch(
      /not the whole key/,
    );
  });

  it('C25 + C32: deleting a project takes its submissions with it; its audit log keeps the deletion', async () => {
    const p = await newProject();
    await submit({ key: p.apiKey, json: { email: 'ada@example.com' } });
    const deleted = await ok<{ project: Project }>(await api('DELETE', `/projects/${p.projectId}`));
    expect(deleted.project.id).toBe(p.projectId);
    expect(await problem(await api('GET', `/projects/${p.projectId}`), 404)).toBe(
      `Unknown project '${p.projectId}'`,
    );
    const rows = await env.DB.prepare('select count(*) as n from submissions where project_id = ?')
      .bind(p.projectId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
    const log = await env.DB.prepare('select action from audit_log where project_id = ? order by id')
      .bind(p.projectId)
      .all<{ action: string }>();
    expect(log.results.map((r) => r.action)).toEqual(['project.create', 'project.delete']);
  });

  it('C32: the audit log records every change, newest first, with who and what, page by page', async () => {
    const p = await newProject();
    await api('PUT', `/projects/${p.projectId}/fields/topic`, { body: { type: 'string' } });
    await api('POST', `/projects/${p.projectId}/origins`, { body: { origin: 'https://example.com' } });
    await api('POST', `/projects/${p.projectId}/keys`, { body: { kind: 'secret' } });
    await api('POST', `/projects/${p.projectId}/webhooks`, {
      body: { url: 'https://hooks.example.com/x?token=abc' },
    });
    const entries = await auditOf(p.projectId);
    expect(entries.map((e) => e.action)).toEqual([
      'webhook.add',
      'key.create',
      'origin.add',
      'field.define',
      'project.create',
    ]);
    expect(entries.every((e) => e.actor === 'operator')).toBe(true);
    // A URL may carry a token: only its origin is kept.
    expect(entries[0]?.detail).toMatchObject({ origin: 'https://hooks.example.com' });
    expect(JSON.stringify(entries)).not.toContain('token=abc');
    const first = await ok<{ entries: Entry[]; nextCursor: string }>(
      await api('GET', `/projects/${p.projectId}/audit?limit=2`),
    );
    const second = await ok<{ entries: Entry[] }>(
      await api('GET', `/projects/${p.projectId}/audit?limit=2&cursor=${first.nextCursor}`),
    );
    expect([...first.entries, ...second.entries].map((e) => e.action)).toEqual(
      entries.slice(0, 4).map((e) => e.action),
    );
  });
});
