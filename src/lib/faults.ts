// Faults of the services a request depends on, raised where they happen and answered 503 by the
// one error handler (C18). They know nothing of replies, so that storage code can raise them.

/** A service we depend on failed or could not be reached. */
export class UnavailableError extends Error {
  readonly service: 'd1' | 'turnstile' | 'r2';
  constructor(service: 'd1' | 'turnstile' | 'r2', cause: unknown) {
    super(`${service} unavailable`, { cause });
    this.name = 'UnavailableError';
    this.service = service;
  }
}

/** D1 failed or could not be reached (C18). */
export class StorageError extends UnavailableError {
  constructor(cause: unknown) {
    super('d1', cause);
    this.name = 'StorageError';
  }
}

/** An error as one short line for a log or an attempt record: its name and message, at most `max` characters. */
export function errorText(error: unknown, max: number): string {
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, max) : String(error);
}
