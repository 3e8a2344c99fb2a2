// Every reply of the service, in one place: the request path throws or sends these, and the OpenAPI
// document (src/document.ts) is generated from them, so the two cannot drift. Free of Workers types,
// so that Node code can import it.
import type { Problem } from '../lib/codes.ts';
import { ApiError, type Envelope, envelope } from './envelope.ts';
import { FORM_ADDRESS_HINT, HOME_MESSAGE, KEY_HINT, UNKNOWN_FIELD_HINT } from './hints.ts';
import { SUBMIT_PATH } from './paths.ts';

/** C21: the `period` of the limiters in wrangler.toml, in seconds (a test holds them equal). */
export const RATE_LIMIT_PERIOD_SECONDS = 10;

/** 201 (SPEC): `data` holds `message` only. */
export const created = (): Envelope => envelope(201, { message: 'Submission received' });

/** C6: every 401 names the scheme it wants. */
export const unauthorized = (
  problem: string,
  code: 'missing_key' | 'invalid_key' | 'invalid_credentials',
  hint?: string,
) => new ApiError(401, code, 'Authentication failed', problem, { 'WWW-Authenticate': 'Bearer' }, hint);
export const invalidKey = () => unauthorized('Invalid API key', 'invalid_key', KEY_HINT);
/** C6: no key at all, as the routes that take one document it. */
export const missingKey = () =>
  unauthorized("Missing API key: send it as 'Authorization: Bearer <API_KEY>'", 'missing_key');

/** C21 */
export const tooManyRequests = () =>
  new ApiError(
    429,
    'rate_limited',
    'Too many requests',
    `Rate limit exceeded: retry after ${RATE_LIMIT_PERIOD_SECONDS} seconds`,
    {
      'Retry-After': String(RATE_LIMIT_PERIOD_SECONDS),
    },
  );

/** C23: a route that reads or erases submissions, called with a key that can only submit. */
export const secretKeyNeeded = () =>
  new ApiError(
    403,
    'secret_key_needed',
    'Request refused',
    'This route needs a secret key (edgeform_sk_…); a publishable key can only submit',
  );

/** C23: a secret key seen in a browser request: refused, so that the mistake shows before it leaks data. */
export const secretKeyInPage = () =>
  new ApiError(
    403,
    'secret_key_in_page',
    'Request refused',
    'A secret key must never be used in a web page: use a publishable key (edgeform_pk_…) there',
  );

/** C15 */
export const originNotAllowed = () =>
  new ApiError(403, 'origin_not_allowed', 'Request refused', 'Origin not allowed');

/** C5 step 4 */
export const notConfigured = () =>
  new ApiError(400, 'no_fields', 'Project not configured', 'No fields were found for this project');

/** C9 */
export const unsupportedMediaType = () =>
  new ApiError(
    415,
    'unsupported_media_type',
    'Unsupported media type',
    'Content-Type must be application/json',
  );

/** C9: the submit path's 415, with where a form's post goes beside it (C43). */
export const submitNeedsJson = () =>
  new ApiError(
    415,
    'unsupported_media_type',
    'Unsupported media type',
    'Content-Type must be application/json',
    {},
    FORM_ADDRESS_HINT,
  );

/** C16: the worker's own address, to a client that asks for JSON (src/http/home.ts). */
export const homeReply = (): Envelope => envelope(200, { message: HOME_MESSAGE });

/** C29: the HTML form endpoint takes what a form sends. */
export const notAForm = () =>
  new ApiError(
    415,
    'unsupported_media_type',
    'Unsupported media type',
    'Content-Type must be application/x-www-form-urlencoded or multipart/form-data',
  );
/** C29: a multipart body that does not parse. */
export const malformedForm = () =>
  new ApiError(
    400,
    'invalid_form_body',
    'Invalid request body',
    'Request body is not valid multipart/form-data',
  );
/** C29: a form address that no project has. */
export const formNotFound = () => new ApiError(404, 'form_not_found', 'Not found', 'No form at this address');

/** C45: a form outside its limits: full, not open yet, or closed (`params.reason`). */
export const formClosed = (reason: 'full' | 'not_open' | 'closed') =>
  new ApiError(403, 'form_closed', 'Request refused', CLOSED[reason] ?? CLOSED.closed, {}, undefined, {
    reason,
  });
const CLOSED = {
  full: 'This form is full: it takes no more submissions',
  not_open: 'This form is not open yet',
  closed: 'This form is closed',
};

