/**
 * The database port: what the domain asks of a database, in the domain's own types. Each area states its
 * stores in its own folder (`src/domain/<area>/store.ts`: async methods taking and returning plain
 * records); here they are gathered, with the unit of work that runs a function on the same stores bound
 * to one transaction, and a data version that tells caches whether anything may have changed.
 *
 * It states what a caller may rely on, never how an engine provides it. Every adapter
 * (`src/db/<engine>`) meets all of it, and `test/contract` runs the same specification on each. What the
 * contract promises, besides each method's own comment:
 * - Lists come in the order their method names. Where that order compares text (ids, codes, names), it
 *   compares the text's bytes (UTF-8 code units, `'B' < 'a'`), whatever the engine's collation.
 * - Instants are ISO 8601 UTC strings with milliseconds (`2026-01-15T10:00:00.000Z`); JSON values come
 *   back with their keys in the order they were written.
 * - A guard ("if that many remain", "if the balance covers it", "if still pending") is atomic: the check
 *   and the write it allows happen as one step, so of calls racing on any number of gateways only those
 *   the guard allows take effect, inside a unit of work or outside one.
 */
import type { ApiKeysStore, OrganizationsStore } from '../access/store.ts';
import type { CapacityStore, SessionsStore, SessionWritesStore } from '../availability/store.ts';
import type { BookingsStore, CartsStore, ReschedulesStore } from '../bookings/store.ts';
import type { CancellationStore, RefundsStore } from '../cancellation/store.ts';
import type {
  BrandsStore,
  BrandWritesStore,
  CouponWritesStore,
  CreditCodeWritesStore,
  ExperienceWritesStore,
  ExperiencesStore,
  HostsStore,
  HostWritesStore,
  ListingsStore,
  ListingWritesStore,
  ReviewStatsStore,
  ReviewsStore,
} from '../catalog/store.ts';
import type { CheckoutStore, HoldsStore } from '../checkout/store.ts';
import type { IdempotencyStore } from '../idempotency/store.ts';
import type { OperationsStore } from '../operations/store.ts';
import type { EventsStore } from '../outbox/store.ts';
import type { PaymentsStore } from '../payments/store.ts';
import type { QuestionsStore } from '../questions/store.ts';
import type { WaitlistsStore } from '../waitlists/store.ts';
import type { WebhookDispatchStore, WebhooksStore } from '../webhooks/store.ts';

/**
 * A call the database could not take now: unreachable, restarting, out of disk or connections, or too slow
 * (a statement timed out). Adapters reject with it (the failure they met is its `cause`), and transports
 * answer 503 DATABASE_UNAVAILABLE with Retry-After: the client should retry. A unit of work rejected with
 * it wrote nothing, unless its COMMIT itself was cut off, when it may have committed: a retry under the
 * same Idempotency-Key is safe either way. `connect` (src/db/connect.ts) throws it too, when a database
 * cannot be reached or prepared at start.
 */
export class DatabaseUnavailableError extends Error {}

/**
 * A write this gateway did not run, so nothing of it was written: it waited for its turn longer than it
 * may, or the deadline it was given passed (the client left, or the request ran out of time) before it
 * committed; transports also refuse with it a write request arriving while too many are in flight.
 * Transports answer 503 OVERLOADED with Retry-After: the client may retry, here or on another gateway.
 */
export class DatabaseOverloadedError extends Error {}

/** How a unit of work is run. */
export interface UnitOptions {
  /**
   * The deadline of the request the unit serves: once it is aborted (its client left, or the request
   * ran out of time) nobody waits for the unit's answer. A unit with a deadline waits a bounded time for
   * its turn, and is dropped, without writing anything, if the deadline passes before it commits; both
   * reject with DatabaseOverloadedError. A unit without one (background work, `finishingUnit`) waits for
   * its turn however long it takes.
   */
  signal?: AbortSignal;
}

/**
 * The options of a unit that finishes what a committed unit of the same request began (a refund's
 * settlement once the processor has answered; the next item of a cancel request once an earlier item
 * committed): no deadline. A request's deadline may drop its units only while it has written nothing:
 * dropped later, the request would stay half done while its client is told (503 OVERLOADED) that nothing
 * was written, and the client's retry would do again what was done (a second refund).
 */
export const finishingUnit: UnitOptions = Object.freeze({ signal: undefined });

