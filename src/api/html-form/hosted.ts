// C44: the hosted form page at a form address (GET), its logo, and the answer to a form posted from
// that page with scripts off. The module that makes pages (src/pages/) is loaded on the first
// request that needs it: a form post never evaluates it (docs/layout.md, the lazy boundary).
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import { describeRoute } from '../../http/contract.ts';
import type { AppEnv } from '../../http/env.ts';
import type { Outcome } from '../../pages/replies.ts';

/**
 * C44: a form posted from its own hosted page (its Referer) with scripts off is answered in the
 * page's look and language; the module that makes those pages is loaded for such a post only.
 */
export async function fromPage(
  c: Context<AppEnv>,
  formId: string,
  outcome: Outcome,
  headers: Record<string, string> = {},
): Promise<Response | undefined> {
  if (!c.req.header('Referer')?.includes(`/f/${formId}`)) return undefined;
  const { fromHostedPage, hostedReply } = await import('../../pages/replies.ts');
  const asked = fromHostedPage(c, formId);
  return asked === undefined
    ? undefined
    : hostedReply(c, formId, asked, outcome, headers).catch(() => undefined);
}

/** C44: `GET <form path>` (the page) and `GET <form path>/logo`, the page described in the OpenAPI document. */
export function hostedPageRoutes(
  app: HonoBase<AppEnv>,
  path: string,
  formId: {
    name: string;
    in: 'path';
    required: boolean;
    description: string;
    schema: { type: 'string'; pattern: string };
  },
  tag: string,
): void {
  const hostedPage = describeRoute(() => ({
    tags: [tag],
    operationId: 'getHostedPage',
    summary: "The project's hosted form page, in the visitor's language (C44)",
    description:
      "Only when the project's page is on (`page.enabled`) and the deployment serves pages (`HOSTED_PAGES`); otherwise, or for a project moving or gone, a plain 404 page. The language is `?lang=` when the page speaks it, else the best of `Accept-Language` among the page's languages, else its first. Served from the edge cache when it holds the page; a change to the project purges it.",
    security: [],
    parameters: [
      formId,
      { name: 'lang', in: 'query' as const, required: false, schema: { type: 'string' as const } },
    ],
    responses: {
      200: {
        description:
          'The page: HTML with its form, a strict Content-Security-Policy, and `Content-Language`.',
        content: { 'text/html; charset=utf-8': { schema: { type: 'string' } } },
      },
      404: {
        description: 'No page here: off, moving, gone, or no such form.',
        content: { 'text/html; charset=utf-8': { schema: { type: 'string' } } },
      },
    },
  }));
  app.get(path, hostedPage, async (c) => (await import('../../pages/serve.ts')).servePage(c));
  const logo = describeRoute(() => ({
    tags: [tag],
    operationId: 'getHostedPageLogo',
    summary: "The hosted page's logo (C44)",
    description:
      'The image its owner uploaded (PNG, JPEG, WebP or GIF), from the bucket of the project’s place; a 404 page as the page’s when it has none or the page is off.',
    security: [],
    parameters: [formId],
    responses: {
      200: {
        description: 'The image.',
        content: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
      },
      404: {
        description: 'No logo here.',
        content: { 'text/html; charset=utf-8': { schema: { type: 'string' } } },
      },
    },
  }));
  app.get(`${path}/logo`, logo, async (c) => (await import('../../pages/serve.ts')).serveLogo(c));
}
