/**
 * Every expected failure of the domain is a DomainError with a stable code. Transports map the code
 * to an HTTP status (src/rest/error-status.ts) or `extensions.code` (GraphQL) in one place each.
 */
export const errorCodes = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  /** The whole request did not arrive within REQUEST_TIMEOUT_MS (answered by the HTTP server itself). */
  'REQUEST_TIMEOUT',
  /** State conflicts: the request is well formed but the current state does not allow it. */
  'CAPACITY_EXCEEDED',
  /** A publishable key's unpaid hold beyond the brand's publishable share of the session (places remain for paying at once). */
  'PUBLISHABLE_SHARE_EXHAUSTED',
  'CART_ALREADY_PAID',
  'CONFIRMATION_CODE_TAKEN',
  'BOOKING_NOT_CANCELLABLE',
  'BOOKING_NOT_PAID',
  /** Cancel requests that would change nothing: the booking, or every participant named, is already cancelled. */
  'BOOKING_ALREADY_CANCELLED',
  'PARTICIPANT_ALREADY_CANCELLED',
  /** A move the booking's state or the brand's reschedule policy does not allow (`details.rule`). */
  'RESCHEDULE_NOT_ALLOWED',
  'IDEMPOTENCY_KEY_IN_USE',
  /** A write with `If-Match` naming a version the object no longer has: nothing was written; read it again. */
  'PRECONDITION_FAILED',
  /** Sessions the brand manages: a capacity below the places taken, a write to a cancelled session, a cancel of one that started. */
  'CAPACITY_BELOW_TAKEN',
  'SESSION_CANCELLED',
  'SESSION_NOT_CANCELLABLE',
  /** Waitlists: the session has places for this party (book it instead). */
  'SESSION_AVAILABLE',
  'ALREADY_ON_WAITLIST',
  'WAITLIST_ENTRY_CLOSED',
  'WAITLIST_OFFER_NOT_AVAILABLE',
  'PAYLOAD_TOO_LARGE',
  /** A path segment longer than any id (100 characters). */
  'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE',
  /** Business-rule violations of otherwise well-formed input. */
  'IDEMPOTENCY_KEY_REUSED',
  'EXPERIENCE_NOT_BOOKABLE',
  /** The experience is archived: no new sales (its bookings stand). */
  'EXPERIENCE_ARCHIVED',
  'SESSION_NOT_FOUND',
  'SESSION_STARTED',
  /** A schedule that would make more sessions than one request may (`details.limit`). */
  'SCHEDULE_TOO_LARGE',
  'UNKNOWN_PRICE_TIER',
  'PARTICIPANT_COUNT_OUT_OF_RANGE',
  'UNKNOWN_ADD_ON',
  'INVALID_COUPON',
  'COUPON_CODE_TAKEN',
  'INVALID_CREDIT_CODE',
  'CREDIT_CODE_TAKEN',
  'INVALID_DISCOUNT',
  'ANSWER_REQUIRED',
  'INVALID_ANSWER',
  'UNKNOWN_QUESTION',
  'PARTICIPANT_NOT_IN_BOOKING',
  'REFUND_EXCEEDS_BALANCE',
  /** The brand's features.active lacks the flag the request needs (`details.flag`). */
  'FEATURE_NOT_ENABLED',
  /** Payment methods: one the gateway cannot take, one an item's experience does not accept, one it cannot check. */
  'PAYMENT_METHOD_NOT_SUPPORTED',
  'PAYMENT_METHOD_NOT_ACCEPTED',
  'PAYMENT_METHOD_NOT_VERIFIABLE',
  /** The brand asks publishable-key checkouts for a human check, and the token is missing or refused. */
  'HUMAN_CHECK_FAILED',
  /** Too many requests for the API key (or, without one, the client address) this minute: see Retry-After. */
  'RATE_LIMITED',
  /** A publishable key's client holds as many unpaid places as it may (PUBLISHABLE_HOLD_PLACES_PER_CLIENT): see Retry-After. */
  'HOLD_LIMIT_REACHED',
  /** Request line and headers above MAX_HEADER_BYTES. */
  'HEADERS_TOO_LARGE',
  'INTERNAL_SERVER_ERROR',
  /** The payment processor refused or failed; nothing was changed. */
  'PAYMENT_PROCESSOR_ERROR',
  /** The human-check provider gave no verdict (down, too slow, misconfigured); nothing was held. */
  'HUMAN_CHECK_UNAVAILABLE',
  /** The server is shutting down: retry (on another instance). */
  'SERVICE_UNAVAILABLE',
  /** The database cannot take the request now (down, restarting, full, too slow): retry after Retry-After. */
  'DATABASE_UNAVAILABLE',
  /** This gateway has more writes waiting than it queues, or the request's write could not start in time: nothing was written; retry after Retry-After. */
  'OVERLOADED',
  /** A live stream of events ended because more events waited unread than it keeps: subscribe again from the last cursor received. */
  'SLOW_CONSUMER',
  /** A live connection already has as many subscriptions open as it may (LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION): complete one first. */
  'TOO_MANY_SUBSCRIPTIONS',
  /** The key (a publishable key: its client address) has as many live connections open on this gateway as it may (LIVE_MAX_CONNECTIONS_PER_KEY). */
  'TOO_MANY_CONNECTIONS',
  /** A GraphQL query's answer above GRAPHQL_MAX_RESPONSE_BYTES: refused rather than sent; ask for less. */
  'RESPONSE_TOO_LARGE',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

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

export const notFound = (what: string, id: string) => new DomainError('NOT_FOUND', `${what} ${id} was not found`, { id });

export const invalid = (field: string, message: string) => new DomainError('VALIDATION_FAILED', message, { field });
