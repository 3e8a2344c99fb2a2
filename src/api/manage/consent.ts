// C37: the page a verification link opens. Opening it changes nothing (mail scanners open links);
// the owner of the address agrees by pressing its button, which posts back to the same address.
// The token in the path is the only proof: it was sent to that address alone.
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import { html } from 'hono/html';
import { describeRoute } from '../../http/contract.ts';
import type { AppEnv } from '../../http/env.ts';
import { PAGE_HEADERS, page } from '../../http/html-page.ts';
import { VERIFY_PATH } from '../../http/paths.ts';
import { NotFound } from '../../lib/faults.ts';
import type { Manager } from '../../ops/context.ts';
import { agreeToAddress, linkedAddress } from '../../ops/targets.ts';
import { database, placeDatabases } from '../../store/db.ts';

const TAG = 'Notification addresses (no key)';
const PAGE = { 'text/html; charset=utf-8': { schema: { type: 'string' as const } } };
const tokenParameter = {
  name: 'token',
  in: 'path' as const,
  required: true,
  description: 'The token of the verification mail (C37).',
  schema: { type: 'string' as const },
};

const manager = (c: Context<AppEnv>): Manager => ({
  db: database(c.env.DB),
  places: placeDatabases(c.env),
  actor: { kind: 'recipient' },
});

function answer(status: 200 | 404, title: string, body: unknown): Response {
  return new Response(page(title, body), { status, headers: PAGE_HEADERS });
}

const expired = (error: NotFound) =>
  answer(404, 'Link not valid', html`<h1>This link does not work</h1><p>${error.message}.</p>`);

/** Runs an operation for the page; a link that does not work is a page saying so. */
async function withLink<T>(run: () => Promise<T>, done: (value: T) => Response): Promise<Response> {
  try {
    return done(await run());
  } catch (error) {
    if (error instanceof NotFound) return expired(error);
    throw error;
  }
}

export function consentRoutes(app: HonoBase<AppEnv>): void {
  const path = `${VERIFY_PATH}/:token`;
  app.get(
    path,
    describeRoute({
      tags: [TAG],
      operationId: 'showAddressVerification',
      summary:
        "The page of a verification link: whether to send a project's submissions to this address (C37)",
      security: [],
      parameters: [tokenParameter],
      responses: {
        200: { description: 'The question, with a button that agrees.', content: PAGE },
        404: { description: 'The link was used, expired, or its address removed.', content: PAGE },
      },
    }),
    (c) =>
      withLink(
        () => linkedAddress(manager(c), c.req.param('token')),
        ({ projectName, address }) =>
          answer(
            200,
            'Receive form submissions?',
            html`<h1>Receive form submissions?</h1><p>Send a copy of every submission of the form “${projectName}” to <strong>${address}</strong>?</p><form method="post"><button type="submit">Yes, send them to this address</button></form><p>If you did not ask for this, close this page: nothing is sent unless you agree.</p>`,
          ),
      ),
  );
  app.post(
    path,
    describeRoute({
      tags: [TAG],
      operationId: 'verifyAddress',
      summary: "The address's owner agrees: from now on it gets the project's submissions (C37)",
      security: [],
      parameters: [tokenParameter],
      responses: {
        200: { description: 'Agreed.', content: PAGE },
        404: { description: 'The link was used, expired, or its address removed.', content: PAGE },
      },
    }),
    (c) =>
      withLink(
        () => agreeToAddress(manager(c), c.req.param('token')),
        ({ projectName, address }) =>
          answer(
            200,
            'Agreed',
            html`<h1>Done</h1><p><strong>${address}</strong> now receives the submissions of the form “${projectName}”. To stop them, ask the form's owner to remove the address.</p>`,
          ),
      ),
  );
}
