// `forms project …`: create, list, show, change and delete projects; spam settings, retention, form addresses; help and usage, end to end against a temporary local database.

import { describe, expect, it } from 'vitest';
import { displayPrefix, hashKey } from '../../src/projects/keys.ts';
import { findProjectByKeyHash, insertSubmission } from '../../src/store/intake.ts';
import { insertProject } from '../../src/store/projects.ts';
import { inProcess, snapshot, toolOnTemp } from './helpers.ts';

const tool = toolOnTemp('project');
const { forms, json, expectRefused, newProject } = tool;

describe('project create', () => {
  it('creates the project, its fields, origins and policy, and prints its first key once', async () => {
    const created = await json<{ projectId: string; apiKey: string }>(
      'project',
      'create',
      'Contact',
      '--field',
      'name:string',
      '--field',
      'email:string:required',
      '--field',
      'age:integer',
      '--origin',
      'https://shop.example',
      '--unknown-fields',
      'discard',
    );
    expect(created.projectId).toMatch(/^p_[a-z2-7]{12}$/);
    expect(created.apiKey).toMatch(/^edgeform_pk_[0-9A-Za-z]{32}$/);
    const config = await findProjectByKeyHash(tool.database.db.$client, await hashKey(created.apiKey));
    expect(config).toEqual({
      id: created.projectId,
      keyKind: 'publishable',
      unknownFields: 'discard',
      fields: [
        { name: 'name', type: 'string', required: false },
        { name: 'email', type: 'string', required: true },
        { name: 'age', type: 'integer', required: false },
      ],
      origins: ['https://shop.example'],
      hasTargets: false,
      honeypot: null,
      turnstileSecret: null,
      thankYouUrl: null,
      proofOfWork: false,
      opensAt: null,
      closesAt: null,
      partialsKeepDays: null,
    });
  });

  it('prints readable text without --json, the key among it', async () => {
    const result = await forms('project', 'create', 'Plain', '--field', 'x:boolean');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Created project p_\w+ "Plain" with 1 field\(s\), in the place 'default'\.\nAPI key .*: edgeform_pk_\w{32}\nHTML form address \(no key needed\): POST \/f\/f_\w{12}\n$/,
    );
  });

  it.each([
    [
      ['project', 'create', 'X', '--field', 'name'],
      /Malformed field spec 'name': expected <name>:<type>\[:required\]/,
    ],
    [['project', 'create', 'X', '--field', 'name:string:optional'], /Malformed field spec/],
    [['project', 'create', 'X', '--field', ':string'], /Malformed field spec/],
    [['project', 'create', 'X', '--field', 'first name:string'], /Malformed field spec/],
    [['project', 'create', 'X', '--field', 'age:float'], /Unknown field type 'float' in 'age:float'/],
    [['project', 'create', 'X', '--field', 'a:string', '--field', 'a:integer'], /Field 'a' is given twice/],
    [['project', 'create', 'X', '--origin', 'shop.example'], /Invalid origin 'shop.example'/],
    [['project', 'create', 'X', '--unknown-fields', 'keep'], /Unknown policy 'keep'/],
    [['project', 'create', ' '], /A project needs a name/],
  ])('refuses %j', async (argv, message) => {
    await expectRefused(argv, message);
  });
});