/** C29: a redirect the form asked for that is not on one of the project's allowed origins. */
export const redirectNotAllowed = (control: string) =>
  new ApiError(
    400,
    'redirect_not_allowed',
    'Invalid request body',
    `Field '${control}' must be a URL on one of the allowed origins`,
  );
/** C30: a file over its field's `maxSize` (the message of the rule), or over the largest a form takes. */
export const fileTooLarge = (message: string) =>
  new ApiError(413, 'file_too_large', 'Request body too large', message);
/** C30: the files of one submission, together, are over MAX_UPLOAD_BYTES. */
export const uploadTooLarge = (maxBytes: number) =>
  new ApiError(
    413,
    'body_too_large',
    'Request body too large',
    `The files of a submission must not exceed ${maxBytes} bytes`,
  );

/** C20: the form of an Idempotency-Key. */
export const invalidIdempotencyKey = () =>
  new ApiError(
    400,
    'invalid_idempotency_key',
    'Invalid request header',
    'Idempotency-Key must be 1 to 255 printable ASCII characters',
  );

/** C44: a body of another media type than the route takes, saying which it takes and why. */
export const unsupportedMediaTypeBecause = (problem: string) =>
  new ApiError(415, 'unsupported_media_type', 'Unsupported media type', problem);

/** C44: a body over a limit of the route's own, saying what the limit is for. */
export const tooLargeBecause = (problem: string) =>
  new ApiError(413, 'body_too_large', 'Request body too large', problem);

/** C10 */
export const tooLarge = (maxBytes: number) =>
  new ApiError(
    413,
    'body_too_large',
    'Request body too large',
    `Request body must not exceed ${maxBytes} bytes`,
  );

/** C10 + C18: what would be stored is over what D1 can hold in a row (numbers can grow when written out). */
export const tooLargeToStore = () =>
  new ApiError(
    413,
    'body_too_large',
    'Request body too large',
    'Submission is too large to store: send fewer or shorter values',
  );

/** C11 */
export const notJson = () =>
  new ApiError(400, 'invalid_json', 'Invalid request body', 'Request body is not valid JSON');
export const notObject = () =>
  new ApiError(400, 'not_an_object', 'Invalid request body', 'Request body must be a JSON object');
/** C11: the body broke off before its end (the client hung up, or its connection failed). */
export const bodyBrokenOff = () =>
  new ApiError(400, 'body_incomplete', 'Invalid request body', 'Request body was not received in full');
export const noFields = () =>
  new ApiError(400, 'empty_submission', 'Invalid request body', 'Submission has no fields');

/** C12: every field problem at once. */
export const validationFailed = (problems: readonly Problem[]) =>
  new ApiError(
    400,
    'validation_failed',
    'Validation failed',
    problems,
    {},
    Array.from(problems).some((p) => p.code === 'unknown_field') ? UNKNOWN_FIELD_HINT : undefined,
  );

/** C22 */
export const spamCheckFailed = () =>
  new ApiError(403, 'challenge_failed', 'Request refused', 'Spam check failed');

/** C39: a project that requires a proof of work, and a submission without a valid one. */
export const proofOfWorkFailed = (why: 'missing' | 'invalid' | 'expired') =>
  new ApiError(
    400,
    'proof_of_work_failed',
    'Invalid request body',
    why === 'missing'
      ? "This form requires a proof of work (the 'altcha' field): send it through /widget.js, which solves it"
      : `The proof of work (the 'altcha' field) is ${why}: reload the page, or let /widget.js solve a new one`,
  );

/** C20 */
export const inProgress = () =>
  new ApiError(
    409,
    'in_progress',
    'Request in progress',
    'A request with this Idempotency-Key is still being processed; retry shortly',
    {
      'Retry-After': '1',
    },
  );
export const idempotencyKeyReused = () =>
  new ApiError(
    422,
    'idempotency_key_reused',
    'Idempotency-Key reused',
    'This Idempotency-Key was already used with a different request body',
  );

/** C18: D1 (or Turnstile's siteverify) failed or could not be reached. */
export const unavailable = (retryAfterSeconds = 5) =>
  new ApiError(503, 'unavailable', 'Submission not saved', 'Service temporarily unavailable', {
    'Retry-After': String(retryAfterSeconds),
  });

/** C41: how soon a request refused while its project moves is worth trying again. */
export const MOVING_RETRY_SECONDS = 2;

