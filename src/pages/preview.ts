// C44: the dashboard's preview of a project's page: the page as its visitors would see it, composed
// as its own address composes it, on or off, never cached. Its logo travels inside it (a `data:`
// address), since the page's own logo address answers only while the page is on, and the frame
// that shows it is sandboxed, asking for nothing more.

import { toBase64 } from '../lib/hex.ts';
import type { ProjectView } from '../ops/project-view.ts';
import { composePage } from './compose.ts';
import { chooseLanguage } from './language.ts';
import { pageResponse } from './render.ts';

export async function previewPage(
  view: ProjectView & { formId: string },
  origin: string,
  asked: string | undefined,
  logo: { type: string; bytes: Uint8Array } | undefined,
): Promise<Response> {
  const lang = chooseLanguage(view.page.languages, asked, undefined);
  const rendered = await composePage(view, {
    origin,
    formId: view.formId,
    lang,
    logo: logo === undefined ? undefined : `data:${logo.type};base64,${toBase64(logo.bytes)}`,
    preview: true,
  });
  return pageResponse(rendered, lang, { 'Cache-Control': 'no-store' });
}
