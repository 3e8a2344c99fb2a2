// C44: what a field shows in the project's JSON Schema (its label as `title`, its help as
// `description`, in the project's default language) and in the module `forms types` makes (a JSDoc
// comment on the member), where no label can end the comment or move the code around it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateModule } from '../../src/fields/generate.ts';
import { submissionJsonSchema } from '../../src/fields/json-schema.ts';
import type { FieldDef } from '../../src/fields/validation.ts';

const DEFS: FieldDef[] = [
  {
    name: 'email',
    type: 'string',
    required: true,
    rules: { format: 'email' },
    label: { en: 'Your email', de: 'Ihre E-Mail-Adresse' },
    help: { en: 'We reply within a day.\nNever shared.', de: 'Wir antworten binnen eines Tages.' },
    placeholder: { en: 'ada@example.com' },
  },
  // Only French: whatever the default language, its one text.
  { name: 'note', type: 'string', required: false, label: { fr: 'Remarque' } },
  // Its help replaces the note on how a file is sent.
  { name: 'cv', type: 'file', required: false, help: { en: 'A PDF, please' } },
  { name: 'plain', type: 'boolean', required: false },
  // A label that tries to end the comment and run code, with a bidirectional override.
  {
    name: 'evil',
    type: 'string',
    required: false,
    label: { en: '*/ export const pwned = true; /* \u202e' },
    help: { en: 'a */ b\n*/ c' },
  },
];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('C44: the JSON Schema titles and describes each field in the default language', () => {
  it("the page's first language, else en, else the first the text has; a file's help replaces its note", () => {
    const schema = submissionJsonSchema(DEFS, 'reject', 'de') as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.properties.email).toEqual({
      type: 'string',
      format: 'email',
      title: 'Ihre E-Mail-Adresse',
      description: 'Wir antworten binnen eines Tages.',
    });
    expect(schema.properties.note).toEqual({ type: 'string', title: 'Remarque' });
    expect(schema.properties.cv).toEqual({ not: {}, description: 'A PDF, please' });
    expect(schema.properties.plain).toEqual({ type: 'boolean' });
    const english = submissionJsonSchema(DEFS, 'reject', 'ja') as typeof schema;
    expect(english.properties.email).toMatchObject({
      title: 'Your email',
      description: 'We reply within a day.\nNever shared.',
    });
    // No language said: English.
    expect(submissionJsonSchema(DEFS, 'reject')).toEqual(english);
    // Without labels, as before.
    expect(submissionJsonSchema([{ name: 'a', type: 'string', required: false }], 'reject')).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      minProperties: 1,
      properties: { a: { type: 'string' } },
      required: [],
      additionalProperties: false,
    });
  });
});

describe("C44: the generated module's JSDoc", () => {
  it('puts the label and help on each member, in the default language', () => {
    const module = generateModule(DEFS, 'reject', { language: 'de' });
    expect(module).toContain(
      [
        'export type Submission = {',
        '  /**',
        '   * Ihre E-Mail-Adresse',
        '   *',
        '   * Wir antworten binnen eines Tages.',
        '   */',
        '  email: string;',
        '  /**',
        '   * Remarque',
        '   */',
        '  note?: string;',
      ].join('\n'),
    );
    expect(module).toContain('  plain?: boolean;');
    expect(generateModule(DEFS, 'reject')).toContain('   * We reply within a day.\n   * Never shared.\n');
  });

  it('no label ends the comment or moves code: the module still runs, its fields as the schema says', async () => {
    const module = generateModule(DEFS, 'reject', { language: 'en' });
    expect(module).toContain(
      [
        '  /**',
        '   * *\\/ export const pwned = true; /* \\u202e',
        '   *',
        '   * a *\\/ b',
        '   * *\\/ c',
        '   */',
        '  evil?: string;',
      ].join('\n'),
    );
    expect(module).not.toContain('\u202e');
    const dir = mkdtempSync(join(tmpdir(), 'forms-types-display-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
    writeFileSync(join(dir, 'types.ts'), module);
    const m = (await import(pathToFileURL(join(dir, 'types.ts')).href)) as Record<string, unknown>;
    expect(Object.keys(m).sort()).toEqual(['fields', 'schema']);
    expect(m.fields).toEqual(submissionJsonSchema(DEFS, 'reject', 'en'));
  });
});
