// The schemas every operation of the OpenAPI document shares: the envelope (C1–C3, with C43's
// codes and hints), a field's value and a submission, and the ways a caller proves who it is.
// src/document.ts puts them into the document it generates from the routes.
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { FIELD_TYPES } from '../../schema/tables.ts';
import { fieldSchema } from '../fields/validation.ts';
import { ERROR_CODES, ISSUE_CODES } from '../lib/codes.ts';
import { KEY_PREFIX, KIND_PREFIXES } from '../projects/keys.ts';
import { REASON_PHRASES } from './envelope.ts';
import { ACCESS_HEADER } from './headers.ts';

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
        params: v.optional(
          v.pipe(
            v.record(v.string(), v.unknown()),
            v.description("C43: the cause's parameters, where it has any (C45's form_closed: {reason})."),
          ),
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
