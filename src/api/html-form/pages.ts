// C29: the small built-in pages of the HTML form endpoint: a thank-you page, and an error page that
// lists the JSON endpoint's messages and links back.
import { html } from 'hono/html';
import { page } from '../../http/html-page.ts';
import { httpUrl } from '../../lib/urls.ts';

/** Only an http(s) URL is ever linked to: a `javascript:` Referer cannot become a link. */
function backLink(referer: string | undefined) {
  const url = httpUrl(referer);
  return url === undefined ? '' : html`<p><a href="${url.href}">Back to the form</a></p>`;
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