/** C41: the project is being moved to another place; the retry (with its Idempotency-Key) is safe. */
export const projectMoving = () =>
  new ApiError(
    503,
    'project_moving',
    'Submission not saved',
    "The form's data is being moved to another place; retry in a few seconds",
    { 'Retry-After': String(MOVING_RETRY_SECONDS) },
  );

/** C18: anything else; the id finds the log line. */
export const internalError = (requestId: string) =>
  new ApiError(
    500,
    'internal_error',
    'Internal server error',
    `Unexpected error; it has been logged as request ${requestId}`,
  );

/** C24: a query parameter of the read API that cannot be used, named. */
export const invalidParameter = (name: string, expected: string) =>
  new ApiError(400, 'invalid_parameter', 'Invalid request', `Query parameter '${name}' ${expected}`);
/** C24: no submission with that id in the key's project (another project's looks the same: none). */
export const submissionNotFound = () =>
  new ApiError(404, 'not_found', 'Not found', 'No submission with this id in this project');
/** C30: a field of the submission that holds no file. */
export const fileNotFound = (field: string) =>
  new ApiError(404, 'not_found', 'Not found', `No file in field '${field}' of this submission`);
/** C25: the body of an erasure. */
export const invalidErasure = () =>
  new ApiError(
    400,
    'invalid_body',
    'Invalid request body',
    'Body must be a JSON object {"field": "<name>", "value": <a string, number, boolean or null>}',
  );
/** C16 */
export const methodNotAllowed = (method: string) =>
  new ApiError(
    405,
    'method_not_allowed',
    'Method not allowed',
    `Method ${method} is not allowed here: submit with POST`,
    { Allow: 'POST, OPTIONS' },
  );
/** C16 + C24: the read API's paths and the methods each allows. */
export const readMethodNotAllowed = (method: string, allow: string) =>
  new ApiError(
    405,
    'method_not_allowed',
    'Method not allowed',
    `Method ${method} is not allowed here: use ${allow}`,
    { Allow: allow },
  );
export const notFound = () =>
  new ApiError(404, 'not_found', 'Not found', `No endpoint here: submit with POST ${SUBMIT_PATH}`);

// ---- The management API (C32) ----

/** C32: no credential, or one that is not valid. */
export const invalidCredentials = () => unauthorized('Invalid credentials', 'invalid_credentials');

/** C32: a publishable key can only submit. */
export const publishableKeyCannotManage = () =>
  new ApiError(
    403,
    'publishable_key_cannot_manage',
    'Request refused',
    'A publishable key cannot manage projects: use a secret key (edgeform_sk_…) or the operator token',
  );

/** C32: creating or deleting projects is the operator's. */
export const operatorOnly = () =>
  new ApiError(
    403,
    'operator_only',
    'Request refused',
    "A secret key manages its own project only: creating or deleting projects needs the operator's credentials",
  );

/** C37: a sign-in from another origin's page: a browser must not trade a credential for a session there. */
export const crossSiteSignIn = () =>
  new ApiError(
    403,
    'cross_site_sign_in',
    'Request refused',
    'Sign in from this worker’s own pages (or from no page at all): another origin’s page cannot make a session',
  );

/** C32: a change made with a session cookie, without the worker's own Origin or the CSRF token. */
export const crossSiteWrite = () =>
  new ApiError(
    403,
    'cross_site_write',
    'Request refused',
    'A change made with a session cookie needs this worker’s own Origin and the X-CSRF-Token header',
  );

/** C19, C32: input an operation cannot use, in the sentence the tool prints too. */
export const invalidRequest = (problem: string) =>
  new ApiError(400, 'invalid_request', 'Invalid request', problem);
/** C19, C32: what the request names does not exist (or is another project's). */
export const notFoundHere = (problem: string) => new ApiError(404, 'not_found', 'Not found', problem);
/** C19, C32: the change clashes with what exists (a name taken, a cap reached). */
export const conflict = (problem: string) => new ApiError(409, 'conflict', 'Conflict', problem);
/** C32: a body that is not what the route takes; the problem names the member. */
export const invalidBody = (problem: string) =>
  new ApiError(400, 'invalid_body', 'Invalid request body', problem);

/** C18, C32: D1 (or Access's keys) failed or could not be reached: nothing was changed. */
export const manageUnavailable = (retryAfterSeconds = 5) =>
  new ApiError(503, 'unavailable', 'Service unavailable', 'Service temporarily unavailable', {
    'Retry-After': String(retryAfterSeconds),
  });
