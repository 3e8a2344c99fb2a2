// C45: the widget's second script, /widget/logic.js, built beside widget.js and fetched by it only
// for a page whose form uses what is here: a control with a condition (`data-when`, as
// src/fields/form-html.ts writes it), a hidden field that captures (`data-capture`), or a form
// marked `data-prefill` on a page whose address has a query. Any other page loads none of it
// (widget.ts; its size is tested apart from the widget's).
//
// Conditions: a field whose condition does not hold is hidden (its label, control and help) and its
// control disabled, so that it is neither sent nor required by the browser. The judgement is the
// worker's own `inactiveFields` (src/fields/conditions.ts), over the fields in the form's order
// with the values the widget sends: a checkbox true or false, a number input a number, other text
// as text, an empty control absent. Judged again on every input and change, and after a reset.
// With scripts off nothing is hidden: the worker decides alone.
//
// Prefill: the form's controls filled from the page's query (`?email=ada@example.com`), a
// checkbox checked by true, 1 or on; never a file, a hidden input, a password, or a control the
// form's `data-prefill="a b"` does not list when it lists names. Values are set as DOM
// properties, never as HTML.
//
// Capture: a hidden input's `data-capture` (a campaign's `utm_*`, `referrer`, or `query:<name>`)
// filled from the page's own address and referrer, cut to CAPTURE_MAX characters; one its author
// gave a value keeps it.
import { CAPTURE_MAX } from '../src/fields/capture.ts';
import { type Condition, inactiveFields } from '../src/fields/conditions.ts';

/** A control as the judgement reads it, so that it can be judged (and tested) without a DOM. */
export type Seen = {
  name: string;
  /** Its `type`: `checkbox`, `number`, `radio`, `file`, `select-one`, `text`, `textarea`… */
  type: string;
  value: string;
  checked: boolean;
  /** Disabled by the page's author: not sent, so absent to the conditions after it. */
  disabled?: boolean;
  /** Its `data-when`, as written. */
  when?: string | null;
};

/**
 * A control's value as the widget sends it (widget.ts's `collect`): a checkbox true or false, a
 * number input a number, an unchecked radio or an empty control nothing; a file its name when one
 * is chosen (C45: a file field takes `filled` only).
 */
export function sentValue(c: Seen): unknown {
  if (c.disabled) return undefined;
  if (c.type === 'checkbox') return c.checked;
  if ((c.type === 'radio' && !c.checked) || c.value === '') return undefined;
  return c.type === 'number' || c.type === 'range' ? Number(c.value) : c.value;
}

const conditionOf = (text: string | null | undefined): Condition | undefined => {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Condition;
  } catch {
    return undefined;
  }
};

/**
 * C45: the names of the fields that do not apply, as the worker judges a body: the fields in the
 * form's order (a name's first control), each one's condition from the control that carries it,
 * the values as the widget sends them. A condition that cannot be read hides nothing: the worker
 * still decides.
 */
export function hiddenNames(controls: readonly Seen[]): Set<string> {
  const order = new Set<string>();
  const conditions = new Map<string, Condition>();
  // No prototype: a field may be named `__proto__`.
  const body: Record<string, unknown> = Object.create(null);
  for (const c of controls) {
    const when = conditionOf(c.when);
    if (when !== undefined && !conditions.has(c.name)) conditions.set(c.name, when);
    order.add(c.name);
    const value = sentValue(c);
    if (value !== undefined && !Object.hasOwn(body, c.name)) body[c.name] = value;
  }
  try {
    return inactiveFields(
      Array.from(order, (name) => {
        const when = conditions.get(name);
        return when === undefined ? { name } : { name, when };
      }),
      body,
    );
  } catch {
    return new Set();
  }
}

/** A control the query may fill: shown, and neither a file, a hidden input nor a password. */
export type Fillable = Seen & { shown: boolean };

/**
 * C45: what the page's query fills a control with (a checkbox: checked or not), or undefined for
 * nothing: a name the query does not give, a control not shown or of a kind never filled, a name
 * the form's list (`data-prefill="a b"`) leaves out, a text already typed in.
 */
export function fillOf(
  c: Fillable,
  query: URLSearchParams,
  names: readonly string[],
): string | boolean | undefined {
  const given = query.get(c.name);
  if (given === null || !c.shown || c.disabled) return undefined;
  if (['hidden', 'file', 'password', 'submit', 'button', 'reset', 'image'].includes(c.type)) return undefined;
  if (names.length > 0 && !names.includes(c.name)) return undefined;
  if (c.type === 'checkbox') return /^(true|1|on)$/i.test(given);
  if (c.type === 'radio') return c.value === given;
  return c.value === '' ? given : undefined;
}

