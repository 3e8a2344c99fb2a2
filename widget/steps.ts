// C46: a hosted page in steps, one step at a time: the widget's third script, /widget/steps.js,
// named by the hosted page only when its fields are on more than one step. The page's markup
// (src/pages/steps.ts) has every step as a fieldset, its title the fieldset's heading, and the
// progress and the Back and Next buttons hidden: with scripts off it is one page that posts as
// any other. This script shows the first step, and on Next checks that step's fields by the
// worker's own rules (src/fields/validation.ts, C45's conditions with them) over the values the
// widget would send, each problem said beside its field in the page's language (the widget's
// catalogue, C43) before it goes on; Back keeps every value. Focus moves to the step's heading.
// Enter in a field before the last step is Next. A pattern rule is left to the worker, which
// judges the whole form when it is sent; a field it refuses then is shown on its step. C46: with
// partial submissions on, the values are saved as a draft after each step (drafts.ts).
import { inactiveFields } from '../src/fields/conditions.ts';
import {
  compileFields,
  type FieldDef,
  requiredProblem,
  type Submission,
  validateSubmission,
} from '../src/fields/validation.ts';
import type { Problem } from '../src/lib/codes.ts';
import { drafts } from './drafts.ts';
import { labelOf, wording } from './i18n.ts';
import { ui } from './notes.ts';

type Collect = (form: HTMLFormElement) => Record<string, unknown>;

/**
 * C46: the problems of one step's fields, as the worker would judge them: every field's value
 * given (a condition may name a field of an earlier step), only those of `names` kept. A file is
 * judged only as there or not (its bytes are the worker's to judge); a pattern is the worker's.
 */
export function stepProblems(
  defs: readonly FieldDef[],
  body: Submission,
  names: ReadonlySet<string>,
  filesChosen: ReadonlySet<string>,
): Problem[] {
  const checked = defs.map((d) => {
    if (d.rules?.pattern === undefined) return d;
    const { pattern: _, ...rules } = d.rules;
    return { ...d, rules };
  });
  const judged = checked.filter((d) => d.type !== 'file');
  const compiled = compileFields(judged, 'discard', undefined, inactiveFields);
  const result = validateSubmission(compiled, body);
  const problems = result.ok ? [] : result.problems.filter((p) => names.has(p.field));
  // The conditions over every field (files included: a condition may ask whether one is chosen).
  const sent: Submission = { ...body };
  for (const name of filesChosen) sent[name] = true;
  const inactive = defs.some((d) => d.when !== undefined) ? inactiveFields(defs, sent) : new Set();
  for (const d of defs) {
    if (
      d.type === 'file' &&
      d.required &&
      names.has(d.name) &&
      !filesChosen.has(d.name) &&
      !inactive.has(d.name)
    )
      problems.push(requiredProblem(d.name));
  }
  return problems;
}

/** The names of a fieldset's controls. */
const namesIn = (step: Element) =>
  new Set(
    Array.from(
      step.querySelectorAll<HTMLInputElement>('input[name],select[name],textarea[name]'),
      (c) => c.name,
    ),
  );

function setUp(form: HTMLFormElement, defs: readonly FieldDef[], collect: Collect): void {
  const steps = Array.from(form.querySelectorAll<HTMLFieldSetElement>('fieldset[data-step]'));
  const progress = form.querySelector<HTMLElement>('[data-steps]');
  const stepOf = form.querySelector<HTMLElement>('[data-step-of]');
  const bar = form.querySelector<HTMLProgressElement>('progress');
  const nav = form.querySelector<HTMLElement>('[data-step-nav]');
  const back = form.querySelector<HTMLButtonElement>('[data-step-back]');
  const next = form.querySelector<HTMLButtonElement>('[data-step-next]');
  const sends = Array.from(form.querySelectorAll<HTMLButtonElement>('button[type=submit]'));
  if (steps.length < 2 || !progress || !stepOf || !bar || !nav || !back || !next) return;
  const view = ui(form);
  const base = new URL(import.meta.url).origin;
  const last = steps.length - 1;
  let at = 0;
  let busy = false;
  // C46: partial submissions, when the page says it keeps drafts.
  const formId = /\/f\/(f_[a-z0-9]+)$/.exec(new URL(form.action).pathname)?.[1];
  const keeper =
    form.querySelector('[data-drafts]') && formId !== undefined ? drafts(form, base, formId) : undefined;

  const show = (index: number, focus: boolean) => {
    at = index;
    steps.forEach((step, i) => {
      step.hidden = i !== index;
    });
    stepOf.textContent = (stepOf.dataset.stepOf ?? '')
      .replace('{n}', String(index + 1))
      .replace('{total}', String(steps.length));
    bar.value = index + 1;
    back.hidden = index === 0;
    next.hidden = index === last;
    for (const send of sends) send.hidden = index !== last;
    if (focus) steps[index]?.querySelector<HTMLElement>('[tabindex="-1"]')?.focus();
  };

  const forward = async () => {
    const step = steps[at];
    if (!step) return;
    const names = namesIn(step);
    const chosen = new Set(
      Array.from(form.querySelectorAll<HTMLInputElement>('input[type=file][name]'))
        .filter((f) => !f.disabled && (f.files?.length ?? 0) > 0)
        .map((f) => f.name),
    );
    const values = collect(form);
    const problems = stepProblems(defs, values, names, chosen);
    view.clear();
    if (problems.length === 0) {
      // C46: the draft saved before the next step shows, so that no save comes after the send.
      if (keeper) {
        busy = true;
        next.setAttribute('aria-busy', 'true');
        await keeper.save(at + 2, values).finally(() => {
          busy = false;
          next.removeAttribute('aria-busy');
        });
      }
      show(at + 1, true);
      return;
    }
    const say = await wording(form, base);
    for (const p of problems) {
      view.fieldError(p.field, say(p.code, p.params, labelOf(form, p.field)) ?? p.message);
    }
    form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  };

  const go = () => {
    if (!busy) void forward();
  };
  next.addEventListener('click', go);
  back.addEventListener('click', () => {
    view.clear();
    show(at - 1, true);
  });
  // Enter in a field before the last step goes on, as Next does; it never sends the form half filled.
  // A listener of the capturing phase runs before the widget's own.
  form.addEventListener(
    'submit',
    (event) => {
      if (at === last) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      go();
    },
    true,
  );
  // The worker refused a field when the whole form was sent: its step is shown, the field's
  // message beside it.
  form.addEventListener('forms:error', (event) => {
    const issues = (event as CustomEvent<{ issues?: { field?: string }[] }>).detail.issues ?? [];
    const index = steps.findIndex((step) => {
      const names = namesIn(step);
      return issues.some((i) => i.field !== undefined && names.has(i.field));
    });
    if (index !== -1 && index !== at) show(index, false);
  });
  // Sent: the widget has emptied the form; it begins again at the first step (and a new draft).
  form.addEventListener('forms:success', () => {
    keeper?.sent();
    show(0, false);
  });
  progress.hidden = false;
  nav.hidden = false;
  show(0, false);
  // C46: a page opened from its link to continue later: the draft's values, at the step it reached.
  void keeper?.resume().then((step) => {
    if (step !== undefined) show(Math.min(Math.max(step, 1), steps.length) - 1, false);
  });
}

if (typeof document !== 'undefined') {
  const form = document.querySelector<HTMLFormElement>('form[data-endpoint]');
  const data = document.getElementById('forms-fields')?.textContent;
  const collect = (globalThis as { EdgeForms?: { collect?: Collect } }).EdgeForms?.collect;
  if (form && data && collect) setUp(form, JSON.parse(data) as FieldDef[], collect);
}
