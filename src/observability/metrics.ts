/**
 * The app's Prometheus metrics, in a registry of its own (never prom-client's global one), so several
 * apps in one process (tests) each count their own. Label values are bounded: see labels.ts.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../domain/shared/database.ts';
import { eventTypes } from '../domain/outbox/outbox.ts';
import type { DomainObserver } from '../domain/shared/observer.ts';
import { bookingEventsAfter, currentQueueSizes, eventCursor, unpaidPlacesHeld } from '../domain/operations/operations.ts';
import { errorCodeLabel, methodLabel, operationNameLabels, routeLabel } from './labels.ts';

/** Seconds: from a fast cached read to a slow processor call. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** `booking.<event>` types without their prefix, so every series exists (at 0) from the first scrape. */
const BOOKING_EVENTS = eventTypes.filter((type) => type.startsWith('booking.')).map((type) => type.slice('booking.'.length));

export type Api = 'rest' | 'graphql';

export interface Metrics {
  registry: Registry;
  /** Told about refunds by the domain (Deps.observer). */
  observer: DomainObserver;
  recordRequest(request: { method: string; route: string | undefined; statusCode: number; seconds: number }): void;
  recordOperation(operation: { name: string | null | undefined; type: string | undefined; seconds: number }): void;
  countError(api: Api, code: unknown): void;
  /** A cacheable read answered from the response cache (`hit`) or computed (`miss`). */
  countCacheLookup(api: Api, outcome: 'hit' | 'miss'): void;
  /** Reads the gauges and the new booking events from the database; throws when it cannot. */
  refreshFromDatabase(): Promise<void>;
  /** Marks the database-read values unknown (NaN) after a failed refresh. */
  markDatabaseUnknown(): void;
  /** Reads the live transports' counts at each scrape (src/graphql/live/connections.ts). */
  observeLive(live: LiveCounts): void;
}

/** What the live transports count on this gateway. */
export interface LiveCounts {
  /** Open connections: WebSockets and event streams. */
  readonly size: number;
  /** Subscriptions running, over either transport. */
  readonly subscriptions: number;
}

