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