describe('project list / show / delete', () => {
  it('list gives id, name and the numbers of fields, keys and submissions', async () => {
    const p = await newProject('--field', 'phone:integer');
    await forms('key', 'create', p.projectId);
    for (const i of [1, 2, 3]) {
      await insertSubmission(tool.database.db.$client, {
        id: `00000000-0000-7000-8000-00000000000${i}`,
        projectId: p.projectId,
        data: '{"name":"x"}',
        receivedAt: new Date().toISOString(),
      });
    }
    const { projects } = await json<{ projects: Record<string, unknown>[] }>('project', 'list');
    expect(projects.find((row) => row.id === p.projectId)).toMatchObject({
      id: p.projectId,
      name: 'Contact',
      fields: 2,
      keys: 2,
      submissions: 3,
    });
    const text = await forms('project', 'list');
    expect(text.stdout).toMatch(new RegExp(`${p.projectId}\\s+Contact\\s+default\\s+2\\s+2\\s+3`));
  });

  it('show lists fields, origins, policy and keys, but never a key itself', async () => {
    const p = await newProject('--field', 'ok:boolean:required', '--origin', 'http://localhost:5173');
    const shown = await json('project', 'show', p.projectId);
    expect(shown).toMatchObject({
      id: p.projectId,
      name: 'Contact',
      unknownFields: 'reject',
      fields: [
        { name: 'name', type: 'string', required: false },
        { name: 'ok', type: 'boolean', required: true },
      ],
      origins: ['http://localhost:5173'],
      keys: [{ prefix: displayPrefix(p.apiKey), kind: 'publishable', revokedAt: null }],
    });
    const text = await forms('project', 'show', p.projectId);
    expect(text.stdout).toContain('ok: boolean (required)');
    for (const out of [JSON.stringify(shown), text.stdout]) expect(out).not.toContain(p.apiKey);
  });

  it('delete --yes removes the project and everything it owns', async () => {
    const p = await newProject('--origin', 'https://a.example');
    await insertSubmission(tool.database.db.$client, {
      id: '00000000-0000-7000-8000-0000000000ff',
      projectId: p.projectId,
      data: '{}',
      receivedAt: new Date().toISOString(),
    });
    expect(await json('project', 'delete', p.projectId, '--yes')).toEqual({ deleted: p.projectId });
    const dump = await snapshot(tool.database);
    expect(dump).not.toContain(p.projectId);
    expect(await findProjectByKeyHash(tool.database.db.$client, await hashKey(p.apiKey))).toBeUndefined();
  });

  it('refuses delete without --yes, and unknown projects everywhere', async () => {
    const p = await newProject();
    await expectRefused(['project', 'delete', p.projectId], /Refusing to delete project '.*' without --yes/);
    for (const argv of [
      ['project', 'show', 'p_nope'],
      ['project', 'delete', 'p_nope', '--yes'],
      ['field', 'add', 'p_nope', 'a:string'],
      ['field', 'remove', 'p_nope', 'a'],
      ['origin', 'add', 'p_nope', 'https://a.example'],
      ['origin', 'remove', 'p_nope', 'https://a.example'],
      ['key', 'create', 'p_nope'],
      ['key', 'revoke', 'p_nope', 'edgeform_x'],
      ['key', 'list', 'p_nope'],
      ['submissions', 'export', 'p_nope'],
    ]) {
      await expectRefused(argv, /Unknown project 'p_nope'/);
    }
  });
});

