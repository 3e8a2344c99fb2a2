// C29: the small built-in pages of the HTML form endpoint: a thank-you page, and an error page that
// lists the JSON endpoint's messages and links back. Hono's `html` template escapes every value put
// in; the pages run no script and load nothing.
import { html } from 'hono/html';
import { httpUrl } from '../lib/urls.ts';

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}h1{font-size:1.5rem}li{margin:.25rem 0}a{color:#0645ad}';

/** Only an http(s) URL is ever linked to: a `javascript:` Referer cannot become a link. */
function backLink(referer: string | undefined) {
  const url = httpUrl(referer);
  return url === undefined ? '' : html`<p><a href="${url.href}">Back to the form</a></p>`;
}

function page(title: string, body: unknown): string {
  return String(
    html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${STYLE}</style></head><body>${body}</body></html>`,
  );
}

export function thankYouPage(referer: string | undefined): string {
  return page('Thank you', html`<h1>Thank you</h1><p>Your form was sent.</p>${backLink(referer)}`);
}

export function errorPage(title: string, messages: readonly string[], referer: string | undefined): string {
  return page(
    title,
    html`<h1>${title}</h1><p>The form was not sent:</p><ul>${messages.map((m) => html`<li>${m}</li>`)}</ul>${backLink(referer)}`,
  );
}

/** The headers of every page: no script, no framing by others, no sniffing. */
export const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
} as const;
