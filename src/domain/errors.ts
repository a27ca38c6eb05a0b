/**
 * @module domain/errors
 * The domain's single error catalogue. Every failure a command can report is
 * a `DomainError` with a stable `code`; the HTTP layer maps codes to statuses
 * and problem types, the CLI prints them. Nothing here knows about HTTP.
 */

export type DomainErrorCode =
  | 'validation_failed'
  | 'not_found'
  | 'conflict'
  | 'unauthorized'
  | 'forbidden'
  | 'rate_limited'
  | 'quota_exceeded';

export interface FieldError {
  /** Field name in domain terms (camelCase); versions may rename it. */
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class ValidationError extends DomainError {
  constructor(fieldErrors: FieldError[], message = 'The request is not valid.') {
    super('validation_failed', message, fieldErrors);
  }
  static field(field: string, message: string): ValidationError {
    return new ValidationError([{ field, message }], message);
  }
}

export class NotFoundError extends DomainError {
  constructor(readonly resource: string, message = `No such ${resource}.`) {
    super('not_found', message);
  }
}

export class ConflictError extends DomainError {
  constructor(readonly field: string, message: string) {
    super('conflict', message, [{ field, message }]);
  }
}

export class UnauthorizedError extends DomainError {
  constructor() {
    super('unauthorized', 'Missing, unknown, expired or revoked API credentials.');
  }
}

/** The actor is known but may not do this (see policies.ts). */
export class ForbiddenError extends DomainError {
  constructor(message = 'You may not do this.') {
    super('forbidden', message);
  }
}
