// The service's route paths, in one place: the app mounts its surfaces at these, and the code that
// links to a route (a reply naming where to submit, a webhook's link to a submission, a verification
// link) names it from here. Free of Workers types, so that Node code can import it.

export const SUBMIT_PATH = '/api/v1/submit';
/** C40: form analytics' events, from the widget. */
export const EVENTS_PATH = '/api/v1/events';
/** C39: the widget's token (and a proof-of-work challenge). */
export const WIDGET_TOKEN_PATH = '/api/v1/widget-token';
/** C46: a hosted page's drafts (partial submissions), saved and opened by /widget/steps.js. */
export const DRAFTS_PATH = '/api/v1/drafts';
export const DRAFT_OPEN_PATH = '/api/v1/drafts/open';
/** C43: the key's project's submission as JSON Schema, for pages (with CORS) and servers. */
export const SCHEMA_PATH = '/api/v1/schema';
/** C24: the read API, for servers: its replies carry no CORS headers. */
export const READ_PATH = '/api/v1/submissions';

/** C32: the paths of the management API and of its sessions. */
export const MANAGE_PATH = '/api/v1/projects';
export const SESSION_PATH = '/api/v1/session';
/** C41: the operator's view of the places (their databases' size). */
export const PLACES_PATH = '/api/v1/places';
/** C37: where a notification address's verification link leads. */
export const VERIFY_PATH = '/verify';
