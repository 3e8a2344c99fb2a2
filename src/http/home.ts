// C16: the worker's own address, `GET /`: a person who opens it in a browser finds the way (the
// dashboard, the API reference, where submissions go); a client that asks for JSON gets the same
// in one sentence. Every other unknown path stays a 404.
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import { describeRoute } from './contract.ts';
import type { AppEnv } from './env.ts';
import { JSON_MEDIA } from './openapi-responses.ts';
import { homeReply } from './replies.ts';
import { send } from './send.ts';

// Nothing from the request is in it: a fixed page.
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>edge-forms</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2328}a{color:#0b57d0}code{background:#f3f4f6;padding:0 .25rem;border-radius:3px}</style>
</head><body>
<h1>edge-forms</h1>
<p>This worker takes your sites' forms.</p>
<ul>
<li><a href="/admin/">The dashboard</a>: projects, fields, keys and the inbox (sign in with the operator token).</li>
<li><a href="/reference/">The API reference</a>: every route, with its replies.</li>
<li>Submissions: JSON to <code>POST /api/v1/submit</code> with a project's key, or an HTML form to its address, <code>/f/&lt;form-id&gt;</code>.</li>
</ul>
</body></html>
`;

function home(c: Context): Response {
  const accept = c.req.header('Accept') ?? '';
  if (/\btext\/html\b/i.test(accept))
    return c.body(PAGE, 200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
  return send(c, homeReply());
}

const homeOperation = describeRoute(() => ({
  tags: ['Service'],
  operationId: 'home',
  summary: "The worker's own address",
  description:
    'A browser (Accept: text/html) gets a small page linking the dashboard and the API reference; any other client, this sentence in the envelope.',
  responses: {
    200: {
      description: 'Where things are.',
      content: {
        'text/html; charset=utf-8': { schema: { type: 'string' } },
        [JSON_MEDIA]: {
          schema: { $ref: '#/components/schemas/Envelope' },
          example: homeReply(),
        },
      },
    },
  },
}));

export function homeRoute(app: HonoBase<AppEnv>): void {
  app.get('/', homeOperation, home);
}
