// The OpenAPI 3.1 document, generated from the app's routes: each declares its operation, its
// parameters and body (valibot schemas) and its replies beside its handler. `npm run build:assets`
// writes it to assets/api/v1/openapi.json; the tests check every reply they receive against it.
// Never imported by the worker: the generator runs at build time.
import { HonoBase } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import { generateSpecs } from 'hono-openapi';
import pkg from '../package.json' with { type: 'json' };
import { surfacesApp } from './surfaces.ts';

type Json = Record<string, unknown>;

/** C1–C3, as a valibot schema. */
export const EnvelopeSchema = v.object({
  data: v.object({
    message: v.string(),
    error: v.optional(
      v.object({
        message: v.string(),
        code: v.pipe(
          v.picklist(Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]),
          v.description('C43: the cause, from a fixed list; a code is never renamed.'),
        ),
      }),
    ),
    errors: v.optional(v.array(v.string())),
    hint: v.optional(
      v.pipe(
        v.string(),
        v.description(
          'C43: what to do instead, for the developer reading the reply; never compared by a client.',
        ),
      ),
    ),
    issues: v.optional(
      v.pipe(
        v.array(
          v.object({
            field: v.string(),
            code: v.picklist(Object.keys(ISSUE_CODES) as (keyof typeof ISSUE_CODES)[]),
            params: v.optional(v.record(v.string(), v.unknown())),
          }),
        ),
        v.description(
          'C43: one for each text of `errors`, in the same order: the field, its code from a fixed list, and the parameters of the broken rule.',
        ),
      ),
    ),
  }),
  status: v.object({
    code: v.picklist(Object.keys(REASON_PHRASES).map(Number)),
    message: v.picklist(Object.values(REASON_PHRASES)),
  }),
});

const schema = (s: v.GenericSchema): Json => {
  const { $schema: _, ...rest } = toJsonSchema(s, { errorMode: 'ignore' }) as Json;
  return rest;
};

/** What every operation shares: the schemas it refers to by `$ref`, and who may call it. */
export function sharedComponents(): Json {
  return {
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        description: `The project's API key: \`${KIND_PREFIXES.publishable}\` (publishable, for pages) or \`${KIND_PREFIXES.secret}\` (secret, for servers) and 32 letters and digits; keys made before the two kinds, \`${KEY_PREFIX}\` and 32, are publishable.`,
      },
      operatorToken: {
        type: 'http',
        scheme: 'bearer',
        description:
          'C32: the operator token, the worker secret `ADMIN_TOKEN` (at least 43 characters): every project.',
      },
      accessJwt: {
        type: 'apiKey',
        in: 'header',
        name: ACCESS_HEADER,
        description:
          'C32: a Cloudflare Access identity (with ACCESS_TEAM_DOMAIN and ACCESS_AUD set): every project, recorded under its email.',
      },
      session: {
        type: 'apiKey',
        in: 'cookie',
        name: 'edgeform_session',
        description:
          'C32: a session made by POST /api/v1/session: what its credential may. Changes need the X-CSRF-Token header and this worker’s Origin.',
      },
      secretKey: {
        type: 'http',
        scheme: 'bearer',
        description: `A secret key of the project: \`${KIND_PREFIXES.secret}\` and 32 letters and digits (C23). A publishable key gets 403.`,
      },
    },
    schemas: {
      Envelope: schema(EnvelopeSchema),
      FieldValue: {
        description:
          "A value of one of the project's field types (C13); `null` matches none. A field may also carry rules (C28: format, minLength, maxLength, minimum, maximum, enum, pattern): `forms project schema <project>` prints a project's fields as JSON Schema with those keywords. A `file` field (C30) takes no JSON value: it is sent as multipart to `/f/{formId}`, and read back as `{name, type, size, sha256}`.",
        anyOf: FIELD_TYPES.filter((type) => type !== 'file').map((type) => ({
          title: type,
          ...schema(fieldSchema('field', type)),
        })),
      },
      Submission: {
        type: 'object',
        description:
          "The project's fields by name. Unknown fields are refused or dropped, as the project says; `cf-turnstile-response` and the project's honeypot are never stored.",
        minProperties: 1,
        additionalProperties: { $ref: '#/components/schemas/FieldValue' },
      },
    },
  };
}

import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { FIELD_TYPES } from '../schema/tables.ts';
import { ACCESS_HEADER } from './api/manage/principal.ts';
import { app } from './app.ts';
import { eventsApp } from './events.ts';
import { fieldSchema } from './fields/validation.ts';
import { REASON_PHRASES } from './http/envelope.ts';
import { notFound } from './http/replies.ts';
import { ERROR_CODES, ISSUE_CODES } from './lib/codes.ts';
import { KEY_PREFIX, KIND_PREFIXES } from './projects/keys.ts';

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
