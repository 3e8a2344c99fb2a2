// C43: the codes are one list, the same in the code, the OpenAPI document, the rule book and the
// forms guide, and a code once released is never renamed, removed or moved.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDocument } from '../../scripts/build-assets.ts';
import type { ApiError } from '../../src/http/envelope.ts';
import * as replies from '../../src/http/replies.ts';
import { ERROR_CODES, ISSUE_CODES } from '../../src/lib/codes.ts';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

// The codes of the first release that had them: this list only ever grows at its end.
const RELEASED_ISSUES = [
  'type',
  'required',
  'unknown_field',
  'min_length',
  'max_length',
  'min',
  'max',
  'format',
  'one_of',
  'pattern',
  'file_type',
  'file_size',
  'too_many_files',
  'duplicate_field',
];
const RELEASED_ERRORS = [
  'missing_key',
  'invalid_key',
  'invalid_credentials',
  'rate_limited',
  'origin_not_allowed',
  'secret_key_needed',
  'secret_key_in_page',
  'no_fields',
  'unsupported_media_type',
  'invalid_idempotency_key',
  'body_too_large',
  'file_too_large',
  'invalid_json',
  'not_an_object',
  'body_incomplete',
  'invalid_form_body',
  'empty_submission',
  'challenge_failed',
  'proof_of_work_failed',
  'redirect_not_allowed',
  'form_not_found',
  'in_progress',
  'idempotency_key_reused',
  'invalid_parameter',
  'invalid_request',
  'invalid_body',
  'not_found',
  'method_not_allowed',
  'conflict',
  'publishable_key_cannot_manage',
  'operator_only',
  'cross_site_sign_in',
  'cross_site_write',
  'unavailable',
  'project_moving',
  'internal_error',
  'validation_failed',
];

