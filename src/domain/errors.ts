/**
 * Every expected failure of the domain is a DomainError with a stable code. Transports map the code
 * to an HTTP status (REST) or `extensions.code` (GraphQL) in one place each.
 */
export const errorStatus = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL_SERVER_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface ErrorDetails {
  /** The input field the error concerns, as a dotted path (`bookings.0.bookingId`) or parameter name. */
  field?: string;
  [key: string]: unknown;
}

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.details = details;
  }
}

export const notFound = (what: string, id: string) =>
  new DomainError('NOT_FOUND', `${what} ${id} was not found`, { id });

export const invalid = (field: string, message: string) =>
  new DomainError('VALIDATION_FAILED', message, { field });
