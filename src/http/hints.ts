// What to do instead, said beside SPEC's texts (C43): a reply's `hint`, for the developer who reads
// it. Never part of a text a client may compare; each names where the thing is done.

/** Where keys come from, beside SPEC's text (C43). */
export const KEY_HINT =
  "A project's keys are made in the dashboard (the project's Keys) or with `npm run forms -- key create <project>`: edgeform_pk_… to submit, edgeform_sk_… to read";
/** The submit path's 415: JSON only; a form's post goes to its form address (C29), said beside (C43). */
export const FORM_ADDRESS_HINT =
  "An HTML form's post (application/x-www-form-urlencoded or multipart/form-data) goes to the project's form address, /f/<form-id>; this path takes JSON";
/** C28: what to do about a field the project does not define, beside its problem (C43). */
export const UNKNOWN_FIELD_HINT =
  "A field the project does not define is refused: define it, or have the project drop such fields (unknown fields: discard, in the dashboard's Behaviour settings or `npm run forms -- project set <project> --unknown-fields discard`)";
/** C16: the worker's own address, to a client that asks for JSON (src/http/home.ts). */
export const HOME_MESSAGE =
  'This is an edge-forms worker: JSON submissions go to /api/v1/submit, HTML forms to /f/<form-id>; the dashboard is at /admin/, the API reference at /reference/';
