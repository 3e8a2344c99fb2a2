// The codes the catalogue words for a visitor: every issue of a field (C43), a field's problem in
// general, and the single causes a visitor can meet (the others are the site's, not the visitor's).

/** An issue's code (C43), as `data.issues[i].code` carries it. */
export type IssueCode =
  | 'type'
  | 'required'
  | 'unknown_field'
  | 'min_length'
  | 'max_length'
  | 'min'
  | 'max'
  | 'format'
  | 'one_of'
  | 'pattern'
  | 'file_type'
  | 'file_size'
  | 'too_many_files'
  | 'duplicate_field'
  | 'unique';

/** A single cause a visitor can meet (C43), `network_error` (the client's own) and `unknown` (any other). */
export type CauseCode =
  | 'validation_failed'
  | 'rate_limited'
  | 'invalid_key'
  | 'origin_not_allowed'
  | 'body_too_large'
  | 'file_too_large'
  | 'challenge_failed'
  | 'proof_of_work_failed'
  | 'unavailable'
  | 'form_not_found'
  | 'form_closed'
  | 'internal_error'
  | 'network_error'
  | 'unknown';

/** `invalid` words a field's problem whose code is newer than the catalogue, or whose parameters are missing. */
export type MessageCode = IssueCode | 'invalid' | CauseCode;

/**
 * One language's templates (fill.ts): `label` is how the language names a field, as the subject of
 * its sentences: `{label}` in it is the label (or name) given, `''` when none was; every other
 * template's `{label}` is replaced by it.
 */
export type Templates = Record<MessageCode | 'label', string>;
