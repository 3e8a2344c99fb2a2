// C33, C44: a form's controls as HTML, made from a project's fields: each with its label and the
// input type and validation attributes its rules allow. The dashboard's ready-to-paste forms and
// the hosted form page make their controls here, so that both ask the same of a visitor as the
// worker checks. Every value from the project is escaped for HTML.
import type { FieldRules, FieldType } from './catalogue.ts';
import type { Condition } from './conditions.ts';

/** A field as a control is made from it. */
export type ControlField = {
  name: string;
  type: FieldType;
  required: boolean;
  rules?: FieldRules | null | undefined;
  /** C44: several lines or one, as its owner said; else more than 200 characters takes several. */
  multiline?: boolean | null | undefined;
  /** C45: when it applies, carried by its control (`data-when`) for the widget to judge. */
  when?: Condition | null | undefined;
  /** C45: where a hidden field's value comes from: never a control a person sees. */
  capture?: string | null | undefined;
};

/**
 * C44: what a control shows, in one language: the words beside it (else made from its name), a
 * hint under it and in it, and a list's first choice.
 */
export type Shown = { label?: string; help?: string; placeholder?: string; choose?: string };

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Text or an attribute value, safe inside HTML. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

/** `Email address` from `email_address`, `emailAddress`, `email-address`. */
export function labelOf(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// The pieces of a pattern that RE2 and a browser read alike: literal characters, escaped
// punctuation, \d and \w (ASCII on both), classes of those, groups, alternation and quantifiers.
// `.`, \s, \b, Unicode classes, flags and lookaround are read differently or not at all by one of
// them, so a pattern that uses them is left to the server.
const SAFE_TOKEN =
  /\\[dDwW]|\\[.^$|?*+()[\]{}\\/-]|\[\^?(?:\\[dDwW]|\\[.^$|?*+()[\]{}\\/-]|[A-Za-z0-9 _@,;:=!#%&'"<>~`](?:-[A-Za-z0-9])?)+\]|\(\?:|[()|]|(?:[?*+]|\{\d+(?:,\d*)?\})\??|[A-Za-z0-9 _@,;:=!#%&'"<>~`/-]/y;

/**
 * The pattern for the `pattern` attribute, when a browser reads it as the server's RE2 does: the
 * server finds the pattern anywhere in the value and a browser matches the whole value, so only a
 * pattern anchored at both ends (`^…$`) means the same to both. Undefined otherwise.
 */
export function browserPattern(pattern: string): string | undefined {
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$')) return undefined;
  const inner = pattern.slice(1, -1);
  // A group's `(?` begins a flag, a lookaround or a name but for `(?:`.
  if (/\(\?(?!:)/.test(inner)) return undefined;
  let at = 0;
  while (at < inner.length) {
    SAFE_TOKEN.lastIndex = at;
    const match = SAFE_TOKEN.exec(inner);
    if (match === null || match.index !== at) return undefined;
    at += match[0].length;
  }
  try {
    // The attribute is compiled with the `v` flag, whole-value: it must compile so.
    new RegExp(`^(?:${inner})$`, 'v');
  } catch {
    return undefined;
  }
  return inner;
}

const INPUT_TYPES: Record<string, string> = { email: 'email', url: 'url', date: 'date' };
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/**
 * One control: its label and its input, select, text area or checkbox, with the attributes its
 * rules allow, and its help (bound by `aria-describedby`) under it. Lines of two spaces' indent.
 * The label names the control by `for` (a checkbox's wraps it) and the help is `<id>-help`, so
 * that a script finds both from the control.
 */
export function control(f: ControlField, shown: Shown = {}): string {
  const name = escapeHtml(f.name);
  const id = `f-${name}`;
  // C45: a captured field is hidden, never shown nor asked of a person; the page fills it.
  if (f.capture !== undefined && f.capture !== null) {
    return `  <input type="hidden" id="${id}" name="${name}" data-capture="${escapeHtml(f.capture)}">`;
  }
  const label = escapeHtml(shown.label ?? labelOf(f.name));
  const rules = f.rules ?? {};
  const attrs: string[] = [`id="${id}"`, `name="${name}"`];
  // C45: the condition as JSON, for the widget to show and hide the field by as the worker judges
  // it; with scripts off nothing reads it, every field is shown and the worker decides: so a field
  // that applies only sometimes is not `required` to the browser, which cannot know when it applies.
  const conditional = f.when !== undefined && f.when !== null;
  if (conditional) attrs.push(`data-when="${escapeHtml(JSON.stringify(f.when))}"`);
  if (f.required && f.type !== 'boolean' && !conditional) attrs.push('required');
  // Required whenever it applies: the widget marks it so (`aria-required`, the page's `*`) while shown.
  if (f.required && f.type !== 'boolean' && conditional) attrs.push('data-required');
  const help =
    shown.help === undefined
      ? ''
      : `\n  <small id="${id}-help" class="help">${escapeHtml(shown.help)}</small>`;
  if (help) attrs.push(`aria-describedby="${id}-help"`);
  // A placeholder where a control shows one: not a box, a file or a list.
  const typed = f.type === 'string' ? rules.oneOf === undefined : f.type === 'integer' || f.type === 'number';
  if (shown.placeholder !== undefined && typed) attrs.push(`placeholder="${escapeHtml(shown.placeholder)}"`);
  if (f.type === 'boolean') {
    return `  <label><input type="checkbox" ${attrs.join(' ')}> ${label}</label>${help}`;
  }
  if (f.type === 'string' && rules.oneOf !== undefined) {
    const options = [
      `<option value="">${escapeHtml(shown.choose ?? 'Choose…')}</option>`,
      ...rules.oneOf.map((o) => `<option>${escapeHtml(o)}</option>`),
    ];
    return `  <label for="${id}">${label}</label>\n  <select ${attrs.join(' ')}>${options.join('')}</select>${help}`;
  }
  if (f.type === 'file') {
    attrs.unshift('type="file"');
    if (rules.accept !== undefined) attrs.push(`accept="${escapeHtml(rules.accept.join(','))}"`);
  } else if (f.type === 'integer' || f.type === 'number') {
    attrs.unshift('type="number"');
    attrs.push(f.type === 'integer' ? 'step="1"' : 'step="any"');
    if (rules.min !== undefined) attrs.push(`min="${rules.min}"`);
    if (rules.max !== undefined) attrs.push(`max="${rules.max}"`);
  } else {
    const type = rules.format === undefined ? undefined : INPUT_TYPES[rules.format];
    if (type !== undefined) attrs.unshift(`type="${type}"`);
    if (rules.format === 'email') attrs.push('autocomplete="email"');
    if (rules.minLength !== undefined) attrs.push(`minlength="${rules.minLength}"`);
    if (rules.maxLength !== undefined) attrs.push(`maxlength="${rules.maxLength}"`);
    const pattern =
      rules.format === 'uuid'
        ? UUID
        : rules.pattern === undefined
          ? undefined
          : browserPattern(rules.pattern);
    if (pattern !== undefined) attrs.push(`pattern="${escapeHtml(pattern)}"`);
    if (f.multiline ?? (rules.maxLength !== undefined && rules.maxLength > 200)) {
      return `  <label for="${id}">${label}</label>\n  <textarea ${attrs.join(' ')} rows="4"></textarea>${help}`;
    }
  }
  return `  <label for="${id}">${label}</label>\n  <input ${attrs.join(' ')}>${help}`;
}

/** C22: the honeypot, out of sight and out of reach of the keyboard, for people to leave empty. */
export function honeypotControl(name: string): string {
  return `  <input name="${escapeHtml(name)}" tabindex="-1" autocomplete="off" aria-hidden="true" hidden>`;
}
