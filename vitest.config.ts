import { defineConfig } from 'vitest/config';

/**
 * Two projects. `sqlite` runs every test file. `postgresql` runs the store contract and the API behaviour
 * tests again with the app on PostgreSQL (test/support/engine.ts): only when TEST_POSTGRES_URL names a
 * server, or when TESSERA_REQUIRE_POSTGRES=1 asks for one (then its absence fails them instead).
 */
const postgres = Boolean(process.env.TEST_POSTGRES_URL) || process.env.TESSERA_REQUIRE_POSTGRES === '1';

/**
 * API test files that run on SQLite only: they check what a request did by reading the SQLite world back
 * (rows, events, deliveries, statements counted or explained), or change its rows mid-test (a brand's
 * flags, a dropped table), which the copy on PostgreSQL does not follow (test/support/engine.ts). What
 * they cover on PostgreSQL is covered there by test/contract, test/postgres (each store against SQLite's
 * answers, two gateway processes on one database) and the other API files.
 */
const sqliteOnly = [
  'test/api/access/secret-comparison.test.ts',
  'test/api/availability/availability.test.ts',
  'test/api/bookings/bookings-list.test.ts',
  'test/api/bookings/carts-bookings-rest.test.ts',
  'test/api/bookings/reschedule.test.ts',
  'test/api/cancellation/cancel.test.ts',
  'test/api/cancellation/refund-reconciliation.test.ts',
  'test/api/cancellation/refunds.test.ts',
  'test/api/catalog/brand-features.test.ts',
  'test/api/checkout/checkout-carts.test.ts',
  'test/api/checkout/checkout-holds.test.ts',
  'test/api/checkout/checkout-race.test.ts',
  'test/api/checkout/checkout-totals.test.ts',
  'test/api/checkout/checkout-validation.test.ts',
  'test/api/checkout/checkout.test.ts',
  'test/api/demo/demo-acceptance.test.ts',
  'test/api/graphql/graphql-protections-production.test.ts',
  'test/api/http/errors.test.ts',
  'test/api/http/response-cache.test.ts',
  'test/api/idempotency/idempotency-takeover.test.ts',
  'test/api/idempotency/idempotency.test.ts',
  'test/api/operations/key-rotation.test.ts',
  'test/api/operations/log-redaction.test.ts',
  'test/api/operations/observability-access.test.ts',
  'test/api/operations/observability-business.test.ts',
  'test/api/operations/observability-logs.test.ts',
  'test/api/outbox/events-cancellation.test.ts',
  'test/api/outbox/events-checkout.test.ts',
  'test/api/payments/payment-methods.test.ts',
  'test/api/payments/payments-e2e.test.ts',
  'test/api/payments/payments.test.ts',
  'test/api/questions/custom-questions.test.ts',
  'test/api/waitlists/waitlists-join.test.ts',
  'test/api/waitlists/waitlists-offers.test.ts',
  'test/api/waitlists/waitlists-read.test.ts',
  'test/api/webhooks/webhook-delivery-failures.test.ts',
  'test/api/webhooks/webhook-delivery.test.ts',
  'test/api/webhooks/webhooks-endpoints.test.ts',
  'test/api/webhooks/webhooks.test.ts',
];

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build (the package has no "exports" map), and so do Apollo and its
    // friends; Vite would give our sources the ESM build, and two graphql copies refuse each other's schema
    // objects ("Cannot use GraphQLObjectType from another module or realm").
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgresql',
                include: ['test/api/**/*.test.ts'],
                exclude: sqliteOnly,
                env: { TESSERA_TEST_ENGINE: 'postgresql' },
              },
            },
          ]
        : []),
    ],
  },
});