/** Every store, by area. Outside a transaction each call stands alone; inside one, all see and make its changes. */
export interface Stores {
  apiKeys: ApiKeysStore;
  organizations: OrganizationsStore;
  brands: BrandsStore;
  listings: ListingsStore;
  listingWrites: ListingWritesStore;
  brandWrites: BrandWritesStore;
  experiences: ExperiencesStore;
  experienceWrites: ExperienceWritesStore;
  hosts: HostsStore;
  hostWrites: HostWritesStore;
  couponWrites: CouponWritesStore;
  creditCodeWrites: CreditCodeWritesStore;
  reviews: ReviewsStore;
  reviewStats: ReviewStatsStore;
  questions: QuestionsStore;
  sessions: SessionsStore;
  sessionWrites: SessionWritesStore;
  capacity: CapacityStore;
  checkout: CheckoutStore;
  holds: HoldsStore;
  bookings: BookingsStore;
  carts: CartsStore;
  reschedules: ReschedulesStore;
  cancellation: CancellationStore;
  refunds: RefundsStore;
  payments: PaymentsStore;
  waitlists: WaitlistsStore;
  events: EventsStore;
  webhooks: WebhooksStore;
  webhookDispatch: WebhookDispatchStore;
  idempotency: IdempotencyStore;
  operations: OperationsStore;
}

/** The stores bound to one open transaction. Valid only until the function it was handed to settles. */
export interface Transaction extends Stores {
  /**
   * Runs `work` in a savepoint: if it throws, what it wrote is undone and the error goes on, while the
   * transaction keeps what it did before.
   */
  savepoint<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}

export interface Database extends Stores {
  /**
   * Runs `work` as one unit of work, with these guarantees:
   * - Atomic: everything it wrote is committed when `work` resolves, none of it when `work` throws; the
   *   returned promise settles once the commit is durable (it survives a crash of the process or the
   *   machine).
   * - Isolated: nobody sees its writes before they commit, except units an adapter commits together with
   *   it (all of them or none), which see what it wrote. The row a unit acts on is its own from the moment
   *   the unit reads it through the method that finds it (bookings: `findBookingToCancel`,
   *   `findReschedulable`, `bookingsOfIntent`, `processingBookings`, `lapsedHolds`; a payment intent:
   *   `findIntentByReference`; a cart: `findCartRow`; a session: `findSessionById`,
   *   `nextPosition`; `findEntryWithContext`, `findWebhookEndpoint`) until the unit ends: another unit reading it the same
   *   way waits, then sees what this one committed, and so does everything it reads afterwards. Units
   *   acting on different rows may run at the same time. So a unit reads the row it decides on first,
   *   and any other value it decides on that others may change at the same time is written by a guard.
   * - Repeatable: an adapter may run `work` again from its start when it could not fit it into such an
   *   order. So `work` awaits only `tx`'s stores, keeps what it builds inside itself, and has no effect
   *   outside them: a processor call, a timer or a message sent from inside would happen twice, and would
   *   hold every other unit of work back meanwhile.
   * - Bounded: with `options.signal`, it may be dropped before it commits (see UnitOptions).
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: UnitOptions): Promise<T>;
  /**
   * A value that changes whenever the data cached answers may read may have changed, by this process or any
   * other: equal values at two moments mean none of it was written in between. Bookings and what they write
   * (places, carts, payments, refunds, events, idempotency records, webhook bookkeeping, the readiness
   * heartbeat: src/db/unversioned-tables.ts), which no cached answer reads, leave it as it was. Caches keep
   * what they computed under one value.
   * `receivedAt` (a `performance.now()` instant), for a request: when it arrived; an engine may then answer
   * with a version it read after that instant instead of reading again (any write the request could know
   * of had committed before it arrived).
   */
  dataVersion(receivedAt?: number): Promise<string>;
  /**
   * Like `dataVersion`, for what identifies an API key only (`apiKeys.findActiveKeyByHash` and
   * `apiKeys.brandIdsOfOrganization`: the keys, brands and organizations): equal values at two moments mean
   * none of those was written in between; other writes may leave it as it was. It moves with every write
   * of this gateway to them before that write's answer, and with another gateway's within the staleness
   * `dataVersion` allows. The API-key cache (key-lookup.ts) and the brands kept between requests
   * (`readingEachBrandOnce`, a brand row being of the brands table alone) keep what they found under one value.
   */
  keysVersion(receivedAt?: number): Promise<string>;
  /**
   * Calls `listener` (with no data) after units of work that recorded events have committed, on this
   * gateway and, where several share the database, on the others: a hint to read the events again
   * (`events.findEventsAfter`), never the source of truth. It may come late, twice, for nothing, or
   * not at all (a notification lost with its connection; the adapter then calls once more when it has
   * a connection again), so a reader also reads on a timer. Returns the function that removes it.
   */
  onEventsCommitted(listener: () => void): () => void;
  /** Closes the connections; the database is unusable afterwards. */
  close(): Promise<void>;
}