export function createMetrics(db: Database): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const counter = (name: string, help: string, labelNames: string[]) => new Counter({ name, help, labelNames, registers });
  const histogram = (name: string, help: string, labelNames: string[]) =>
    new Histogram({ name, help, labelNames, buckets: DURATION_BUCKETS, registers });
  const gauge = (name: string, help: string) => new Gauge({ name, help, registers });

  const httpLabels = ['method', 'route', 'status_code'];
  const requests = counter('http_requests_total', 'HTTP requests answered, by method, route pattern and status code.', httpLabels);
  const requestSeconds = histogram(
    'http_request_duration_seconds',
    'Time to answer HTTP requests, by method, route pattern and status code.',
    httpLabels,
  );
  const operationLabels = ['operation_name', 'operation_type'];
  const operations = counter('graphql_operations_total', 'GraphQL operations, by operation name (bounded) and type.', operationLabels);
  const operationSeconds = histogram(
    'graphql_operation_duration_seconds',
    'Time to answer GraphQL operations, by operation name and type.',
    operationLabels,
  );
  const errors = counter('errors_total', 'Errors returned to clients, by API face and error code.', ['api', 'code']);
  const bookings = counter(
    'bookings_total',
    'Booking events committed since this process started, by event (read from the event outbox: counts every process sharing the database).',
    ['event'],
  );
  const refunds = counter('refunds_total', 'Refunds asked of the payment processor by this process, by outcome.', ['outcome']);
  const cacheLookups = counter(
    'response_cache_lookups_total',
    'Cacheable reads, by API face and outcome (hit: answered from the response cache).',
    ['api', 'outcome'],
  );
  const refunded = counter('refunded_amount_minor_total', 'Amount refunded by this process, in minor units of the currency.', ['currency']);
  const unpaidPlaces = new Gauge({
    name: 'holds_unpaid_places',
    help: 'Places held by processing bookings awaiting payment, by brand and kind of API key that made the hold (unknown: before it was recorded).',
    labelNames: ['brand_id', 'key_kind'],
    registers,
  });
  const holdRefusals = counter(
    'hold_limit_refusals_total',
    'Checkouts with a publishable key refused by this process because the client held its budget of unpaid places (HOLD_LIMIT_REACHED), by brand.',
    ['brand_id'],
  );
  const gauges = {
    holdsActive: gauge('holds_active', 'Processing bookings holding places until paid or lapsed.'),
    waitlistOffersActive: gauge('waitlist_offers_active', 'Waitlist entries holding offered places.'),
    webhookDeliveriesPending: gauge('webhook_deliveries_pending', 'Webhook deliveries waiting to be sent or retried.'),
    webhookDeliveriesFailed: gauge(
      'webhook_deliveries_failed',
      'Webhook deliveries given up on (past the maximum age, endpoint deleted or disabled).',
    ),
    webhookEndpointsDisabled: gauge(
      'webhook_endpoints_disabled',
      'Webhook endpoints disabled (failing too long, or by their brand): they get no deliveries.',
    ),
  };

  // Read at each scrape; 0 until the live transports are installed.
  let live: LiveCounts = { size: 0, subscriptions: 0 };
  new Gauge({
    name: 'live_connections',
    help: 'Live connections open on this gateway (WebSockets and event streams).',
    registers,
    collect() {
      this.set(live.size);
    },
  });
  new Gauge({
    name: 'live_subscriptions',
    help: 'GraphQL subscriptions running on this gateway, over either live transport.',
    registers,
    collect() {
      this.set(live.subscriptions);
    },
  });

  for (const event of BOOKING_EVENTS) bookings.inc({ event }, 0);
  for (const outcome of ['succeeded', 'declined', 'unknown']) refunds.inc({ outcome }, 0);
  const operationName = operationNameLabels();
  // Counting starts now; a database that cannot answer yet starts the count at its first good read.
  const startingCursor = eventCursor(db).catch(() => null);
  let cursor: number | null | undefined;

  return {
    registry,
    observer: {
      refundFinished({ outcome, amountMinor, currency }) {
        refunds.inc({ outcome });
        if (outcome === 'succeeded') refunded.inc({ currency: /^[A-Z]{3}$/.test(currency) ? currency : 'OTHER' }, amountMinor);
      },
      holdLimitReached({ brandId }) {
        holdRefusals.inc({ brand_id: brandId });
      },
    },
    recordRequest({ method, route, statusCode, seconds }) {
      const labels = { method: methodLabel(method), route: routeLabel(route), status_code: String(statusCode) };
      requests.inc(labels);
      requestSeconds.observe(labels, seconds);
    },
    recordOperation({ name, type, seconds }) {
      const labels = type
        ? { operation_name: operationName(name), operation_type: type }
        : { operation_name: 'unknown', operation_type: 'unknown' };
      operations.inc(labels);
      operationSeconds.observe(labels, seconds);
    },
    countError(api, code) {
      errors.inc({ api, code: errorCodeLabel(code) });
    },
    countCacheLookup(api, outcome) {
      cacheLookups.inc({ api, outcome });
    },
    observeLive(counts) {
      live = counts;
    },
    async refreshFromDatabase() {
      const sizes = await currentQueueSizes(db);
      for (const [key, g] of Object.entries(gauges)) g.set(sizes[key as keyof typeof sizes]);
      const held = await unpaidPlacesHeld(db);
      // Brands that hold nothing any more leave the series, rather than stay at their last value.
      unpaidPlaces.reset();
      for (const row of held) unpaidPlaces.set({ brand_id: row.brandId, key_kind: row.keyKind ?? 'unknown' }, row.places);
      if (cursor === undefined) cursor = await startingCursor;
      if (cursor === null) {
        cursor = await eventCursor(db);
        return;
      }
      const read = await bookingEventsAfter(db, cursor);
      for (const [event, n] of read.counts) bookings.inc({ event }, n);
      cursor = read.cursor;
    },
    markDatabaseUnknown() {
      for (const g of Object.values(gauges)) g.set(Number.NaN);
      unpaidPlaces.reset();
    },
  };
}
