// Faults of the services a request depends on, raised where they happen and answered 503 by the
// one error handler (C18). They know nothing of replies, so that storage code can raise them.

/** What may be unavailable: a service, or (C39) the operator's secret the widget's checks are signed with. */
type Service = 'd1' | 'turnstile' | 'r2' | 'access' | 'secret';

/** A service we depend on failed or could not be reached. */
export class UnavailableError extends Error {
  readonly service: Service;
  constructor(service: Service, cause: unknown) {
    super(`${service} unavailable`, { cause });
    this.name = 'UnavailableError';
    this.service = service;
  }
}

/** C41: the project is being moved to another place: its changes wait until it is there (503). */
export class ProjectMoving extends UnavailableError {
  constructor(projectId: string, to: string | null) {
    super('d1', new Error(`project '${projectId}' is being moved${to === null ? '' : ` to '${to}'`}`));
    this.name = 'ProjectMoving';
    this.message = `Project '${projectId}' is being moved${to === null ? '' : ` to the place '${to}'`}: try again in a minute`;
  }
}

/**
 * C41: a request's key (cached in this isolate) led to a place its project has left: moved
 * elsewhere (`moved`: the retry finds it there, 503 once) or deleted (the key is no more, 401).
 */
export class ProjectLeft extends UnavailableError {
  readonly moved: boolean;
  constructor(projectId: string, moved: boolean) {
    super('d1', new Error(`project '${projectId}' ${moved ? 'moved to another place' : 'was deleted'}`));
    this.name = 'ProjectLeft';
    this.moved = moved;
  }
}

/** D1 failed or could not be reached (C18). */
export class StorageError extends UnavailableError {
  constructor(cause: unknown) {
    super('d1', cause);
    this.name = 'StorageError';
  }
}

/**
 * D1 refused a statement for what it asked (a constraint, a value too big): D1 itself is working,
 * so this is never an outage and never answered as one (C18, C26); its cause says what.
 */
export class QueryRefused extends Error {
  constructor(cause: unknown) {
    super('d1 refused the statement', { cause });
    this.name = 'QueryRefused';
  }
}

/** An error as one short line for a log or an attempt record: its name and message, at most `max` characters. */
export function errorText(error: unknown, max: number): string {
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, max) : String(error);
}

/**
 * C8: the innermost cause of an error, as one short line. Drizzle's query errors quote the bound
 * parameters, which are the submitted values: they must never reach a log.
 */
export function causeText(error: unknown, max: number): string {
  let inner: unknown = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  return errorText(inner, max);
}

/**
 * Input that cannot be used, in one sentence that says why and what would do: the command-line
 * tool prints it and exits 2, the management API answers 400 with it (C19).
 */
export class InvalidInput extends Error {
  override name = 'InvalidInput';
}

/**
 * What the input names does not exist (a project, a field, a target): exit 2, or 404 (C19).
 * `hint`: where the tool's user finds what does (`see: forms project list`).
 */
export class NotFound extends Error {
  override name = 'NotFound';
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}

/** The change clashes with what exists (a field or origin already there, a cap reached): exit 2, or 409. */
export class Conflict extends Error {
  override name = 'Conflict';
}
