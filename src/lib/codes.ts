// C43: the machine-readable codes of every failure, beside SPEC's texts (which stay exactly as they
// are). A code is never renamed and never reused for another cause: a client, a translation or a
// generated validator may switch on it for ever. New causes get new codes, added at the end.
// No import at all, and in the lowest layer: the worker's validation and replies, the tool, the
// client package's tests and the OpenAPI document share this one list.

/**
 * One problem of a field in a validation failure (`data.issues[i].code`), and the parameters it
 * carries (`data.issues[i].params`), in the order of `data.errors`.
 */
export const ISSUE_CODES = {
  type: 'The value is not of the field’s type. params: {type}',
  required: 'A required field is missing.',
  unknown_field: 'The project defines no field of this name (unknown-field policy `reject`).',
  min_length: 'The text is shorter than the field’s minLength (in characters). params: {min}',
  max_length: 'The text is longer than the field’s maxLength (in characters). params: {max}',
  min: 'The number is below the field’s min. params: {min}',
  max: 'The number is above the field’s max. params: {max}',
  format: 'The text is not of the field’s format. params: {format}',
  one_of: 'The text is not one of the field’s choices. params: {values}',
  pattern: 'The text does not match the field’s pattern.',
  file_type: 'The file’s bytes are not of a type the field accepts. params: {types}',
  file_size: 'The file is larger than the field’s maxSize (in bytes). params: {max}',
  too_many_files: 'More than one file was sent for a file field.',
  duplicate_field: 'A form sent the same (non-file) name more than once.',
  unique: 'Another accepted submission holds this value of a unique field (C45).',
} as const;
export type IssueCode = keyof typeof ISSUE_CODES;

/** The cause of a single-cause failure (`data.error.code`). */
export const ERROR_CODES = {
  missing_key: 'No API key, another scheme than Bearer, or an empty one (401).',
  invalid_key: 'The API key is malformed, unknown or revoked (401).',
  invalid_credentials: 'The management API’s credential is missing or not valid (401).',
  rate_limited: 'Too many requests: retry after the Retry-After header’s seconds (429).',
  origin_not_allowed: 'The page’s Origin is not one of the project’s allowed origins (403).',
  secret_key_needed: 'The route needs a secret key; a publishable key can only submit (403).',
  secret_key_in_page: 'A secret key was sent from a web page (403).',
  no_fields: 'The project has no configured fields (400).',
  unsupported_media_type: 'The Content-Type is not one this route takes (415).',
  invalid_idempotency_key: 'The Idempotency-Key header is not 1 to 255 printable ASCII characters (400).',
  body_too_large: 'The body, the files together, or the row to store is over its limit (413).',
  file_too_large: 'A file is over its field’s maxSize, or over the largest a form takes (413).',
  invalid_json: 'The body is empty or not valid JSON (400).',
  not_an_object: 'The JSON body is not an object (400).',
  body_incomplete: 'The body broke off before its end (400).',
  invalid_form_body: 'The multipart/form-data body does not parse (400).',
  empty_submission: 'Nothing is left to store: no fields, or only unknown fields dropped (400).',
  challenge_failed: 'The Turnstile check failed (403).',
  proof_of_work_failed: 'The form requires a proof of work and it is missing, invalid or expired (400).',
  redirect_not_allowed: 'The form’s `_next` or `_error` is not on an allowed origin (400).',
  form_not_found: 'No form at this address (404).',
  in_progress: 'A request with this Idempotency-Key is still being processed: retry (409).',
  idempotency_key_reused: 'The Idempotency-Key was used with a different body (422).',
  invalid_parameter: 'A query parameter cannot be used (400).',
  invalid_request: 'The management API cannot use the input (400).',
  invalid_body: 'The body is not what the route takes (400).',
  not_found: 'Nothing here: no such path, submission, file or resource (404).',
  method_not_allowed: 'The path does not take this method; the Allow header says which (405).',
  conflict: 'The change clashes with what exists (409).',
  publishable_key_cannot_manage: 'A publishable key cannot use the management API (403).',
  operator_only: 'Creating or deleting projects needs the operator’s credentials (403).',
  cross_site_sign_in: 'A sign-in from another origin’s page (403).',
  cross_site_write: 'A change with a session cookie lacks this worker’s Origin or the CSRF token (403).',
  unavailable: 'Storage (or a check it needs) failed; nothing was stored: retry (503).',
  project_moving: 'The project is moving to another place: retry in a few seconds (503).',
  internal_error: 'An unexpected error; the message names the request id in the log (500).',
  validation_failed:
    'Fields broke their rules (400). The reply carries `errors` and `issues`, not `error`: this code is what a client reports for it.',
  form_closed:
    'C45: the form is full, not open yet, or closed (403). params: {reason: full, not_open or closed}',
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** C43: one field's problem, beside its text in `errors`. */
export type FieldIssue = { field: string; code: IssueCode; params?: Record<string, unknown> };
/** A field's problem as validation finds it: its SPEC text (C12) and its code (C43). */
export type Problem = FieldIssue & { message: string };
