/**
 * The HTTP status of every error code, for REST answers and for the HTTP server's own refusals (the
 * GraphQL face carries the code in `extensions.code`). Every code has one: the type says so.
 */
import type { ErrorCode } from '../domain/shared/errors.ts';

export const errorStatus: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  /** The whole request did not arrive within REQUEST_TIMEOUT_MS (answered by the HTTP server itself). */
  REQUEST_TIMEOUT: 408,
  /** State conflicts: the request is well formed but the current state does not allow it. */
  CAPACITY_EXCEEDED: 409,
  PUBLISHABLE_SHARE_EXHAUSTED: 409,
  CART_ALREADY_PAID: 409,
  CONFIRMATION_CODE_TAKEN: 409,
  COUPON_CODE_TAKEN: 409,
  CREDIT_CODE_TAKEN: 409,
  BOOKING_NOT_CANCELLABLE: 409,
  BOOKING_NOT_PAID: 409,
  /** Cancel requests that would change nothing: the booking, or every participant named, is already cancelled. */
  BOOKING_ALREADY_CANCELLED: 409,
  PARTICIPANT_ALREADY_CANCELLED: 409,
  /** A move the booking's state or the brand's reschedule policy does not allow (`details.rule`). */
  RESCHEDULE_NOT_ALLOWED: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  /** A write with `If-Match` naming a version the object no longer has: nothing was written; read it again. */
  PRECONDITION_FAILED: 412,
  /** Sessions the brand manages: a capacity below the places taken, a write to a cancelled session, a cancel of one that started. */
  CAPACITY_BELOW_TAKEN: 409,
  SESSION_CANCELLED: 409,
  SESSION_NOT_CANCELLABLE: 409,
  /** Waitlists: the session has places for this party (book it instead). */
  SESSION_AVAILABLE: 409,
  ALREADY_ON_WAITLIST: 409,
  WAITLIST_ENTRY_CLOSED: 409,
  WAITLIST_OFFER_NOT_AVAILABLE: 409,
  PAYLOAD_TOO_LARGE: 413,
  /** A path segment longer than any id (100 characters). */
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Business-rule violations of otherwise well-formed input. */
  IDEMPOTENCY_KEY_REUSED: 422,
  EXPERIENCE_NOT_BOOKABLE: 422,
  EXPERIENCE_ARCHIVED: 422,
  SESSION_NOT_FOUND: 422,
  SESSION_STARTED: 422,
  SCHEDULE_TOO_LARGE: 422,
  UNKNOWN_PRICE_TIER: 422,
  PARTICIPANT_COUNT_OUT_OF_RANGE: 422,
  UNKNOWN_ADD_ON: 422,
  INVALID_COUPON: 422,
  INVALID_CREDIT_CODE: 422,
  INVALID_DISCOUNT: 422,
  ANSWER_REQUIRED: 422,
  INVALID_ANSWER: 422,
  UNKNOWN_QUESTION: 422,
  PARTICIPANT_NOT_IN_BOOKING: 422,
  REFUND_EXCEEDS_BALANCE: 422,
  /** The brand's features.active lacks the flag the request needs (`details.flag`). */
  FEATURE_NOT_ENABLED: 422,
  /** Payment methods: one the gateway cannot take, one an item's experience does not accept, one it cannot check. */
  PAYMENT_METHOD_NOT_SUPPORTED: 422,
  PAYMENT_METHOD_NOT_ACCEPTED: 422,
  PAYMENT_METHOD_NOT_VERIFIABLE: 422,
  /** The brand asks publishable-key checkouts for a human check, and the token is missing or refused. */
  HUMAN_CHECK_FAILED: 403,
  /** Too many requests for the API key (or, without one, the client address) this minute: see Retry-After. */
  RATE_LIMITED: 429,
  /** A publishable key's client holds as many unpaid places as it may (PUBLISHABLE_HOLD_PLACES_PER_CLIENT): see Retry-After. */
  HOLD_LIMIT_REACHED: 429,
  /** Request line and headers above MAX_HEADER_BYTES. */
  HEADERS_TOO_LARGE: 431,
  INTERNAL_SERVER_ERROR: 500,
  /** The payment processor refused or failed; nothing was changed. */
  PAYMENT_PROCESSOR_ERROR: 502,
  /** The human-check provider gave no verdict (down, too slow, misconfigured); nothing was held. */
  HUMAN_CHECK_UNAVAILABLE: 502,
  /** The server is shutting down: retry (on another instance). */
  SERVICE_UNAVAILABLE: 503,
  /** The database cannot take the request now: retry after Retry-After. */
  DATABASE_UNAVAILABLE: 503,
  /** Too many writes wait on this gateway, or this one could not start in time: nothing was written; retry after Retry-After. */
  OVERLOADED: 503,
  /** A live event stream (a subscription, not a REST answer) fell too far behind: resume from its last cursor. */
  SLOW_CONSUMER: 503,
  /** Live connections only (subscriptions, not REST answers): too many subscriptions on one connection. */
  TOO_MANY_SUBSCRIPTIONS: 429,
  /** Live connections only: too many live connections of one key on this gateway. */
  TOO_MANY_CONNECTIONS: 429,
  /** GraphQL only (REST lists are paged): a query's answer above GRAPHQL_MAX_RESPONSE_BYTES. */
  RESPONSE_TOO_LARGE: 400,
};
