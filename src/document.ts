// The OpenAPI 3.1 document, generated from the app's routes: each declares its operation, its
// parameters and body (valibot schemas) and its replies beside its handler. `npm run build:assets`
// writes it to assets/api/v1/openapi.json; the tests check every reply they receive against it.
// Never imported by the worker: the generator runs at build time.
import { generateSpecs } from 'hono-openapi';
import { app } from './app.ts';
import { sharedComponents } from './http/openapi.ts';
import { notFound } from './http/replies.ts';

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const document = await generateSpecs(app, {
    documentation: {
      info: {
        title: 'edge-forms',
        version: '1.0.0',
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