describe('spam settings (C22)', () => {
  const SECRET = '0x4AAAAAAAtest-secret';

  it('project create --honeypot --turnstile: the secret from standard input is stored, never printed back', async () => {
    const created = await inProcess(tool.database, { stdin: `${SECRET}\n` })(
      'project',
      'create',
      'Contact',
      '--field',
      'name:string',
      '--honeypot',
      'website',
      '--turnstile',
      '--json',
    );
    expect(created.code).toBe(0);
    expect(created.stdout).not.toContain(SECRET);
    const { projectId, apiKey, honeypot, turnstile } = JSON.parse(created.stdout);
    expect({ honeypot, turnstile }).toEqual({ honeypot: 'website', turnstile: true });
    const config = await findProjectByKeyHash(tool.database.db.$client, await hashKey(apiKey));
    expect(config).toMatchObject({ honeypot: 'website', turnstileSecret: SECRET });
    const shown = await forms('project', 'show', projectId);
    expect(shown.stdout).toContain('Honeypot: website');
    expect(shown.stdout).toContain('Turnstile: required (secret set)');
    expect(shown.stdout).not.toContain(SECRET);
    const shownJson = await json('project', 'show', projectId);
    expect(shownJson).toMatchObject({ honeypot: 'website', turnstile: true });
    expect(JSON.stringify(shownJson)).not.toContain(SECRET);
  });

  it('project set --turnstile takes the secret from TURNSTILE_SECRET; the --no- forms clear the settings', async () => {
    const { projectId, apiKey } = await newProject();
    const config = async () => findProjectByKeyHash(tool.database.db.$client, await hashKey(apiKey));
    const withEnv = inProcess(tool.database, { env: { TURNSTILE_SECRET: SECRET } });
    const set = await withEnv('project', 'set', projectId, '--honeypot', 'url', '--turnstile', '--json');
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({
      projectId,
      unknownFields: 'reject',
      honeypot: 'url',
      turnstile: true,
      retentionDays: null,
      replyToField: null,
      thankYouUrl: null,
    });
    expect(await config()).toMatchObject({
      honeypot: 'url',
      turnstileSecret: SECRET,
      unknownFields: 'reject',
    });
    await json('project', 'set', projectId, '--no-honeypot', '--no-turnstile', '--unknown-fields', 'discard');
    expect(await config()).toMatchObject({ honeypot: null, turnstileSecret: null, unknownFields: 'discard' });
  });

  it('a secret given as an argument is refused, and nothing changes', async () => {
    const { projectId } = await newProject();
    await expectRefused(
      ['project', 'set', projectId, '--turnstile-secret', SECRET],
      /never given as an argument.*--turnstile/,
    );
    await expectRefused(
      ['project', 'create', 'X', '--field', 'a:string', '--turnstile-secret', SECRET],
      /never given as an argument/,
    );
  });

  it('refuses a honeypot that is a field, a field named as the honeypot or the Turnstile token, and empty changes', async () => {
    const { projectId } = await newProject('--honeypot', 'website');
    await expectRefused(
      ['project', 'create', 'X', '--field', 'website:string', '--honeypot', 'website'],
      /honeypot 'website' cannot be one of the project's fields/,
    );
    await expectRefused(['field', 'add', projectId, 'website:string'], /is the honeypot/);
    await expectRefused(
      ['field', 'add', projectId, 'cf-turnstile-response:string'],
      /reserved for the Turnstile token/,
    );
    await expectRefused(
      ['project', 'set', projectId, '--honeypot', 'name'],
      /cannot be one of the project's fields/,
    );
    await expectRefused(['project', 'set', projectId], /Nothing to change/);
    const spaced = await inProcess(tool.database, { stdin: 'has space\n' })(
      'project',
      'set',
      projectId,
      '--turnstile',
    );
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toMatch(/Invalid Turnstile secret/);
    const empty = await inProcess(tool.database, { stdin: '' })('project', 'set', projectId, '--turnstile');
    expect(empty.code).toBe(2);
    await expectRefused(['project', 'set', 'p_nosuchproject', '--no-honeypot'], /Unknown project/);
  });
});

describe('atomicity', () => {
  it('a project whose batch fails leaves nothing behind', async () => {
    const before = await snapshot(tool.database);
    await expect(
      // The store's one write of a project and its key, given a definition D1 refuses half-way.
      insertProject(
        tool.database.db,
        {
          name: 'Half',
          fields: [
            { name: 'a', type: 'string', required: false },
            { name: 'a', type: 'integer', required: false },
          ],
        },
        { keyHash: 'f'.repeat(64), displayPrefix: 'edgeform_pk_half', kind: 'publishable' },
      ),
    ).rejects.toThrow();
    expect(await snapshot(tool.database)).toBe(before);
  });
});

describe('help and usage', () => {
  it('--help on every command, exit 0', async () => {
    for (const argv of [
      [],
      ['project'],
      ['project', 'create'],
      ['field', 'add'],
      ['origin', 'remove'],
      ['key', 'revoke'],
      ['submissions', 'export'],
    ]) {
      const result = await forms(...argv, '--help');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: forms/);
    }
  });

  it('an unknown command or a missing argument is exit 2 with one line', async () => {
    await expectRefused(['nope'], /unknown command 'nope'/);
    await expectRefused(['project', 'show'], /missing required argument 'project'/);
    await expectRefused(['project', 'list', '--local', '--remote'], /cannot be used with option '--remote'/);
  });
});

