// The worker's small built-in pages (a form's thank-you and error pages, C29; an address's
// agreement, C37): Hono's `html` template escapes every value put in; the pages run no script and
// load nothing.
import { html } from 'hono/html';

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}h1{font-size:1.5rem}li{margin:.25rem 0}a{color:#0645ad}button{font:inherit;padding:.5rem 1rem}';

/** A whole page: its title, and a body made with `html` (values escaped). */
export function page(title: string, body: unknown): string {
  return String(
    html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${STYLE}</style></head><body>${body}</body></html>`,
  );
}

/** The headers of every page: no script, no framing by others, no sniffing, posts only to itself. */
export const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
} as const;
