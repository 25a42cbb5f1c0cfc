/**
 * The PostgreSQL mirror of src/db/sqlite/schema, the source of truth: the same tables, columns,
 * TypeScript property names, keys, indexes and CHECKs, in types PostgreSQL has.
 *
 * - Ids stay `text`, not `uuid`: the demo data and the factories use UUIDs, but ids also come from
 *   clients and tests (`b-1`, `evt_1`), and a `uuid` column would turn a lookup of such an id into a
 *   syntax error instead of "not found".
 * - Money stays `integer` minor units, as on SQLite. `SUM()` of an integer column is a `bigint`, which
 *   node-postgres returns as a string: stores cast sums back to numbers.
 * - Instants (`*_at`, `reviewed_at`, `experienced_date`) are `timestamptz` to the millisecond, read back as
 *   ISO 8601 UTC strings (schema/columns.ts); local date-times and dates
 *   (`start_local`, `event_start_date`) and coupon validity (an instant or a day) stay `text`.
 * - Enumerated strings stay `text` with Drizzle's `enum` typing, as on SQLite: adding a value needs no
 *   `ALTER TYPE`.
 * - JSON columns are `json` with the same `$type`: `json` keeps the keys in the order they were written,
 *   as SQLite's text does, so both engines give clients the same bytes (`jsonb` reorders keys); no query
 *   looks inside them, so `jsonb`'s operators and indexes would buy nothing.
 */
export * from './catalog.ts';
export * from './access.ts';
export * from './questions.ts';
export * from './availability.ts';
export * from './checkout.ts';
export * from './bookings.ts';
export * from './cancellation.ts';
export * from './idempotency.ts';
export * from './waitlists.ts';
export * from './outbox.ts';
export * from './webhooks.ts';
export * from './operations.ts';
