/**
 * The database port: what the domain asks of a database, in the domain's own types. Each area has its
 * stores (async methods taking and returning plain objects); a unit of work runs a function on the same
 * stores bound to one transaction; a data version tells caches whether anything may have changed.
 * Adapters (src/db/sqlite) implement it; the domain never sees a driver, a query builder or SQL.
 */
import type { ApiKeysStore, OrganizationsStore } from './access.ts';
import type { CapacityStore, SessionsStore } from './availability.ts';
import type { BookingsStore, CartsStore, ReschedulesStore } from './bookings.ts';
import type { CancellationStore, RefundsStore } from './cancellation.ts';
import type { BrandsStore, ExperiencesStore, HostsStore, ListingsStore, ReviewStatsStore, ReviewsStore } from './catalog.ts';
import type { CheckoutStore, HoldsStore } from './checkout.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { OperationsStore } from './operations.ts';
import type { EventsStore } from './outbox.ts';
import type { PaymentsStore } from './payments.ts';
import type { QuestionsStore } from './questions.ts';
import type { WaitlistsStore } from './waitlists.ts';
import type { WebhookDispatchStore, WebhooksStore } from './webhooks.ts';

/** Every store, by area. Outside a transaction each call stands alone; inside one, all see and make its changes. */
export interface Stores {
  apiKeys: ApiKeysStore;
  organizations: OrganizationsStore;
  brands: BrandsStore;
  listings: ListingsStore;
  experiences: ExperiencesStore;
  hosts: HostsStore;
  reviews: ReviewsStore;
  reviewStats: ReviewStatsStore;
  questions: QuestionsStore;
  sessions: SessionsStore;
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
   * Runs `work` in one transaction that holds the database's write lock from its start, so what it reads
   * cannot change before it writes: committed when `work` resolves, rolled back when it throws; the
   * returned promise settles once the commit is durable. No other request sees its changes before they
   * commit, except units of work an adapter commits together with it (all of them or none), which run
   * after it and see what it wrote, as they would once it committed. Await only the transaction's own
   * stores inside `work`: a processor call or a timer there would hold every other writer back. `work` may
   * run more than once (PostgreSQL runs a unit again after a serialization failure), so it keeps what it
   * builds inside itself and has no effect outside its stores.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * A value that changes whenever the data may have changed, by this process or any other: equal values at
   * two moments mean nothing was written in between. Caches keep what they computed under one value.
   */
  dataVersion(): Promise<string>;
  /** Closes the connections; the database is unusable afterwards. */
  close(): Promise<void>;
}
