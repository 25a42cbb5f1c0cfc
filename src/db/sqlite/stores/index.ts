import type { SqliteStores } from '../store-binding.ts';
import { apiKeysStore } from './access/api-keys.ts';
import { bookingsStore } from './bookings/bookings.ts';
import { brandsStore } from './catalog/brands.ts';
import {
  brandWritesStore,
  couponWritesStore,
  creditCodeWritesStore,
  experienceWritesStore,
  hostWritesStore,
  listingWritesStore,
} from './catalog/catalog-writes.ts';
import { cancellationStore } from './cancellation/cancellation.ts';
import { capacityStore } from './availability/capacity.ts';
import { cartsStore } from './bookings/carts.ts';
import { reschedulesStore } from './bookings/reschedules.ts';
import { checkoutStore } from './checkout/checkout.ts';
import { eventsStore } from './outbox/events.ts';
import { experiencesStore } from './catalog/experiences.ts';
import { holdsStore } from './checkout/holds.ts';
import { hostsStore } from './catalog/hosts.ts';
import { idempotencyStore } from './idempotency/idempotency.ts';
import { listingsStore } from './catalog/listings.ts';
import { operationsStore } from './operations/operations.ts';
import { organizationsStore } from './access/organizations.ts';
import { paymentsStore } from './payments/payments.ts';
import { questionsStore } from './questions/questions.ts';
import { refundsStore } from './cancellation/refunds.ts';
import { reviewStatsStore } from './catalog/review-stats.ts';
import { reviewsStore } from './catalog/reviews.ts';
import { sessionsStore } from './availability/sessions.ts';
import { sessionWritesStore } from './availability/session-writes.ts';
import { waitlistsStore } from './waitlists/waitlists.ts';
import { webhookDispatchStore } from './webhooks/dispatch.ts';
import { webhooksStore } from './webhooks/webhooks.ts';

/** Every store of the port, as the SQLite adapter implements it. */
export const sqliteStores: SqliteStores = {
  apiKeys: apiKeysStore,
  organizations: organizationsStore,
  capacity: capacityStore,
  sessions: sessionsStore,
  sessionWrites: sessionWritesStore,
  bookings: bookingsStore,
  carts: cartsStore,
  reschedules: reschedulesStore,
  cancellation: cancellationStore,
  refunds: refundsStore,
  brands: brandsStore,
  experiences: experiencesStore,
  experienceWrites: experienceWritesStore,
  hosts: hostsStore,
  listings: listingsStore,
  listingWrites: listingWritesStore,
  brandWrites: brandWritesStore,
  hostWrites: hostWritesStore,
  couponWrites: couponWritesStore,
  creditCodeWrites: creditCodeWritesStore,
  reviewStats: reviewStatsStore,
  reviews: reviewsStore,
  checkout: checkoutStore,
  holds: holdsStore,
  idempotency: idempotencyStore,
  operations: operationsStore,
  events: eventsStore,
  payments: paymentsStore,
  questions: questionsStore,
  waitlists: waitlistsStore,
  webhookDispatch: webhookDispatchStore,
  webhooks: webhooksStore,
};