/**
 * C45: what a captured field holds on a page at `query` reached from `referrer`: the parameter its
 * source names (`utm_source`, or `query:<name>`'s name), or the referrer; at most CAPTURE_MAX
 * characters; undefined when the page has none.
 */
export function capturedValue(source: string, query: URLSearchParams, referrer: string): string | undefined {
  const value =
    source === 'referrer' ? referrer : query.get(source.startsWith('query:') ? source.slice(6) : source);
  return value ? value.slice(0, CAPTURE_MAX) : undefined;
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The form's named controls, in its order: inputs, lists and text areas. */
const controlsOf = (form: HTMLFormElement): Control[] =>
  Array.from(form.elements).filter(
    (e): e is Control =>
      (e instanceof HTMLInputElement || e instanceof HTMLSelectElement || e instanceof HTMLTextAreaElement) &&
      e.name !== '',
  );

/** The controls this script disabled (a control its author disabled stays so). */
const ours = new WeakSet<Control>();

const seen = (c: Control): Seen => ({
  name: c.name,
  type: c.type,
  value: c.value,
  checked: c instanceof HTMLInputElement && c.checked,
  disabled: c.disabled && !ours.has(c),
  when: c.getAttribute('data-when'),
});

/** C45: each field hidden and disabled, or shown and enabled, as its condition holds. */
function apply(form: HTMLFormElement): void {
  const controls = controlsOf(form);
  const hidden = hiddenNames(controls.map(seen));
  for (const c of controls) {
    const hide = hidden.has(c.name);
    // Required whenever it applies (`data-required`): said so while it is shown.
    if (c.hasAttribute('data-required')) c.setAttribute('aria-required', String(!hide));
    if (hide === ours.has(c) || (hide && c.disabled)) continue;
    if (hide) ours.add(c);
    else ours.delete(c);
    c.disabled = hide;
    // Its labels (by `for`, or wrapping it), its help (`<id>-help`) and a message the widget put
    // beside it: a field that does not apply says nothing.
    const help = c.id === '' ? null : document.getElementById(`${c.id}-help`);
    const notes = form.querySelectorAll<HTMLElement>(`[data-forms-error="${CSS.escape(c.name)}"]`);
    for (const part of [c, ...Array.from(c.labels ?? []), help, ...Array.from(notes)]) {
      if (part) part.hidden = hide;
    }
  }
}

/** C45: the form's controls filled from the page's query, before any condition is judged. */
function prefill(form: HTMLFormElement): void {
  const query = new URLSearchParams(location.search);
  const names = (form.getAttribute('data-prefill') ?? '').split(/\s+/).filter((n) => n !== '');
  for (const c of controlsOf(form)) {
    const shown = !c.closest('[hidden],[aria-hidden="true"]');
    const fill = fillOf({ ...seen(c), shown }, query, names);
    if (typeof fill === 'boolean') (c as HTMLInputElement).checked = fill;
    else if (fill === undefined) continue;
    else if (c instanceof HTMLSelectElement) {
      // Only one of its choices: anything else would leave the list showing nothing.
      if (Array.from(c.options).some((o) => o.value === fill)) c.value = fill;
    } else c.value = fill;
  }
}

/** C45: the form's captured fields filled, unless their author gave them a value. */
function capture(form: HTMLFormElement): void {
  const query = new URLSearchParams(location.search);
  for (const c of Array.from(form.querySelectorAll<HTMLInputElement>('input[data-capture]'))) {
    const value = capturedValue(c.dataset.capture ?? '', query, document.referrer);
    if (c.value === '' && value !== undefined) {
      // Kept as written when the widget resets the form after a send (reset restores the attribute).
      c.defaultValue = value;
      c.value = value;
    }
  }
}

function setUp(form: HTMLFormElement): void {
  capture(form);
  if (form.hasAttribute('data-prefill')) prefill(form);
  if (!form.querySelector('[data-when]')) return;
  // The page's style marks a field required when it applies (`*`) once this script judges them.
  form.setAttribute('data-logic', '');
  const judge = () => apply(form);
  form.addEventListener('input', judge);
  form.addEventListener('change', judge);
  // A reset (the widget's, after a form is sent) changes the values once its event has run.
  form.addEventListener('reset', () => setTimeout(judge));
  judge();
}

if (typeof document !== 'undefined') {
  for (const form of Array.from(document.forms)) setUp(form);
}
