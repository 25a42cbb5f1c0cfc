/**
 * Tables of the booking domain. Columns are snake_case in SQL and camelCase in TypeScript.
 * Money columns end in `Minor` and hold integer minor units of the owning brand's currency.
 * JSON columns hold small value objects that are always read and written whole.
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