describe('retention (C25)', () => {
  it('C25: project set --retention-days sets the period, project show says it, --no-retention clears it', async () => {
    const p = await newProject();
    expect((await forms('project', 'show', p.projectId)).stdout).toContain('Retention: forever');
    expect(await json('project', 'set', p.projectId, '--retention-days', '30')).toMatchObject({
      retentionDays: 30,
    });
    expect((await json('project', 'show', p.projectId)).retentionDays).toBe(30);
    expect((await forms('project', 'show', p.projectId)).stdout).toContain('Retention: 30 days');
    await json('project', 'set', p.projectId, '--no-retention');
    expect((await json('project', 'show', p.projectId)).retentionDays).toBeNull();
    for (const bad of ['0', '-1', '1.5', 'ten', '36501']) {
      await expectRefused(['project', 'set', p.projectId, '--retention-days', bad], /Invalid retention/);
    }
    await expectRefused(
      ['project', 'set', p.projectId, '--retention-days', '3', '--no-retention'],
      /not both/,
    );
  });
});

describe('HTML forms and files (C29, C30)', () => {
  it('C29: project create prints the form address; project show gives it and the thank-you URL', async () => {
    const created = await forms('project', 'create', 'Site', '--field', 'name:string');
    expect(created.stdout).toMatch(/\nHTML form address \(no key needed\): POST \/f\/f_[a-z2-7]{12}\n$/);
    const { projectId, formId } = await json<{ projectId: string; formId: string }>(
      'project',
      'create',
      'Site',
      '--field',
      'name:string',
      '--origin',
      'https://shop.example',
    );
    expect(formId).toMatch(/^f_[a-z2-7]{12}$/);
    const shown = await json<{ formId: string; thankYouUrl: string | null }>('project', 'show', projectId);
    expect(shown).toMatchObject({ formId, thankYouUrl: null });
    const set = await json<{ thankYouUrl: string }>(
      'project',
      'set',
      projectId,
      '--thank-you-url',
      'https://shop.example/thanks',
    );
    expect(set.thankYouUrl).toBe('https://shop.example/thanks');
    expect((await forms('project', 'show', projectId)).stdout).toContain(
      `HTML form address: POST /f/${formId}\nThank-you URL: https://shop.example/thanks`,
    );
    await expectRefused(
      ['project', 'set', projectId, '--thank-you-url', 'https://evil.example/'],
      /must be on one of the project's allowed origins \(https:\/\/shop\.example\)/,
    );
    await expectRefused(
      ['project', 'set', projectId, '--thank-you-url', 'javascript:alert(1)'],
      /Invalid thank-you URL/,
    );
    expect(
      (await json<{ thankYouUrl: null }>('project', 'set', projectId, '--no-thank-you-url')).thankYouUrl,
    ).toBeNull();
  });

  it('C30: a file field takes maxSize and accept; project show lists them', async () => {
    const { projectId } = await json<{ projectId: string }>(
      'project',
      'create',
      'Files',
      '--field',
      'cv:file:required:maxSize=5MB:accept=application/pdf,image/*',
      '--field',
      'photo:file:maxSize=1.5MiB',
    );
    const shown = await json<{ fields: unknown[] }>('project', 'show', projectId);
    expect(shown.fields).toEqual([
      {
        name: 'cv',
        type: 'file',
        required: true,
        rules: { maxSize: 5_000_000, accept: ['application/pdf', 'image/*'] },
      },
      { name: 'photo', type: 'file', required: false, rules: { maxSize: 1_572_864 } },
    ]);
  });

  it.each([
    ['cv:file:maxSize=0', /Invalid maxSize '0'/],
    ['cv:file:maxSize=5 parsecs', /Invalid maxSize/],
    ['cv:file:accept=pdf', /Invalid accept 'pdf'/],
    ['cv:file:accept=', /Invalid accept/],
    ['cv:file:maxLength=3', /does not fit type file/],
    ['name:string:maxSize=3', /does not fit type string/],
  ])('C30: %s → exit 2 with one line saying which', async (spec, message) => {
    await expectRefused(['project', 'create', 'X', '--field', spec], message);
  });
});
