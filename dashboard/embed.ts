// C33: ready-to-paste forms made from a project's own fields: a plain HTML form for its form address
// (C29) and the widget's form (with a publishable key). Their controls are made by the module the
// hosted form page's are (src/fields/form-html.ts, bundled here: it needs nothing of the worker), so
// that a snippet and the page ask the same. Every value from the project is escaped for HTML.

import type { FieldRules } from '../src/fields/catalogue.ts';
import { control, escapeHtml, honeypotControl, type Shown } from '../src/fields/form-html.ts';
import type { Project } from './server-types.ts';

export type { FieldRules };
/** What a ready-to-paste form is made from: the project as the API shows it. */
export type EmbedProject = Pick<Project, 'formId' | 'honeypot' | 'turnstile' | 'fields'>;
export type Field = EmbedProject['fields'][number];

/**
 * C44: what a snippet's control shows: the field's own label, help and placeholder, each in the
 * first language it was given in (its name as words only when it has no label).
 */
export function shownOf(f: Field): Shown {
  const shown: Shown = {};
  for (const member of ['label', 'help', 'placeholder'] as const) {
    const text = Object.values(f[member] ?? {})[0];
    if (text !== undefined) shown[member] = text;
  }
  return shown;
}

/** C22: the honeypot and Turnstile's place in the form, and Turnstile's script after it. */
function guards(project: EmbedProject): { inside: string[]; after: string[] } {
  return {
    inside: [
      ...(project.honeypot === null ? [] : [honeypotControl(project.honeypot)]),
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
    ...project.fields.map((f) => control(f, shownOf(f))),
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
    ...project.fields.map((f) => control(f, shownOf(f))),
    ...inside,
    '  <button type="submit">Send</button>',
    '</form>',
    ...after,
    `<script src="${escapeHtml(`${origin}/widget.js`)}" defer></script>`,
  ];
  return `${lines.join('\n')}\n`;
}
