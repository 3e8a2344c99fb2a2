// C46: a hosted page in steps, as HTML. A page whose fields are on more than one step has each
// step as a fieldset, in the steps' order (the fields of one step in the project's order), its
// title the fieldset's heading: the owner's title in the visitor's language, else "Step 2 of 3".
// With scripts off that is the whole page, every step shown, posting as any page does. The step
// indicator (its text and a progress bar that names it), and the Back and Next buttons, are
// hidden until /widget/steps.js shows one step at a time; that script checks a step's fields by
// the worker's own rules, which the page gives it as data (`#forms-fields`, never run as script).
import { type ControlField, control, escapeHtml, type Shown } from '../fields/form-html.ts';
import { filled, type Words } from './words.ts';

export type SteppedField = { field: ControlField & { step?: number | null | undefined }; shown: Shown };

/** The steps a page's fields are on, in order, each with its fields; one step: no steps. */
export function stepGroups(fields: readonly SteppedField[]): { step: number; fields: SteppedField[] }[] {
  const byStep = new Map<number, SteppedField[]>();
  for (const f of fields) {
    const step = f.field.step ?? 1;
    byStep.set(step, [...(byStep.get(step) ?? []), f]);
  }
  if (byStep.size < 2) return [];
  return Array.from(byStep, ([step, fields]) => ({ step, fields })).sort((a, b) => a.step - b.step);
}

/**
 * C46: the controls of a page in steps: the step indicator, each step's fieldset, the buttons
 * between steps, and the fields' rules as data for the steps' script. `titles` are the page's
 * steps' titles in the visitor's language, by a field's step number (1 at index 0).
 */
export function steppedControls(
  groups: readonly { step: number; fields: readonly SteppedField[] }[],
  titles: readonly (string | undefined)[],
  words: Words,
  draftDays?: number,
): string[] {
  const total = String(groups.length);
  // With partial submissions on, said before anything is kept (the script shows it with the steps),
  // and the link to continue later, which the script fills once a draft is saved.
  const drafts =
    draftDays === undefined
      ? ''
      : `<p class="note" data-drafts="${draftDays}">${escapeHtml(filled(words.draftNote, { days: String(draftDays) }))}</p><p class="note" data-resume hidden>${escapeHtml(words.continueLater)} <a href=""></a></p>`;
  const indicator = `<div data-steps hidden>${drafts}<p id="forms-step-of" data-step-of="${escapeHtml(words.stepOf)}" aria-live="polite"></p><progress max="${total}" value="1" aria-labelledby="forms-step-of"></progress></div>`;
  const fieldsets = groups.map(({ step, fields }, i) => {
    const title = titles[step - 1] ?? filled(words.stepOf, { n: String(i + 1), total });
    const controls = fields.map(({ field, shown }) => control(field, { choose: words.choose, ...shown }));
    return [
      `<fieldset data-step="${i + 1}"><legend><h2 tabindex="-1">${escapeHtml(title)}</h2></legend>`,
      ...controls,
      '</fieldset>',
    ].join('\n');
  });
  const nav = `<div data-step-nav hidden><button type="button" data-step-back>${escapeHtml(words.previous)}</button><button type="button" data-step-next>${escapeHtml(words.next)}</button></div>`;
  const rules = groups.flatMap((g) =>
    g.fields.map(({ field }) => ({
      name: field.name,
      type: field.type,
      required: field.required,
      ...(field.rules ? { rules: field.rules } : {}),
      ...(field.when ? { when: field.when } : {}),
    })),
  );
  // JSON inside HTML: `<` written as an escape, so no text of a rule can end the element.
  const data = `<script type="application/json" id="forms-fields">${JSON.stringify(rules).replace(/</g, '\\u003c')}</script>`;
  return [indicator, ...fieldsets, nav, data];
}

/** The steps' part of the page's style: fieldsets as the form's own grid, `hidden` kept hidden. */
export const STEPS_STYLE =
  'fieldset{border:0;margin:0;padding:0;min-width:0;display:grid;gap:.3rem}legend{padding:0}legend h2{font-size:1.25rem;margin:1rem 0 0}progress{width:100%;accent-color:var(--a)}[data-step-nav]{display:flex;gap:1rem;flex-wrap:wrap}[data-step-nav] button[data-step-back]{background:transparent;color:inherit;border:1px solid var(--ln)}[data-resume]{overflow-wrap:anywhere}[hidden]{display:none!important}';
