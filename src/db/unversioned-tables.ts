/**
 * The tables whose writes leave the data version (`Database.dataVersion`) as it was, on both engines:
 * bookings and what they write (carts, payment intents, refunds, sessions' places, events, idempotency
 * records, waitlist entries, webhook bookkeeping, the readiness heartbeat). No answer the response cache
 * keeps reads them (catalogue reads only; test/api/http/cached-answers-read.test.ts runs every one of them,
 * every field, and checks), nor does anything else kept under a version (API keys, brands). So a booking,
 * a readiness probe or a webhook attempt no longer empties the caches; a write to any other table does,
 * and so does a table added later until it is named here.
 *
 * Kept in step with SQLite's triggers (drizzle/sqlite/migrations/0018) and PostgreSQL's
 * (drizzle/postgres/migrations/0014): test/sqlite/data-generation.test.ts and
 * test/postgres/data-version.test.ts compare them.
 */
export const UNVERSIONED_TABLES: ReadonlySet<string> = new Set([
  'answers',
  'booking_reschedules',
  'bookings',
  'carts',
  'coupons',
  'credit_codes',
  'credit_redemptions',
  'events',
  'idempotency_keys',
  'participants',
  'payment_intents',
  'readiness_heartbeat',
  'refunds',
  'sessions',
  'waitlist_entries',
  'waitlists',
  'webhook_deliveries',
  'webhook_endpoints',
]);
