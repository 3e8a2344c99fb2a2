// C44: the example project of `npm run dev` reads well on its hosted page: its message is a box of
// several lines, and a field whose name reads badly as a word has a label ("Your CV", not "Cv").
import { describe, expect, it } from 'vitest';
import { exampleFields } from '../../scripts/example.ts';
import { control } from '../../src/fields/form-html.ts';

const shown = (name: string, lang = 'en') => {
  const f = exampleFields().find((d) => d.name === name);
  if (f === undefined) throw new Error(`no field ${name}`);
  const label = f.label?.[lang];
  return control(f, label === undefined ? {} : { label });
};

describe('the example project on its hosted page', () => {
  it('asks for the message in several lines', () => {
    expect(shown('message')).toContain('<textarea id="f-message" name="message"');
    expect(shown('name')).toContain('<input id="f-name" name="name" required');
  });

  it('labels its file "Your CV" (and the box a business enquiry), in English and German', () => {
    expect(shown('cv')).toContain('<label for="f-cv">Your CV</label>');
    expect(shown('cv', 'de')).toContain('<label for="f-cv">Ihr Lebenslauf</label>');
    expect(shown('enquiry')).toContain('This is a business enquiry</label>');
  });
});
