// C29: an HTML form's values arrive as text (and, C30, as files); each is converted by its field's
// type before the same validation as the JSON endpoint, so that a form and the equivalent JSON
// body store the same row.
import { DRAFT_FIELD, FILL_FIELD, PASTED_FIELD, WIDGET_TOKEN_FIELD } from '../../fields/catalogue.ts';
import { UploadedFile } from '../../fields/file.ts';
import type { FieldDef } from '../../fields/validation.ts';
import { sha256Hex, sniffType } from '../../files/bytes.ts';
import type { Problem } from '../../lib/codes.ts';

export type FormText = { name: string; value: string };
export type FormFile = { name: string; filename: string; bytes: Uint8Array };
export type FormEntry = FormText | FormFile;

/**
 * C29: form controls, never stored: `_next`, `_error`, `_gotcha`, and any other name from `_`;
 * but the widget's token and fill time (C39) are passed on with the values, for the pipeline to
 * take out as the JSON endpoint does.
 */
export type Controls = { next?: string; error?: string; gotcha?: string };

export const duplicateError = (name: string) => `Field '${name}' was sent more than once`;

/** C39: the widget's controls a plain form carries beside its values (the others beginning `_` are the form's own). */
const WIDGET_CONTROLS: ReadonlySet<string> = new Set([
  WIDGET_TOKEN_FIELD,
  FILL_FIELD,
  PASTED_FIELD,
  DRAFT_FIELD,
]);

const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const TRUE = new Set(['on', 'true', '1']);
const FALSE = new Set(['off', 'false', '0']);
// What HTML calls ASCII whitespace: a number typed with a space around it still converts.
const trim = (text: string) => text.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');

const isFile = (entry: FormEntry): entry is FormFile => 'bytes' in entry;

/**
 * A text's value for a field of this type, or `undefined` when absent. Text that does not convert
 * stays text, so that validation gives the field's type message, as it would for that JSON value.
 */
function convertText(def: FieldDef | undefined, text: string): unknown {
  switch (def?.type) {
    // C29: a control left empty is a field not filled in, as the browser's own checks and the
    // widget take it: an optional one is absent (its rules, an email's format, are not broken by
    // nothing), a required one is missing.
    case 'string':
      return text === '' ? undefined : text;
    case 'integer': {
      const t = trim(text);
      if (t === '') return undefined;
      const n = Number(t);
      return INTEGER.test(t) && Number.isSafeInteger(n) ? n : text;
    }
    case 'number': {
      const t = trim(text);
      if (t === '') return undefined;
      const n = Number(t);
      // -0 is 0, as JSON stores it.
      return DECIMAL.test(t) && Number.isFinite(n) ? n + 0 : text;
    }
    case 'boolean':
      if (TRUE.has(text)) return true;
      if (FALSE.has(text)) return false;
      return text;
    // An empty file input sent as text (a urlencoded form) is no file.
    case 'file':
      return text === '' ? undefined : text;
    default:
      return text;
  }
}

/**
 * A file's name as the person chose it. Browsers escape `"` as `%22` and line breaks as `%0D`/`%0A`
 * in a multipart filename (the HTML Standard's form encoding): `"` comes back, a line break goes.
 */
function fileName(sent: string): string {
  return sent
    .replace(/%22/g, '"')
    .replace(/%0[ad]|\p{Cc}/giu, '')
    .slice(0, 255);
}

/** A file part as the field's value: no file chosen (empty, nameless) is absent. */
async function convertFile(entry: FormFile): Promise<UploadedFile | undefined> {
  if (entry.filename === '' && entry.bytes.length === 0) return undefined;
  return new UploadedFile(
    {
      name: fileName(entry.filename),
      type: await sniffType(entry.bytes),
      size: entry.bytes.length,
      sha256: await sha256Hex(entry.bytes),
    },
    entry.bytes,
  );
}

/**
 * The body to validate, the errors of the form itself (a name sent twice: never a silent choice),
 * and the controls. A boolean field whose checkbox was not sent is false.
 */
export async function convertForm(
  entries: readonly FormEntry[],
  defs: readonly FieldDef[],
): Promise<{ body: Record<string, unknown>; problems: Problem[]; controls: Controls }> {
  const byName = new Map(defs.map((d) => [d.name, d]));
  const seen = new Set<string>();
  // One message per repeated name, found in a set: linear in the number of entries (a body of 1 MiB
  // holds some hundred thousand names).
  const repeated = new Set<string>();
  const controls: Controls = {};
  // A Map, so that `__proto__` or `constructor` are ordinary names (C13).
  const values = new Map<string, unknown>();
  for (const entry of entries) {
    if (seen.has(entry.name)) {
      repeated.add(entry.name);
      continue;
    }
    seen.add(entry.name);
    if (entry.name.startsWith('_') && !WIDGET_CONTROLS.has(entry.name)) {
      if (!isFile(entry)) {
        if (entry.name === '_next') controls.next = entry.value;
        else if (entry.name === '_error') controls.error = entry.value;
        else if (entry.name === '_gotcha') controls.gotcha = entry.value;
      }
      continue;
    }
    const value = isFile(entry) ? await convertFile(entry) : convertText(byName.get(entry.name), entry.value);
    if (value !== undefined) values.set(entry.name, value);
  }
  for (const def of defs) {
    if (def.type === 'boolean' && !seen.has(def.name)) values.set(def.name, false);
  }
  // C43: a file field's second file is one too many; any other name twice, a duplicate.
  const problems = [...repeated].map(
    (name): Problem => ({
      field: name,
      code: byName.get(name)?.type === 'file' ? 'too_many_files' : 'duplicate_field',
      message: duplicateError(name),
    }),
  );
  return { body: Object.fromEntries(values), problems, controls };
}
