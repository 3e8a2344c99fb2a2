// C43: `forms types <project>` prints the project's fields as a TypeScript module (the Submission
// type, its JSON Schema, a Standard Schema validator), end to end against a temporary local
// database; through the management API (`--url`) it prints the same module; a site imports it as
// it is printed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/index.ts';
import { generateModule } from '../../src/fields/generate.ts';
import { tempDir, toolOnTemp } from './helpers.ts';

const tool = toolOnTemp('types');
const { forms, json, expectRefused } = tool;

const SPECS = [
  'email:string:required:format=email:maxLength=200',
  'age:integer:min=18',
  'topic:string:oneOf=sales|support',
  'code:string:pattern=^[A-Z]{3}-[0-9]{4}$',
  '__proto__:boolean',
  'cv:file:maxSize=5MB:accept=application/pdf',
];

async function newProject() {
  const created = await json<{ projectId: string }>(
    'project',
    'create',
    'Typed',
    ...SPECS.flatMap((s) => ['--field', s]),
    '--unknown-fields',
    'discard',
    '--honeypot',
    'website',
  );
  const project = await json<{ fields: Parameters<typeof generateModule>[0] }>(
    'project',
    'show',
    created.projectId,
  );
  return { projectId: created.projectId, fields: project.fields };
}

type Verdict = { value?: Record<string, unknown>; issues?: { message: string; code: string }[] };

describe('forms types', () => {
  it("prints the project's module, as generateModule makes it from the project's fields", async () => {
    const p = await newProject();
    const result = await forms('types', p.projectId);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const expected = generateModule(p.fields, 'discard', { project: p.projectId, honeypot: 'website' });
    expect(result.stdout).toBe(`${expected.trimEnd()}\n`);
    expect(result.stdout).toContain('export type Submission = {\n  email: string;\n  age?: number;');
    expect(result.stdout).toContain('topic?: "sales" | "support";');
  });

  it('prints a module a site imports as it is, whose validator speaks as the worker does', async () => {
    const p = await newProject();
    const file = join(tempDir('types-module'), 'types.ts');
    writeFileSync(file, (await forms('types', p.projectId)).stdout);
    const m = (await import(pathToFileURL(file).href)) as {
      schema: { '~standard': { validate: (v: unknown) => Verdict } };
    };
    const validate = m.schema['~standard'].validate;
    expect(validate({ email: 'ada@example.com', extra: 1, website: '' })).toEqual({
      value: { email: 'ada@example.com' },
    });
    expect(validate({ age: 17, topic: 'other' }).issues?.map((i) => [i.code, i.message])).toEqual([
      ['min', "Field 'age' must be at least 18"],
      ['one_of', "Field 'topic' must be one of: sales, support"],
      ['required', "Field 'email' is required"],
    ]);
  });

  it('--json prints one document: the project and its module', async () => {
    const p = await newProject();
    const doc = await json<{ projectId: string; module: string }>('types', p.projectId);
    expect(doc.projectId).toBe(p.projectId);
    expect(doc.module).toBe(
      generateModule(p.fields, 'discard', { project: p.projectId, honeypot: 'website' }),
    );
  });

  it('C19: an unknown project is one line on stderr, exit status 2', async () => {
    await expectRefused(['types', 'p_nosuchprojec'], /p_nosuchprojec/);
  });

  it('C32: through a worker (--url), the same module, read from the project as the management API shows it', async () => {
    const p = await newProject();
    const local = await forms('types', p.projectId);
    const project = await json('project', 'show', p.projectId);
    const asked: string[] = [];
    // The worker's answer to GET /api/v1/projects/{id}: the project as the same operation shows it.
    const worker = (async (input: RequestInfo | URL) => {
      asked.push(new URL(String(input)).pathname);
      const data = { message: 'Project', project };
      return new Response(JSON.stringify({ data, status: { code: 200, message: 'OK' } }), {
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      });
    }) as typeof fetch;
    let stdout = '';
    let stderr = '';
    const sink = (write: (s: string) => void) =>
      new Writable({
        write(chunk, _encoding, done) {
          write(String(chunk));
          done();
        },
      });
    const code = await main(['--url', 'https://forms.example', 'types', p.projectId], {
      stdout: sink((s) => {
        stdout += s;
      }),
      stderr: sink((s) => {
        stderr += s;
      }),
      stdin: Readable.from([]),
      env: { FORMS_ADMIN_TOKEN: 'x'.repeat(43) },
      fetch: worker,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(asked).toEqual([`/api/v1/projects/${p.projectId}`]);
    expect(stdout).toBe(local.stdout);
  });

  it("C44: the module's members carry their label and help in the project's default language, no `*/` ending the comment", async () => {
    const p = await newProject();
    await json(
      'field',
      'set',
      p.projectId,
      'email:string:required',
      '--label',
      'en=Email */ export const x = 1; /*',
      '--label',
      'de=E-Mail',
      '--help',
      'de=Wir antworten\nbinnen eines Tages',
    );
    await json('page', 'set', p.projectId, '--languages', 'de,en');
    const english = await json('page', 'set', p.projectId, '--languages', 'en');
    expect(english).toMatchObject({ page: { languages: ['en'] } });
    const module = (await forms('types', p.projectId)).stdout;
    // Its help has German alone: that, whatever the default language.
    expect(module).toContain(
      [
        '  /**',
        '   * Email *\\/ export const x = 1; /*',
        '   *',
        '   * Wir antworten',
        '   * binnen eines Tages',
        '   */',
        '  email: string;',
      ].join('\n'),
    );
    await json('page', 'set', p.projectId, '--languages', 'de,en');
    const german = (await forms('types', p.projectId)).stdout;
    expect(german).toContain(
      [
        '  /**',
        '   * E-Mail',
        '   *',
        '   * Wir antworten',
        '   * binnen eines Tages',
        '   */',
        '  email: string;',
      ].join('\n'),
    );
    // The module still runs as printed: the label's `*/` ended nothing.
    for (const text of [module, german]) {
      const file = join(tempDir('types-labels'), 'types.ts');
      writeFileSync(file, text);
      const m = (await import(pathToFileURL(file).href)) as {
        fields: { properties: Record<string, { title?: string }> };
      };
      expect(Object.keys(m).sort()).toEqual(['fields', 'schema']);
      expect(m.fields.properties.email?.title).toBe(
        text === module ? 'Email */ export const x = 1; /*' : 'E-Mail',
      );
    }
    // The project's JSON Schema titles and describes it in the same language.
    const schema = JSON.parse((await forms('project', 'schema', p.projectId)).stdout) as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.properties.email).toMatchObject({
      title: 'E-Mail',
      description: 'Wir antworten\nbinnen eines Tages',
    });
  });
});
