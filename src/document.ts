// The OpenAPI 3.1 document, generated from the app's routes: each declares its operation, its
// parameters and body (valibot schemas) and its replies beside its handler. `npm run build:assets`
// writes it to assets/api/v1/openapi.json; the tests check every reply they receive against it.
// Never imported by the worker: the generator runs at build time.
import { HonoBase } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import { generateSpecs } from 'hono-openapi';
import pkg from '../package.json' with { type: 'json' };
import { app } from './app.ts';
import { eventsApp } from './events.ts';
import { sharedComponents } from './http/openapi-components.ts';
import { notFound } from './http/replies.ts';
import { surfacesApp } from './surfaces.ts';

/** Every route the worker serves, in one app: its own, and the management API's it loads on demand. */
export function servedApp() {
  const all = new HonoBase({ router: new TrieRouter() });
  all.route('/', app);
  all.route('/', surfacesApp());
  all.route('/', eventsApp());
  return all;
}

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const document = await generateSpecs(servedApp(), {
    documentation: {
      info: {
        title: 'edge-forms',
        // The project's own version (package.json), as its releases name it (C42).
        version: pkg.version,
        description:
          'A typed form-submission endpoint. Every reply but the CORS preflight is the JSON envelope `{data, status}`; any other path answers 404 in it: ' +
          JSON.stringify(notFound().toEnvelope()),
      },
      components: sharedComponents(),
    },
    // The CORS preflights are operations of their own (C14).
    excludeMethods: [],
    // Each route documents its own 400s, with the catalogue's replies.
    defaultValidationErrorResponse: false,
  });
  return JSON.parse(JSON.stringify(document)) as Record<string, unknown>;
}
