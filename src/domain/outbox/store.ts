export type EventRow = {
  /**
   * The event's place in its brand's feed. Sequences only grow in the order events become visible: an
   * event is numbered as its unit of work commits, so one committed after a reader's page always lands
   * after it (a reader paging by sequence never passes one for good). They may have gaps.
   */
  sequence: number;
  id: string;
  brandId: string;
  type: string;
  /** The booking or waitlist entry the event is about; deliveries keep its events in order. */
  resourceId: string;
  /** The resource as the API shows it, when the event happened. */
  payload: { [x: string]: unknown };
  createdAt: string;
};

/** A new event: the database numbers it. */
export type EventInsert = Omit<EventRow, 'sequence'>;

export interface PendingDeliveryInsert {
  id: string;
  endpointId: string;
  /** The event delivered, by its id. */
  eventId: string;
  resourceId: string;
  at: string;
}

export interface EventsStore {
  /**
   * Records an event. Its sequence is the database's to give when the unit of work commits (outside
   * one, at once): nothing in the unit may depend on it.
   */
  insertEvent(event: EventInsert): Promise<void>;
  /**
   * `insertEvent`, and one `pending` delivery of it (due at its `createdAt`) to each live endpoint of its
   * brand subscribed to its type, as the endpoints are when the unit commits.
   */
  insertEventForSubscribers(event: EventInsert): Promise<void>;
  /** Ids and subscribed types of the brand's endpoints that are not deleted, in no promised order. */
  liveEndpointsOfBrand(brandId: string): Promise<Array<{ id: string; eventTypes: string[] }>>;
  /** One `pending` delivery per row, due at once (`nextAttemptAt` = the event's time), of an event recorded before. */
  insertPendingDeliveries(rows: readonly PendingDeliveryInsert[]): Promise<void>;
  /**
   * Up to `limit` of the brand's events after sequence `after`, oldest first, optionally of `types`
   * only: a seek on (brand_id, sequence).
   */
  findEventPage(brandId: string, after: number, types: readonly string[] | null, limit: number): Promise<EventRow[]>;
  /** Whether the brand has an event at or before sequence `upTo` (of `types`, when given). */
  hasEventsUpTo(brandId: string, upTo: number, types: readonly string[] | null): Promise<boolean>;
  /**
   * Up to `limit` events of every brand after sequence `after`, oldest first: a seek on the sequence. A
   * reader that pages with the last sequence it got misses no event committed later (see `sequence`).
   */
  findEventsAfter(after: number, limit: number): Promise<EventRow[]>;
  /** The sequence of the newest event of any brand; 0 when there is none. */
  lastEventSequence(): Promise<number>;
}
