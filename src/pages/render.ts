// C44: a project's hosted form page, as HTML: its logo, title and introduction, a switch between
// its languages, its form (the controls the Embed screen's snippets have, in the visitor's
// language), and a footer saying whose form it is. No framework and no inline script: the style is
// inline (its hash in the policy), the widget a script of this origin. With scripts off the form
// posts to the form address as any plain form does (C29); with them, the widget sends it and shows
// each field's message beside it, in the page's language (C43). C45: a field's condition rides on
// its control, for the widget to show and hide it by (with scripts off every field is shown, and
// the worker decides), and the page's own query fills its fields.
import { control, escapeHtml, honeypotControl } from '../fields/form-html.ts';
import { toBase64 } from '../lib/hex.ts';
import { nameOfLanguage } from './language.ts';
import { STEPS_STYLE, type SteppedField, stepGroups, steppedControls } from './steps.ts';
import { filled, type Words, wordsOf } from './words.ts';

export type PageTheme = 'light' | 'dark' | 'auto';

/** What a page is made of, each text already in the visitor's language. */
export type RenderInput = {
  /** The deployment's own origin (`https://forms.example.com`). */
  origin: string;
  formId: string;
  projectName: string;
  lang: string;
  languages: readonly string[];
  title: string | undefined;
  intro: string | undefined;
  thanks: string | undefined;
  accent: string;
  theme: PageTheme;
  /** The logo's address, when it has one. */
  logo: string | undefined;
  /**
   * The dashboard's preview: the logo is a `data:` address, which the policy allows, and no script
   * is named (the frame runs none, and so fetches none: not Turnstile's either).
   */
  preview?: boolean | undefined;
  fields: SteppedField[];
  /** C46: the page's steps' titles in the visitor's language, by step number (1 at index 0). */
  steps?: readonly (string | undefined)[] | undefined;
  /** C46: partial submissions on: the days a draft of the page in steps is kept. */
  draftDays?: number | undefined;
  honeypot: string | null;
  /** C22: Turnstile's site key, when the project's submissions need its token. */
  turnstileSiteKey?: string | undefined;
  /** C45: what the page says instead of its form while the form is full or closed. */
  closed?: string | undefined;
};

export type RenderedPage = { html: string; csp: string };

/** A page as a reply: HTML under its own policy, in its language, never sniffed; `headers` add. */
export function pageResponse(
  page: RenderedPage,
  lang: string,
  headers: Record<string, string>,
  status = 200,
): Response {
  return new Response(page.html, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': page.csp,
      'Content-Language': lang,
      'X-Content-Type-Options': 'nosniff',
      ...headers,
    },
  });
}

