// C19: every command of `forms`, end to end against a temporary local database.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submissions } from '../../schema/tables.ts';
import type { Database } from '../../scripts/database.ts';
import { createProject } from '../../src/projects/admin.ts';
import { displayPrefix, hashKey } from '../../src/projects/keys.ts';
import { findProjectByKeyHash } from '../../src/store/projects.ts';
import { insertSubmission, insertSubmissions } from '../../src/store/submissions.ts';
import { inProcess, openTemp, type Result, snapshot } from './helpers.ts';

let database: Database;
let forms: (...argv: string[]) => Promise<Result>;
beforeAll(async () => {
  database = await openTemp('commands');
  forms = inProcess(database);
});
afterAll(async () => {
  await database.close();
});

async function json<T = Record<string, unknown>>(...argv: string[]): Promise<T> {
  const result = await forms(...argv, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

async function newProject(...extra: string[]) {
  return json<{ projectId: string; apiKey: string }>(
    'project',
    'create',
    'Contact',
    '--field',
    'name:string',
    ...extra,
  );
}

/** C19: bad input is one line on stderr, exit status 2, and changes nothing. */
async function expectRefused(argv: string[], message: string | RegExp) {
  const before = await snapshot(database);
  const result = await forms(...argv);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(message);
  expect(await snapshot(database)).toBe(before);
}

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
    const config = await findProjectByKeyHash(database.db, await hashKey(created.apiKey));
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
    });
  });

  it('prints readable text without --json, the key among it', async () => {
    const result = await forms('project', 'create', 'Plain', '--field', 'x:boolean');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Created project p_\w+ "Plain" with 1 field\(s\)\.\nAPI key .*: edgeform_pk_\w{32}\nHTML form address \(no key needed\): POST \/f\/f_\w{12}\n$/,
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
      await insertSubmission(database.db, {
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
    expect(text.stdout).toMatch(new RegExp(`${p.projectId}\\s+Contact\\s+2\\s+2\\s+3`));
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
    await insertSubmission(database.db, {
      id: '00000000-0000-7000-8000-0000000000ff',
      projectId: p.projectId,
      data: '{}',
      receivedAt: new Date().toISOString(),
    });
    expect(await json('project', 'delete', p.projectId, '--yes')).toEqual({ deleted: p.projectId });
    const dump = await snapshot(database);
    expect(dump).not.toContain(p.projectId);
    expect(await findProjectByKeyHash(database.db, await hashKey(p.apiKey))).toBeUndefined();
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

describe('field add / remove', () => {
  it('adds fields after the last one, and removes them', async () => {
    const p = await newProject();
    expect(await json('field', 'add', p.projectId, 'phone:integer:required')).toEqual({
      projectId: p.projectId,
      field: { name: 'phone', type: 'integer', required: true },
    });
    await json('field', 'add', p.projectId, 'ok:boolean');
    const config = await findProjectByKeyHash(database.db, await hashKey(p.apiKey));
    expect(config?.fields.map((f) => f.name)).toEqual(['name', 'phone', 'ok']);
    expect(await json('field', 'remove', p.projectId, 'phone')).toEqual({
      projectId: p.projectId,
      removed: 'phone',
    });
    const after = await findProjectByKeyHash(database.db, await hashKey(p.apiKey));
    expect(after?.fields.map((f) => f.name)).toEqual(['name', 'ok']);
  });

  it('refuses a duplicate, an unknown type, a malformed spec and an unknown field', async () => {
    const p = await newProject();
    await expectRefused(
      ['field', 'add', p.projectId, 'name:integer'],
      /Field 'name' already exists in project/,
    );
    await expectRefused(['field', 'add', p.projectId, 'age:int'], /Unknown field type 'int'/);
    await expectRefused(['field', 'add', p.projectId, 'age'], /Malformed field spec 'age'/);
    await expectRefused(['field', 'remove', p.projectId, 'age'], /has no field 'age'/);
  });
});

describe('origin add / remove', () => {
  it('adds origins normalised as browsers send them, and removes them', async () => {
    const p = await newProject();
    expect(await json('origin', 'add', p.projectId, 'HTTPS://Shop.Example:443/')).toEqual({
      projectId: p.projectId,
      origin: 'https://shop.example',
    });
    await json('origin', 'add', p.projectId, 'http://localhost:8080');
    let config = await findProjectByKeyHash(database.db, await hashKey(p.apiKey));
    expect(config?.origins.sort()).toEqual(['http://localhost:8080', 'https://shop.example']);
    await json('origin', 'remove', p.projectId, 'https://shop.example');
    config = await findProjectByKeyHash(database.db, await hashKey(p.apiKey));
    expect(config?.origins).toEqual(['http://localhost:8080']);
  });

  it.each([
    'shop.example',
    'ftp://shop.example',
    'https://shop.example/path',
    'https://shop.example?x=1',
    'https://shop.example#top',
    'https://user:pass@shop.example',
    'https://',
    'https://exa mple.com',
    '*',
  ])('refuses the origin %s (not scheme://host[:port])', async (origin) => {
    const p = await newProject();
    await expectRefused(['origin', 'add', p.projectId, origin], /Invalid origin/);
  });

  it('refuses a duplicate and the removal of an origin not listed', async () => {
    const p = await newProject('--origin', 'https://a.example');
    await expectRefused(['origin', 'add', p.projectId, 'https://a.example'], /already allowed/);
    await expectRefused(['origin', 'remove', p.projectId, 'https://b.example'], /is not in the list/);
  });
});

describe('key create / list / revoke', () => {
  it('creates further keys, lists them by prefix, and revokes by prefix', async () => {
    const p = await newProject();
    const second = await json<{ projectId: string; apiKey: string }>('key', 'create', p.projectId);
    expect(second.projectId).toBe(p.projectId);
    expect(second.apiKey).not.toBe(p.apiKey);
    const third = await json<{ apiKey: string }>('key', 'create', p.projectId);

    expect(await json('key', 'revoke', p.projectId, displayPrefix(p.apiKey))).toEqual({
      projectId: p.projectId,
      revoked: displayPrefix(p.apiKey),
    });
    // The prefix as `key list` prints it, ellipsis included.
    await json('key', 'revoke', p.projectId, `${displayPrefix(second.apiKey)}…`);

    const { keys } = await json<{ keys: { prefix: string; revokedAt: string | null }[] }>(
      'key',
      'list',
      p.projectId,
    );
    expect(keys.map((k) => [k.prefix, k.revokedAt === null])).toEqual([
      [displayPrefix(p.apiKey), false],
      [displayPrefix(second.apiKey), false],
      [displayPrefix(third.apiKey), true],
    ]);
    for (const revoked of [p.apiKey, second.apiKey]) {
      expect(await findProjectByKeyHash(database.db, await hashKey(revoked))).toBeUndefined();
    }
    expect((await findProjectByKeyHash(database.db, await hashKey(third.apiKey)))?.id).toBe(p.projectId);
    const listed = await forms('key', 'list', p.projectId);
    for (const k of [p.apiKey, second.apiKey, third.apiKey]) expect(listed.stdout).not.toContain(k);
  });

  it('refuses a whole key (it would stay in shell history and logs), a revoked key, an unknown prefix, and a key of another project', async () => {
    const p = await newProject();
    const other = await newProject();
    await expectRefused(['key', 'revoke', p.projectId, p.apiKey], /prefix .* not the whole key/);
    await json('key', 'revoke', p.projectId, displayPrefix(p.apiKey));
    await expectRefused(['key', 'revoke', p.projectId, displayPrefix(p.apiKey)], /is already revoked/);
    await expectRefused(['key', 'revoke', p.projectId, 'edgeform_00000000'], /has no key/);
    await expectRefused(['key', 'revoke', p.projectId, displayPrefix(other.apiKey)], /has no key/);
  });
});

describe('submissions export', () => {
  let p: { projectId: string; apiKey: string };
  beforeAll(async () => {
    p = await newProject('--field', 'note:string', '--field', 'n:number', '--field', 'ok:boolean');
    const rows = [
      { at: '2026-01-01T00:00:00.000Z', data: { name: 'Ada', n: 1.5, ok: true } },
      { at: '2026-02-01T00:00:00.000Z', data: { name: 'Quote "me", please', note: 'line 1\nline 2' } },
      { at: '2026-03-01T00:00:00.000Z', data: { name: '=HYPERLINK("http://evil")', ok: false, gone: 'x' } },
    ];
    for (const [i, row] of rows.entries()) {
      await insertSubmission(database.db, {
        id: `01900000-0000-7000-8000-00000000000${i}`,
        projectId: p.projectId,
        data: JSON.stringify(row.data),
        receivedAt: row.at,
      });
    }
  });

  it('JSON lines: every submission, oldest first, with id, received time and the fields', async () => {
    const result = await forms('submissions', 'export', p.projectId);
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        id: '01900000-0000-7000-8000-000000000000',
        receivedAt: '2026-01-01T00:00:00.000Z',
        fields: { name: 'Ada', n: 1.5, ok: true },
      },
      {
        id: '01900000-0000-7000-8000-000000000001',
        receivedAt: '2026-02-01T00:00:00.000Z',
        fields: { name: 'Quote "me", please', note: 'line 1\nline 2' },
      },
      {
        id: '01900000-0000-7000-8000-000000000002',
        receivedAt: '2026-03-01T00:00:00.000Z',
        fields: { name: '=HYPERLINK("http://evil")', ok: false, gone: 'x' },
      },
    ]);
  });

  it('CSV: RFC 4180, a column per configured field, formulas defused', async () => {
    const result = await forms('submissions', 'export', p.projectId, '--format', 'csv');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'id,received_at,name,note,n,ok',
        '01900000-0000-7000-8000-000000000000,2026-01-01T00:00:00.000Z,Ada,,1.5,true',
        '01900000-0000-7000-8000-000000000001,2026-02-01T00:00:00.000Z,"Quote ""me"", please","line 1\nline 2",,',
        `01900000-0000-7000-8000-000000000002,2026-03-01T00:00:00.000Z,"'=HYPERLINK(""http://evil"")",,,false`,
        '',
      ].join('\n'),
    );
  });

  it('--since keeps submissions received at or after the time', async () => {
    const result = await forms('submissions', 'export', p.projectId, '--since', '2026-02-01T00:00:00Z');
    expect(
      result.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).receivedAt),
    ).toEqual(['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
  });

  it('--json gives one JSON document', async () => {
    const doc = await json<{ projectId: string; submissions: unknown[] }>(
      'submissions',
      'export',
      p.projectId,
    );
    expect(doc.projectId).toBe(p.projectId);
    expect(doc.submissions).toHaveLength(3);
  });

  it('refuses a bad --since, a bad --format, and --json with CSV', async () => {
    await expectRefused(
      ['submissions', 'export', p.projectId, '--since', 'yesterday'],
      /Invalid time 'yesterday'/,
    );
    await expectRefused(
      ['submissions', 'export', p.projectId, '--format', 'xml'],
      /Allowed choices are jsonl, csv/,
    );
    await expectRefused(
      ['submissions', 'export', p.projectId, '--format', 'csv', '--json'],
      /drop --format csv/,
    );
  });

  it('pages through any number of submissions in id order (2,500 rows over 3 pages)', async () => {
    const big = await newProject();
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      id: `01910000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      projectId: big.projectId,
      data: JSON.stringify({ name: `n${i}` }),
      receivedAt: '2026-01-01T00:00:00.000Z',
    }));
    for (let i = 0; i < rows.length; i += 100) await insertSubmissions(database.db, rows.slice(i, i + 100));
    const result = await forms('submissions', 'export', big.projectId, '--format', 'csv');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2501);
    expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(rows.map((_, i) => `n${i}`));
    const count = await database.db.$count(submissions, eq(submissions.projectId, big.projectId));
    expect(count).toBe(2500);
  });
});

describe('spam settings (C22)', () => {
  const SECRET = '0x4AAAAAAAtest-secret';

  it('project create --honeypot --turnstile: the secret from standard input is stored, never printed back', async () => {
    const created = await inProcess(database, { stdin: `${SECRET}\n` })(
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
    const config = await findProjectByKeyHash(database.db, await hashKey(apiKey));
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
    const config = async () => findProjectByKeyHash(database.db, await hashKey(apiKey));
    const withEnv = inProcess(database, { env: { TURNSTILE_SECRET: SECRET } });
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
    const spaced = await inProcess(database, { stdin: 'has space\n' })(
      'project',
      'set',
      projectId,
      '--turnstile',
    );
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toMatch(/Invalid Turnstile secret/);
    const empty = await inProcess(database, { stdin: '' })('project', 'set', projectId, '--turnstile');
    expect(empty.code).toBe(2);
    await expectRefused(['project', 'set', 'p_nosuchproject', '--no-honeypot'], /Unknown project/);
  });

  it('submissions export leaves spam out unless --include-spam, which marks each row', async () => {
    const { projectId } = await newProject('--honeypot', 'website');
    const at = '2026-11-22T10:00:00.000Z';
    await insertSubmission(database.db, {
      id: '01a00000-0000-7000-8000-000000000001',
      projectId,
      data: '{"name":"person"}',
      receivedAt: at,
    });
    await insertSubmission(database.db, {
      id: '01a00000-0000-7000-8000-000000000002',
      projectId,
      data: '{"name":"bot"}',
      receivedAt: at,
      spam: true,
    });
    const plain = await forms('submissions', 'export', projectId);
    expect(
      plain.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).fields.name),
    ).toEqual(['person']);
    const all = await forms('submissions', 'export', projectId, '--include-spam');
    expect(
      all.stdout
        .trimEnd()
        .split('\n')
        .map((l) => [JSON.parse(l).fields.name, JSON.parse(l).spam]),
    ).toEqual([
      ['person', false],
      ['bot', true],
    ]);
    const csv = await forms('submissions', 'export', projectId, '--include-spam', '--format', 'csv');
    expect(csv.stdout.trimEnd().split('\n')).toEqual([
      'id,received_at,spam,name',
      `01a00000-0000-7000-8000-000000000001,${at},false,person`,
      `01a00000-0000-7000-8000-000000000002,${at},true,bot`,
    ]);
  });
});

describe('atomicity', () => {
  it('a project whose batch fails leaves nothing behind', async () => {
    const before = await snapshot(database);
    await expect(
      createProject(database.db, {
        name: 'Half',
        fields: [
          { name: 'a', type: 'string', required: false },
          { name: 'a', type: 'integer', required: false },
        ],
      }),
    ).rejects.toThrow();
    expect(await snapshot(database)).toBe(before);
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

describe('secret keys, retention and erasure (C23, C25)', () => {
  it('C23: key create --secret makes a secret key, printed once with a warning; key list shows each kind', async () => {
    const p = await newProject();
    const secret = await json<{ projectId: string; apiKey: string; kind: string }>(
      'key',
      'create',
      p.projectId,
      '--secret',
    );
    expect(secret).toEqual({
      projectId: p.projectId,
      apiKey: expect.stringMatching(/^edgeform_sk_[0-9A-Za-z]{32}$/),
      kind: 'secret',
    });
    expect((await findProjectByKeyHash(database.db, await hashKey(secret.apiKey)))?.keyKind).toBe('secret');
    const text = await forms('key', 'create', p.projectId, '--secret');
    expect(text.stdout).toMatch(
      /^New secret API key for p_\w+ \(shown once\): edgeform_sk_\w{32}\nKeep it on your server/,
    );
    const { keys } = await json<{ keys: { prefix: string; kind: string }[] }>('key', 'list', p.projectId);
    expect(keys.map((k) => k.kind)).toEqual(['publishable', 'secret', 'secret']);
    expect(keys[1]?.prefix).toBe(displayPrefix(secret.apiKey));
    const listed = await forms('key', 'list', p.projectId);
    expect(listed.stdout).toMatch(/^PREFIX\s+KIND\s+CREATED\s+STATE\n/);
    expect(listed.stdout).toContain(`${displayPrefix(secret.apiKey)}…  secret`);
    expect(listed.stdout).not.toContain(secret.apiKey);
  });

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

  it('C25: submissions erase deletes exactly the matching submissions of the project and says how many', async () => {
    const p = await newProject();
    const other = await newProject();
    const row = (projectId: string, n: number, data: unknown) => ({
      id: `019a0000-0000-7000-8000-${String(n).padStart(12, '0')}`,
      projectId,
      data: JSON.stringify(data),
      receivedAt: '2026-11-22T10:00:00.000Z',
    });
    await insertSubmissions(database.db, [
      row(p.projectId, 1, { email: 'ada@example.com' }),
      row(p.projectId, 2, { email: 'grace@example.com' }),
      row(p.projectId, 3, { email: 'ada@example.com', n: 42 }),
      row(p.projectId, 4, { n: '42' }),
      row(other.projectId, 5, { email: 'ada@example.com' }),
    ]);
    expect(
      await json('submissions', 'erase', p.projectId, '--field', 'email', '--value', 'ada@example.com'),
    ).toEqual({
      projectId: p.projectId,
      field: 'email',
      value: 'ada@example.com',
      erased: 2,
    });
    const text = await forms('submissions', 'erase', p.projectId, '--field', 'n', '--json-value', '42');
    expect(text.stdout).toBe(`Erased 0 submissions of ${p.projectId} whose n is 42.\n`);
    expect((await json('submissions', 'erase', p.projectId, '--field', 'n', '--value', '42')).erased).toBe(1);
    const left = await database.db.select().from(submissions).where(eq(submissions.projectId, p.projectId));
    expect(left.map((r) => JSON.parse(r.data))).toEqual([{ email: 'grace@example.com' }]);
    expect(await database.db.$count(submissions, eq(submissions.projectId, other.projectId))).toBe(1);
    await expectRefused(
      ['submissions', 'erase', p.projectId, '--field', 'email'],
      /--value <text> or --json-value/,
    );
    await expectRefused(
      ['submissions', 'erase', p.projectId, '--field', 'email', '--value', 'a', '--json-value', '1'],
      /one of them/,
    );
    await expectRefused(
      ['submissions', 'erase', p.projectId, '--field', 'n', '--json-value', '{"a":1}'],
      /string, number, boolean or null/,
    );
    await expectRefused(
      ['submissions', 'erase', p.projectId, '--field', 'n', '--json-value', 'nope'],
      /Invalid --json-value/,
    );
  });

  it('C25: submissions erase takes numbers SQLite holds as real although they are whole (1e21, -2.5e25, 1e300)', async () => {
    const p = await newProject();
    const values = [1e21, -2.5e25, 1e300, 1e21];
    await insertSubmissions(
      database.db,
      values.map((n, i) => ({
        id: `019a0000-0000-7000-8000-${String(100 + i).padStart(12, '0')}`,
        projectId: p.projectId,
        data: JSON.stringify({ n }),
        receivedAt: '2026-11-22T10:00:00.000Z',
      })),
    );
    expect(
      (await json('submissions', 'erase', p.projectId, '--field', 'n', '--json-value', '1e21')).erased,
    ).toBe(2);
    expect(
      (await json('submissions', 'erase', p.projectId, '--field', 'n', '--json-value', '-2.5e25')).erased,
    ).toBe(1);
    expect(
      (await json('submissions', 'erase', p.projectId, '--field', 'n', '--json-value', '1e300')).erased,
    ).toBe(1);
  });
});

describe('field rules (C28)', () => {
  it('C28: project create takes rules in the field syntax; project show lists them; the endpoint gets them', async () => {
    const created = await json<{ projectId: string; apiKey: string }>(
      'project',
      'create',
      'Signup',
      '--field',
      'email:string:required:format=email',
      '--field',
      'name:string:minLength=1:maxLength=100',
      '--field',
      'age:integer:min=0:max=150',
      '--field',
      'price:number:min=0.01',
      '--field',
      'topic:string:oneOf=sales|support|other',
      '--field',
      'code:string:pattern=^[A-Z]{3}-[0-9]{4}$',
      '--field',
      'time:string:pattern=^\\d{2}:\\d{2}$',
    );
    const config = await findProjectByKeyHash(database.db, await hashKey(created.apiKey));
    expect(config?.fields).toEqual([
      { name: 'email', type: 'string', required: true, rules: { format: 'email' } },
      { name: 'name', type: 'string', required: false, rules: { minLength: 1, maxLength: 100 } },
      { name: 'age', type: 'integer', required: false, rules: { min: 0, max: 150 } },
      { name: 'price', type: 'number', required: false, rules: { min: 0.01 } },
      { name: 'topic', type: 'string', required: false, rules: { oneOf: ['sales', 'support', 'other'] } },
      { name: 'code', type: 'string', required: false, rules: { pattern: '^[A-Z]{3}-[0-9]{4}$' } },
      // A pattern may hold ':' when it comes last.
      { name: 'time', type: 'string', required: false, rules: { pattern: '^\\d{2}:\\d{2}$' } },
    ]);
    const shown = await forms('project', 'show', created.projectId);
    expect(shown.stdout).toContain('  email: string (required) format=email\n');
    expect(shown.stdout).toContain('  topic: string oneOf=sales|support|other\n');
    expect(shown.stdout).toContain('  age: integer min=0 max=150\n');
    const shownJson = await json<{ fields: unknown[] }>('project', 'show', created.projectId);
    expect(shownJson.fields[0]).toEqual({
      name: 'email',
      type: 'string',
      required: true,
      rules: { format: 'email' },
    });
  });

  it('C28: field set replaces a definition in its place; field add takes rules', async () => {
    const p = await newProject('--field', 'age:integer');
    await json('field', 'set', p.projectId, 'age:integer:required:min=18');
    await json('field', 'add', p.projectId, 'code:string:maxLength=4');
    const config = await findProjectByKeyHash(database.db, await hashKey(p.apiKey));
    expect(config?.fields).toEqual([
      { name: 'name', type: 'string', required: false },
      { name: 'age', type: 'integer', required: true, rules: { min: 18 } },
      { name: 'code', type: 'string', required: false, rules: { maxLength: 4 } },
    ]);
    await json('field', 'set', p.projectId, 'age:number');
    expect((await findProjectByKeyHash(database.db, await hashKey(p.apiKey)))?.fields[1]).toEqual({
      name: 'age',
      type: 'number',
      required: false,
    });
    await expectRefused(['field', 'set', p.projectId, 'nope:string'], /has no field 'nope'/);
  });

  it('C28: project schema prints the fields as JSON Schema with the matching keywords', async () => {
    const p = await newProject(
      '--field',
      'email:string:required:format=email:maxLength=200',
      '--field',
      'age:integer:min=18',
    );
    const result = await forms('project', 'schema', p.projectId);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      minProperties: 1,
      properties: {
        name: { type: 'string' },
        email: { type: 'string', format: 'email', maxLength: 200 },
        age: { type: 'integer', minimum: 18, maximum: Number.MAX_SAFE_INTEGER },
      },
      required: ['email'],
      additionalProperties: false,
    });
  });

  it.each([
    ['age:integer:maxLength=3', /Rule 'maxLength' does not fit type integer/],
    ['ok:boolean:min=1', /does not fit type boolean in 'ok:boolean:min=1': a boolean field takes no rules/],
    ['name:string:min=1', /Rule 'min' does not fit type string/],
    ['age:integer:min=ten', /Invalid min 'ten'/],
    ['age:integer:min=1.5', /an integer field's bounds are integers/],
    ['price:number:max=1e400', /Invalid max '1e400'/],
    ['age:integer:min=5:max=4', /min is above max/],
    ['name:string:minLength=5:maxLength=4', /minLength is above maxLength/],
    ['name:string:maxLength=-1', /Invalid maxLength '-1'/],
    ['name:string:maxLength=1.5', /Invalid maxLength/],
    ['topic:string:oneOf=', /Invalid oneOf/],
    ['topic:string:oneOf=a||b', /Invalid oneOf/],
    ['topic:string:oneOf=a|a', /given twice in oneOf/],
    ['email:string:format=phone', /Unknown format 'phone'/],
    ['email:string:format=email:format=url', /Rule 'format' is given twice/],
    ['name:string:colour=red', /Unknown rule 'colour'/],
    ['name:string:maxLength', /Malformed field spec/],
    ['code:string:pattern=', /Invalid pattern .*1 to 200 characters/],
    ['code:string:pattern=(a)\\1', /Invalid pattern .*RE2/],
    ['code:string:pattern=a(?=b)', /Invalid pattern .*RE2/],
    [`code:string:pattern=${'a'.repeat(201)}`, /1 to 200 characters/],
  ])('C28: %s → exit 2 with one line saying which', async (spec, message) => {
    await expectRefused(['project', 'create', 'X', '--field', spec], message);
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
