// C33: ready-to-paste forms made from a project's own fields: a plain HTML form for its form address
// (C29) and the widget's form (with a publishable key), each control with the input type and
// validation attributes its rules allow. Every value from the project is escaped for HTML.

import type { FieldRules } from '../src/fields/catalogue.ts';
import type { Project } from './server-types.ts';

export type { FieldRules };
/** What a ready-to-paste form is made from: the project as the API shows it. */
export type EmbedProject = Pick<Project, 'formId' | 'honeypot' | 'turnstile' | 'fields'>;
export type Field = EmbedProject['fields'][number];

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

/** One control: its label and its input, select or checkbox, with the attributes its rules allow. */
function control(f: Field): string {
  const name = escapeHtml(f.name);
  const id = `f-${name}`;
  const label = escapeHtml(labelOf(f.name));
  const rules = f.rules ?? {};
  const attrs: string[] = [`id="${id}"`, `name="${name}"`];
  if (f.required && f.type !== 'boolean') attrs.push('required');
  if (f.type === 'boolean') {
    return `  <label><input type="checkbox" ${attrs.join(' ')}> ${label}</label>`;
  }
  if (f.type === 'string' && rules.oneOf !== undefined) {
    const options = [
      `<option value="">Choose…</option>`,
      ...rules.oneOf.map((o) => `<option>${escapeHtml(o)}</option>`),
    ];
    return `  <label for="${id}">${label}</label>\n  <select ${attrs.join(' ')}>${options.join('')}</select>`;
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
        ? '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}'
        : rules.pattern === undefined
          ? undefined
          : browserPattern(rules.pattern);
    if (pattern !== undefined) attrs.push(`pattern="${escapeHtml(pattern)}"`);
    if (rules.maxLength !== undefined && rules.maxLength > 200) {
      return `  <label for="${id}">${label}</label>\n  <textarea ${attrs.join(' ')} rows="4"></textarea>`;
    }
  }
  return `  <label for="${id}">${label}</label>\n  <input ${attrs.join(' ')}>`;
}

/** C22: the honeypot, out of sight and out of reach of the keyboard, for people to leave empty. */
function honeypot(name: string): string {
  return `  <input name="${escapeHtml(name)}" tabindex="-1" autocomplete="off" aria-hidden="true" hidden>`;
}

/** C22: the honeypot and Turnstile's place in the form, and Turnstile's script after it. */
function guards(project: EmbedProject): { inside: string[]; after: string[] } {
  return {
    inside: [
      ...(project.honeypot === null ? [] : [honeypot(project.honeypot)]),
      ...(project.turnstile
        ? ['  <div class="cf-turnstile" data-sitekey="YOUR_TURNSTILE_SITE_KEY"></div>']
        : []),
    ],
    after: project.turnstile
      ? ['<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>']
      : [],
  };
}

/** C29: the project's form address, and the attributes that post to it (C30: with its files). */
function postsToFormAddress(project: EmbedProject, origin: string): string {
  const files = project.fields.some((f) => f.type === 'file');
  return `method="post" action="${escapeHtml(`${origin}/f/${project.formId ?? ''}`)}"${files ? ' enctype="multipart/form-data"' : ''}`;
}

/** C29: a plain HTML form posting to the project's form address. */
export function plainForm(project: EmbedProject, origin: string): string {
  const { inside, after } = guards(project);
  const lines = [
    `<form ${postsToFormAddress(project, origin)}>`,
    ...project.fields.map(control),
    ...inside,
    '  <button type="submit">Send</button>',
    '</form>',
    ...after,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The widget's form: typed JSON, retried safely, each field's message beside its control. A form
 * with files is sent by the widget as multipart to its `action`, the form address (C30), so such a
 * form has one.
 */
export function widgetForm(project: EmbedProject, origin: string, key: string): string {
  const { inside, after } = guards(project);
  const files = project.fields.some((f) => f.type === 'file');
  const lines = [
    // One attribute group a line, so that the snippet reads without scrolling sideways.
    `<form data-endpoint="${escapeHtml(`${origin}/api/v1/submit`)}"`,
    `      data-key="${escapeHtml(key)}"`,
    `      data-success="Thank you! We received your message."`,
    `      ${files ? `${postsToFormAddress(project, origin)} ` : ''}novalidate>`,
    '  <p data-forms-status></p>',
    ...project.fields.map(control),
    ...inside,
    '  <button type="submit">Send</button>',
    '</form>',
    ...after,
    `<script src="${escapeHtml(`${origin}/widget.js`)}" defer></script>`,
  ];
  return `${lines.join('\n')}\n`;
}
