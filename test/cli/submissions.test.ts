// `forms submissions …`: export (JSON lines, CSV) and erasure (C25), end to end against a temporary local database.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { submissions } from '../../schema/tables.ts';
import { insertSubmission, insertSubmissions } from '../../src/store/intake.ts';
import { toolOnTemp } from './helpers.ts';

const tool = toolOnTemp('submissions');
const { forms, json, expectRefused, newProject } = tool;

const IDS = [
  '019b76da-a800-7000-8000-000000000000',
  '019c167f-cc00-7000-8000-000000000001',
  '019ca6b1-dc00-7000-8000-000000000002',
];

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
      await insertSubmission(tool.database.db.$client, {
        // C17: an id is made from the clock that stamps received_at.
        id: IDS[i] as string,
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
        id: '019b76da-a800-7000-8000-000000000000',
        receivedAt: '2026-01-01T00:00:00.000Z',
        fields: { name: 'Ada', n: 1.5, ok: true },
      },
      {
        id: '019c167f-cc00-7000-8000-000000000001',
        receivedAt: '2026-02-01T00:00:00.000Z',
        fields: { name: 'Quote "me", please', note: 'line 1\nline 2' },
      },
      {
        id: '019ca6b1-dc00-7000-8000-000000000002',
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
        '019b76da-a800-7000-8000-000000000000,2026-01-01T00:00:00.000Z,Ada,,1.5,true',
        '019c167f-cc00-7000-8000-000000000001,2026-02-01T00:00:00.000Z,"Quote ""me"", please","line 1\nline 2",,',
        `019ca6b1-dc00-7000-8000-000000000002,2026-03-01T00:00:00.000Z,"'=HYPERLINK(""http://evil"")",,,false`,
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
    for (let i = 0; i < rows.length; i += 100)
      await insertSubmissions(tool.database.db.$client, rows.slice(i, i + 100));
    const result = await forms('submissions', 'export', big.projectId, '--format', 'csv');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2501);
    expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(rows.map((_, i) => `n${i}`));
    const count = await tool.database.db.$count(submissions, eq(submissions.projectId, big.projectId));
    expect(count).toBe(2500);
  });
});

describe('spam settings (C22)', () => {
  const _SECRET = '0x4AAAAAAAtest-secret';

  it('submissions export leaves spam out unless --include-spam, which marks each row', async () => {
    const { projectId } = await newProject('--honeypot', 'website');
    const at = '2026-11-22T10:00:00.000Z';
    await insertSubmission(tool.database.db.$client, {
      id: '01a00000-0000-7000-8000-000000000001',
      projectId,
      data: '{"name":"person"}',
      receivedAt: at,
    });
    await insertSubmission(tool.database.db.$client, {
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
      // C39: the spam filter's score and reason beside the spam column (none: never judged here).
      'id,received_at,spam,spam_score,spam_reason,name',
      `01a00000-0000-7000-8000-000000000001,${at},false,,,person`,
      `01a00000-0000-7000-8000-000000000002,${at},true,,,bot`,
    ]);
  });
});

describe('submissions erase (C25)', () => {
  it('C25: submissions erase deletes exactly the matching submissions of the project and says how many', async () => {
    const p = await newProject();
    const other = await newProject();
    const row = (projectId: string, n: number, data: unknown) => ({
      id: `019a0000-0000-7000-8000-${String(n).padStart(12, '0')}`,
      projectId,
      data: JSON.stringify(data),
      receivedAt: '2026-11-22T10:00:00.000Z',
    });
    await insertSubmissions(tool.database.db.$client, [
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
    const left = await tool.database.db
      .select()
      .from(submissions)
      .where(eq(submissions.projectId, p.projectId));
    expect(left.map((r) => JSON.parse(r.data))).toEqual([{ email: 'grace@example.com' }]);
    expect(await tool.database.db.$count(submissions, eq(submissions.projectId, other.projectId))).toBe(1);
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
      tool.database.db.$client,
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
