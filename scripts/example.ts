// The example project of `npm run dev` (C28, C29, C44): its fields, its form address, and what its
// fields show where their names read badly as words.
import { parseFieldSpec } from '../src/fields/spec.ts';
import type { FieldDef } from '../src/fields/validation.ts';

export const EXAMPLE_ID = 'example';
/** C29: the example project's HTML form address, fixed so that examples/plain.html can name it. */
export const EXAMPLE_FORM_ID = 'f_example';
// C28: a required field and a format rule, so that trying the example shows what rules refuse.
export const EXAMPLE_FIELDS = [
  'name:string:required',
  'email:string:format=email',
  'phone:integer',
  'enquiry:boolean',
  // C44: a box of several lines on the hosted page: `multiline` below.
  'message:string:maxLength=5000',
  'cv:file:maxSize=5MB:accept=application/pdf,image/*',
];
/** C44: what the example's fields show where their names read badly as words ("Cv"). */
const EXAMPLE_LABELS: Record<string, FieldDef['label']> = {
  cv: { en: 'Your CV', de: 'Ihr Lebenslauf' },
  enquiry: { en: 'This is a business enquiry', de: 'Dies ist eine geschäftliche Anfrage' },
};
/** C44: the example's fields whose control takes several lines. */
const EXAMPLE_MULTILINE = new Set(['message']);
export const exampleFields = (): FieldDef[] =>
  EXAMPLE_FIELDS.map(parseFieldSpec).map((f) => {
    const label = EXAMPLE_LABELS[f.name];
    return {
      ...f,
      ...(label === undefined ? {} : { label }),
      ...(EXAMPLE_MULTILINE.has(f.name) ? { multiline: true } : {}),
    };
  });