/** Black or white, whichever reads better on the accent (WCAG's relative luminance). */
function onAccent(accent: string): string {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(accent.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? '#000' : '#fff';
}

const LIGHT = '--bg:#fff;--fg:#1b1f24;--mu:#545d69;--ln:#8c95a1;--bad:#b42318;--ok:#1a7f37';
const DARK = '--bg:#111418;--fg:#e6e9ee;--mu:#a4adb8;--ln:#6b7480;--bad:#ff8a80;--ok:#5fd17a';

/** The page's whole style: small enough to send inline, so the page draws in one round trip. */
export function pageStyle(accent: string, theme: PageTheme): string {
  const scheme =
    theme === 'auto'
      ? `:root{color-scheme:light dark;${LIGHT}}@media(prefers-color-scheme:dark){:root{${DARK}}}`
      : `:root{color-scheme:${theme};${theme === 'dark' ? DARK : LIGHT}}`;
  return `${scheme}:root{--a:${accent};--on:${onAccent(accent)}}*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,sans-serif}main{max-width:36rem;margin:0 auto;padding:1.5rem 1rem}header img{display:block;max-height:4rem;max-width:100%;margin-bottom:.5rem}h1{font-size:1.6rem;line-height:1.25;margin:.25rem 0 .75rem}a{color:inherit}nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0 0 1rem;padding:0}[aria-current]{font-weight:700}form{display:grid;gap:.3rem}label{font-weight:600;margin-top:.75rem;overflow-wrap:anywhere}label:has(input[type=checkbox]){font-weight:400}label:has(+[required])::after,form[data-logic] label:has(+[data-required])::after{content:" *"}input,select,textarea{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--ln);border-radius:6px;padding:.55rem .6rem;width:100%;max-width:100%}input[type=checkbox]{width:auto;margin:0 .5rem 0 0}:focus-visible{outline:3px solid var(--a);outline-offset:2px}button{font:inherit;font-weight:600;margin-top:1.25rem;padding:.65rem 1.4rem;border:0;border-radius:6px;background:var(--a);color:var(--on);cursor:pointer;justify-self:start}button:disabled{opacity:.6}.help,.note,footer{color:var(--mu)}.help{font-size:.9rem}[data-forms-error],[data-state=error]{color:var(--bad)}[data-state=success]{color:var(--ok);font-weight:600}footer{font-size:.875rem;margin-top:2.5rem;border-top:1px solid var(--ln);padding-top:1rem}[data-forms-status]:empty{margin:0}${STEPS_STYLE}`;
}

/** Paragraphs of a text the owner wrote, a blank line between two. */
const paragraphs = (text: string | undefined) =>
  (text ?? '')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');

async function sha256Base64(text: string): Promise<string> {
  // CSP's hash source is standard base64, padded.
  return toBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}

/** C44: the links to the page in each of its other languages, the current one marked. */
function languageSwitch(input: RenderInput, words: Words): string {
  if (input.languages.length < 2) return '';
  const links = input.languages.map((tag) => {
    const current = tag === input.lang ? ' aria-current="true"' : '';
    // The preview's links go to the page's own address: the preview's is the management API's.
    const href = `${input.preview ? `${input.origin}/f/${input.formId}` : ''}?lang=${encodeURIComponent(tag)}`;
    return `<li><a href="${escapeHtml(href)}" hreflang="${escapeHtml(tag)}" lang="${escapeHtml(tag)}"${current}>${escapeHtml(nameOfLanguage(tag))}</a></li>`;
  });
  return `<nav aria-label="${escapeHtml(words.language)}"><ul>${links.join('')}</ul></nav>`;
}

/** The page, and the Content Security Policy it is served with. */
export async function renderPage(input: RenderInput): Promise<RenderedPage> {
  const words = wordsOf(input.lang);
  const action = `${input.origin}/f/${input.formId}`;
  const heading = input.title ?? input.projectName;
  const turnstile = input.turnstileSiteKey !== undefined;
  const host = new URL(input.origin).host;
  const required = input.fields.some((f) => f.field.required && f.field.type !== 'boolean');
  // C45: the fields the page's own address may fill (`?email=…`): its fields, never a file (the
  // widget fills them, and only these: not the honeypot, nor anything a script added).
  // C45: the visible fields the page's query may fill: never a file, never a captured field.
  const prefill = input.fields
    .filter((f) => f.field.type !== 'file' && typeof f.field.capture !== 'string')
    .map((f) => f.field.name);
  // C45: a condition or a captured field: the widget imports its second script for either.
  const conditional = input.fields.some(
    (f) => (f.field.when !== undefined && f.field.when !== null) || typeof f.field.capture === 'string',
  );
  const groups = stepGroups(input.fields);
  const form = [
    `<form method="post" action="${escapeHtml(action)}" enctype="multipart/form-data" data-checks="worker" data-endpoint="${escapeHtml(action)}" data-key="" data-success="${escapeHtml(input.thanks ?? words.thanks)}" data-sending="${escapeHtml(words.sending)}" data-prefill="${escapeHtml(prefill.join(' '))}">`,
    '<p data-forms-status role="status" aria-live="polite"></p>',
    required ? `<p class="note">${escapeHtml(words.required)}</p>` : '',
    // C22: Turnstile's widget is a script: without scripts, no post can pass; said before it fails.
    turnstile && !input.preview
      ? `<noscript><p class="note">${escapeHtml(words.needsScript)}</p></noscript>`
      : '',
    // C46: a page whose fields are on more than one step, in steps.
    ...(groups.length > 0
      ? steppedControls(groups, input.steps ?? [], words, input.preview ? undefined : input.draftDays)
      : input.fields.map(({ field, shown }) => control(field, { choose: words.choose, ...shown }))),
    input.honeypot === null ? '' : honeypotControl(input.honeypot),
    turnstile
      ? `<div class="cf-turnstile" data-sitekey="${escapeHtml(input.turnstileSiteKey ?? '')}" data-language="${escapeHtml(input.lang)}"></div>`
      : '',
    `<button type="submit">${escapeHtml(words.send)}</button>`,
    '</form>',
  ].join('\n');
  const footer = `<footer><p>${escapeHtml(filled(words.formOf, { name: input.projectName, host }))}</p><p>${escapeHtml(words.noSecrets)}</p></footer>`;
  const logo =
    input.logo === undefined
      ? ''
      : `<img src="${escapeHtml(input.logo)}" alt="${escapeHtml(input.projectName)}" height="64">`;
  const scripts =
    input.preview || input.closed !== undefined
      ? ''
      : [
          // C45: the conditions' script, which the widget imports for such a page, fetched beside it.
          conditional
            ? `<link rel="modulepreload" href="${escapeHtml(`${input.origin}/widget/logic.js`)}">`
            : '',
          `<script src="${escapeHtml(`${input.origin}/widget.js`)}" defer></script>`,
          // C46: after the widget (a module runs after the deferred scripts before it), whose
          // values it checks a step by.
          groups.length > 0
            ? `<script type="module" src="${escapeHtml(`${input.origin}/widget/steps.js`)}"></script>`
            : '',
          turnstile
            ? '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>'
            : '',
        ].join('');
  // C45: a form that takes nothing now shows why, in the visitor's language, instead of itself.
  const main =
    input.closed === undefined ? form : `<p class="note" role="status">${escapeHtml(input.closed)}</p>`;
  const body = `<header>${logo}<h1>${escapeHtml(heading)}</h1></header>${languageSwitch(input, words)}${paragraphs(input.intro)}\n${main}\n${footer}`;
  const preview = input.preview === true;
  return shell({ ...input, heading, body, scripts, turnstile: turnstile && !preview, preview });
}

/**
 * A page in the hosted page's look: its language, title, colours and body, with the policy it is
 * served with (its style by hash; scripts of this origin only, and Turnstile's when it has one).
 */
export async function shell(page: {
  lang: string;
  heading: string;
  accent: string;
  theme: PageTheme;
  body: string;
  scripts?: string;
  turnstile?: boolean;
  /** The dashboard's preview: `data:` images (its logo), and sandboxed. */
  preview?: boolean;
}): Promise<RenderedPage> {
  const style = pageStyle(page.accent, page.theme);
  const html = `<!doctype html><html lang="${escapeHtml(page.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(page.heading)}</title><style>${style}</style></head><body><main>${page.body}</main>${page.scripts ?? ''}</body></html>`;
  const challenges = page.turnstile ? ' https://challenges.cloudflare.com' : '';
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${await sha256Base64(style)}'`,
    `script-src ${page.scripts ? `'self'${challenges}` : "'none'"}`,
    `connect-src 'self'`,
    `img-src 'self'${page.preview ? ' data:' : ''}`,
    `form-action 'self'`,
    `base-uri 'none'`,
    `frame-ancestors 'self'`,
    ...(page.turnstile ? [`frame-src${challenges}`] : []),
    // The preview, served from the dashboard's origin, is sandboxed even when opened alone: no
    // script, form, pop-up or navigation of its window. It keeps its origin (`allow-same-origin`),
    // which grants nothing to a document that runs no script, so that the dashboard can read its
    // height and show it whole.
    ...(page.preview ? ['sandbox allow-same-origin'] : []),
  ].join('; ');
  return { html, csp };
}