describe('C43: the codes', () => {
  it('keep every released code, in its place; new ones only after them', () => {
    expect(Object.keys(ISSUE_CODES).slice(0, RELEASED_ISSUES.length)).toEqual(RELEASED_ISSUES);
    expect(Object.keys(ERROR_CODES).slice(0, RELEASED_ERRORS.length)).toEqual(RELEASED_ERRORS);
  });

  it('are written in snake_case, and no code is both an issue and a cause', () => {
    const all = [...Object.keys(ISSUE_CODES), ...Object.keys(ERROR_CODES)];
    for (const code of all) expect(code).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
    // `min` and `max` are issues only; a cause never shares a name with one.
    expect(new Set(all).size).toBe(all.length);
  });

  it('each stand in the forms guide with its meaning, and in the rule book by name', () => {
    // The guide's tables, row by row (the formatter pads their columns).
    const rows = new Map(
      [...read('docs/forms.md').matchAll(/^\| `(\w+)` +\| (.+?) +\|$/gm)].map((m) => [m[1], m[2]]),
    );
    const rule =
      read('docs/behaviour.md')
        .split('- **C43.**')[1]
        ?.split(/^- \*\*C\d+\.\*\*/m)[0] ?? '';
    for (const [code, meaning] of [...Object.entries(ISSUE_CODES), ...Object.entries(ERROR_CODES)]) {
      expect(rows.get(code)).toBe(meaning);
      expect(rule).toContain(`\`${code}\``);
    }
  });

  it('are the OpenAPI document’s enums, for the cause and for each issue', async () => {
    const doc = (await generateDocument()) as {
      components: {
        schemas: { Envelope: { properties: { data: { properties: Record<string, unknown> } } } };
      };
    };
    const data = doc.components.schemas.Envelope.properties.data.properties as {
      error: { properties: { code: { enum: string[] } } };
      issues: { items: { properties: { code: { enum: string[] } } } };
    };
    expect(data.error.properties.code.enum).toEqual(Object.keys(ERROR_CODES));
    expect(data.issues.items.properties.code.enum).toEqual(Object.keys(ISSUE_CODES));
  });

  it('each reply of the catalogue carries the code of its cause', () => {
    const problem = { field: 'f', code: 'required', message: "Field 'f' is required" } as const;
    const expected: [ApiError, string][] = [
      [replies.unauthorized('Missing API key', 'missing_key'), 'missing_key'],
      [replies.invalidKey(), 'invalid_key'],
      [replies.missingKey(), 'missing_key'],
      [replies.invalidCredentials(), 'invalid_credentials'],
      [replies.tooManyRequests(), 'rate_limited'],
      [replies.secretKeyNeeded(), 'secret_key_needed'],
      [replies.secretKeyInPage(), 'secret_key_in_page'],
      [replies.originNotAllowed(), 'origin_not_allowed'],
      [replies.notConfigured(), 'no_fields'],
      [replies.unsupportedMediaType(), 'unsupported_media_type'],
      [
        replies.unsupportedMediaTypeBecause("A logo is a PNG, JPEG, WebP or GIF image, not 'x'"),
        'unsupported_media_type',
      ],
      [replies.notAForm(), 'unsupported_media_type'],
      [replies.malformedForm(), 'invalid_form_body'],
      [replies.formNotFound(), 'form_not_found'],
      [replies.redirectNotAllowed('_next'), 'redirect_not_allowed'],
      [replies.fileTooLarge("Field 'cv' must be at most 5 MB"), 'file_too_large'],
      [replies.uploadTooLarge(10), 'body_too_large'],
      [replies.invalidIdempotencyKey(), 'invalid_idempotency_key'],
      [replies.tooLarge(10), 'body_too_large'],
      [replies.tooLargeBecause('A logo is at most 262144 bytes'), 'body_too_large'],
      [replies.tooLargeToStore(), 'body_too_large'],
      [replies.notJson(), 'invalid_json'],
      [replies.notObject(), 'not_an_object'],
      [replies.bodyBrokenOff(), 'body_incomplete'],
      [replies.noFields(), 'empty_submission'],
      [replies.validationFailed([problem]), 'validation_failed'],
      [replies.spamCheckFailed(), 'challenge_failed'],
      [replies.proofOfWorkFailed('missing'), 'proof_of_work_failed'],
      [replies.proofOfWorkFailed('expired'), 'proof_of_work_failed'],
      [replies.inProgress(), 'in_progress'],
      [replies.idempotencyKeyReused(), 'idempotency_key_reused'],
      [replies.unavailable(), 'unavailable'],
      [replies.projectMoving(), 'project_moving'],
      [replies.internalError('r'), 'internal_error'],
      [replies.invalidParameter('limit', 'must be 1 to 100'), 'invalid_parameter'],
      [replies.submissionNotFound(), 'not_found'],
      [replies.fileNotFound('cv'), 'not_found'],
      [replies.invalidErasure(), 'invalid_body'],
      [replies.methodNotAllowed('PUT'), 'method_not_allowed'],
      [replies.readMethodNotAllowed('PUT', 'GET'), 'method_not_allowed'],
      [replies.notFound(), 'not_found'],
      [replies.publishableKeyCannotManage(), 'publishable_key_cannot_manage'],
      [replies.operatorOnly(), 'operator_only'],
      [replies.crossSiteSignIn(), 'cross_site_sign_in'],
      [replies.crossSiteWrite(), 'cross_site_write'],
      [replies.invalidRequest('x'), 'invalid_request'],
      [replies.notFoundHere('x'), 'not_found'],
      [replies.conflict('x'), 'conflict'],
      [replies.invalidBody('x'), 'invalid_body'],
      [replies.manageUnavailable(), 'unavailable'],
      [replies.submitNeedsJson(), 'unsupported_media_type'],
    ];
    for (const [reply, code] of expected) {
      const data = reply.toEnvelope().data;
      if (code === 'validation_failed')
        expect(data).toEqual({
          message: 'Validation failed',
          errors: [problem.message],
          issues: [{ field: 'f', code: 'required' }],
        });
      else expect(data.error).toEqual({ message: reply.message, code });
    }
    // Every reply the catalogue can make is in the table above.
    const factories = Object.values(replies).filter((r) => typeof r === 'function').length;
    expect(expected.length).toBeGreaterThanOrEqual(factories - 2 /* created and homeReply are no failures */);
  });

  it('every reply of the catalogue names a listed code', () => {
    // `unauthorized` takes its code from its caller (missing_key, invalid_key, invalid_credentials).
    const made = Object.entries(replies).flatMap(([name, make]) => {
      if (typeof make !== 'function' || name === 'unauthorized') return [];
      try {
        const reply = (make as (...args: unknown[]) => unknown)('x', 'x');
        return reply instanceof Error && 'code' in reply ? [reply.code as string] : [];
      } catch {
        return [];
      }
    });
    expect(made.length).toBeGreaterThan(35);
    for (const code of made) expect(Object.keys(ERROR_CODES)).toContain(code);
  });
});
