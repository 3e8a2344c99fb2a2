// Unit tests of the reply shapes (C1–C3).
import { describe, expect, it } from 'vitest';
import { ApiError, envelope, REASON_PHRASES } from '../src/http/envelope.ts';

describe('C2: reason phrases', () => {
  it('C2: are the RFC 9110 phrases for every status the rule book names', () => {
    expect(REASON_PHRASES).toEqual({
      200: 'OK',
      201: 'Created',
      204: 'No Content',
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      405: 'Method Not Allowed',
      409: 'Conflict',
      413: 'Content Too Large',
      415: 'Unsupported Media Type',
      422: 'Unprocessable Content',
      429: 'Too Many Requests',
      500: 'Internal Server Error',
      503: 'Service Unavailable',
    });
  });
});

describe('C1, C3: envelope', () => {
  it('C1: status.code and status.message follow the code', () => {
    expect(envelope(201, { message: 'ok' })).toEqual({
      data: { message: 'ok' },
      status: { code: 201, message: 'Created' },
    });
  });

  it('C3, C43: a single cause goes in data.error.message, its code beside it', () => {
    expect(new ApiError(401, 'invalid_key', 'Authentication failed', 'Invalid API key').toEnvelope()).toEqual(
      {
        data: {
          message: 'Authentication failed',
          error: { message: 'Invalid API key', code: 'invalid_key' },
        },
        status: { code: 401, message: 'Unauthorized' },
      },
    );
  });

  it('C3, C43: field problems go in data.errors, one string each, and their issues in the same order', () => {
    const problems = [
      { field: 'a', code: 'required', message: 'a' },
      { field: 'b', code: 'min', params: { min: 2 }, message: 'b' },
    ] as const;
    expect(new ApiError(400, 'validation_failed', 'Validation failed', problems).toEnvelope()).toEqual({
      data: {
        message: 'Validation failed',
        errors: ['a', 'b'],
        issues: [
          { field: 'a', code: 'required' },
          { field: 'b', code: 'min', params: { min: 2 } },
        ],
      },
      status: { code: 400, message: 'Bad Request' },
    });
  });
});
