// C32, C44: a project's hosted page over HTTP: its settings are `PATCH /projects/:id {"page": …}`
// (projects.ts); its logo is set here, the image itself as the body, and removed. Each route calls
// the operation the tool calls (src/ops/hosted-page.ts), as the caller.
import { LOGO_TYPES, logoTooLarge, logoTypeRefused, MAX_LOGO_BYTES } from '../../files/logo.ts';
import { declaredLength } from '../../http/body.ts';
import {
  bodyBrokenOff,
  invalidRequest,
  tooLargeBecause,
  unsupportedMediaTypeBecause,
} from '../../http/replies.ts';
import { NotFound } from '../../lib/faults.ts';
import { readAtMost } from '../../lib/stream.ts';
import { readLogo, removeLogo, setLogo } from '../../ops/hosted-page.ts';
import { showProject } from '../../ops/projects.ts';
import type { ManageRoutes } from './define.ts';
import { PROJECT_EXAMPLE, projectMember } from './projects.ts';
import { MANAGE_ROUTES } from './table.ts';

const LOGO = { type: 'image/png', size: 5120, sha256: 'c0ffee…' };
const WITH_LOGO = { ...PROJECT_EXAMPLE, page: { ...PROJECT_EXAMPLE.page, logo: LOGO } };

// The logo's refusals of its own, each in the sentence the tool prints for the same file.
const tooLarge = () => tooLargeBecause(logoTooLarge());
const refusedType = (type: string) => unsupportedMediaTypeBecause(logoTypeRefused(type));

/** The body's bytes, no more than a logo may be (judged on Content-Length when it is given). */
async function logoBytes(request: Request): Promise<Uint8Array> {
  if (declaredLength(request) > MAX_LOGO_BYTES) throw tooLarge();
  if (request.body === null) return new Uint8Array(0);
  const read = await readAtMost(request.body, MAX_LOGO_BYTES).catch(() => {
    throw bodyBrokenOff();
  });
  if (read.over) throw tooLarge();
  return read.bytes;
}

export function pageRoutes(routes: ManageRoutes): void {
  routes.add({
    ...MANAGE_ROUTES.setPageLogo,
    tag: 'Projects',
    summary: "Sets the hosted page's logo (C44): the image itself is the body",
    description: `PNG, JPEG, WebP or GIF (its Content-Type, which its bytes must agree with), at most ${MAX_LOGO_BYTES} bytes; never SVG, which can carry script, and never fetched from a URL. Kept in the bucket of the project's place; replaces the logo it had.`,
    access: 'project',
    reply: {
      status: 200,
      description: 'Set: the project after, its `page.logo` the type, size and SHA-256 of the image.',
      members: projectMember,
      example: { message: 'Logo set', project: WITH_LOGO },
    },
    refusals: [
      { name: 'not an image a logo may be', reply: refusedType('image/svg+xml') },
      { name: 'logo too large', reply: tooLarge() },
      {
        name: 'bytes of another type',
        reply: invalidRequest(
          "The logo's bytes are not a PNG image, as its type image/png says: send the type its bytes are",
        ),
      },
    ],
    extra: {
      requestBody: {
        required: true,
        content: Object.fromEntries(
          LOGO_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
        ),
      },
    },
    handler: async ({ c, m, params }) => {
      const type = (c.req.header('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (!(LOGO_TYPES as readonly string[]).includes(type)) throw refusedType(type);
      const bytes = await logoBytes(c.req.raw);
      return { message: 'Logo set', data: { project: await setLogo(m, params.projectId, bytes, type) } };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.previewPage,
    tag: 'Projects',
    summary: 'The hosted page as its visitors would see it, on or off (C44)',
    description:
      "The dashboard's preview: the page its address serves, in the language asked for, whether it is on or off, never cached; its logo inside it (a `data:` address). Shown in a sandboxed frame, it runs no script and sends nothing.",
    access: 'project',
    reply: {
      status: 200,
      raw: {
        description: 'The page, under its own Content-Security-Policy.',
        content: { 'text/html; charset=utf-8': { schema: { type: 'string' } } },
      },
    },
    handler: async ({ c, m, params, query }) => {
      const view = await showProject(m, params.projectId);
      const { formId } = view;
      if (formId === null) throw new NotFound(`Project '${view.id}' has no form address, so it has no page`);
      const { previewPage } = await import('../../pages/preview.ts');
      const origin = new URL(c.req.url).origin;
      return previewPage({ ...view, formId }, origin, query.lang, await readLogo(m, view));
    },
  });

  routes.add({
    ...MANAGE_ROUTES.removePageLogo,
    tag: 'Projects',
    summary: "Removes the hosted page's logo (C44)",
    access: 'project',
    reply: {
      status: 200,
      description: 'Removed: the project after.',
      members: projectMember,
      example: { message: 'Logo removed', project: PROJECT_EXAMPLE },
    },
    handler: async ({ m, params }) => ({
      message: 'Logo removed',
      data: { project: await removeLogo(m, params.projectId) },
    }),
  });
}
