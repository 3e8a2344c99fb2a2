// C1–C3: every reply is `{ data, status }`; this module is the only place that shapes one.
import type { ErrorCode, FieldIssue, Problem } from '../lib/codes.ts';

// C2: RFC 9110 reason phrases.
export const REASON_PHRASES = {
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
} as const;

export type StatusCode = keyof typeof REASON_PHRASES;
export type ErrorStatus = Exclude<StatusCode, 200 | 201 | 204>;

/** Every status but 204, which only the CORS preflight answers, with no body (C14). */
export type EnvelopeStatus = Exclude<StatusCode, 204>;

export type Envelope = {
  data: {
    message: string;
    error?: { message: string; code: ErrorCode; params?: Record<string, unknown> };
    errors?: string[];
    issues?: FieldIssue[];
    /** What to do instead, for the developer reading the reply: never part of SPEC's texts (C43). */
    hint?: string;
  };
  status: { code: EnvelopeStatus; message: string };
};

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function envelope(code: EnvelopeStatus, data: Envelope['data']): Envelope {
  return { data, status: { code, message: REASON_PHRASES[code] } };
}

/** Raised anywhere on the path of a request; `app.onError` turns it into the reply. */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly code: ErrorCode;
  readonly summary: string;
  readonly problems: readonly Problem[] | undefined;
  readonly headers: Record<string, string>;
  readonly hint: string | undefined;
  /** C43: the parameters of a single cause (C45's `form_closed`: its reason). */
  readonly params: Record<string, unknown> | undefined;

  /**
   * A single cause (`detail` a text) or the problems of the fields (`detail` a list, C12); `code`
   * names the single cause (C43) and is `validation_failed`'s own for a list.
   */
  constructor(
    status: ErrorStatus,
    code: ErrorCode,
    summary: string,
    detail: string | readonly Problem[],
    headers: Record<string, string> = {},
    hint?: string,
    params?: Record<string, unknown>,
  ) {
    super(typeof detail === 'string' ? detail : detail.map((p) => p.message).join('; '));
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.summary = summary;
    this.problems = typeof detail === 'string' ? undefined : detail;
    this.headers = headers;
    this.hint = hint;
    this.params = params;
  }

  toEnvelope(): Envelope {
    // C3: exactly one of `error` (one cause) or `errors` (field problems); C43: `issues` beside
    // `errors`, one for each text, in the same order.
    if (this.problems === undefined) {
      return envelope(this.status, {
        message: this.summary,
        error: {
          message: this.message,
          code: this.code,
          ...(this.params === undefined ? {} : { params: this.params }),
        },
        ...this.hinted(),
      });
    }
    return envelope(this.status, {
      message: this.summary,
      errors: this.problems.map((p) => p.message),
      issues: this.problems.map(({ message: _, ...issue }) => issue),
      ...this.hinted(),
    });
  }

  private hinted(): { hint?: string } {
    return this.hint === undefined ? {} : { hint: this.hint };
  }
}
