import type { ApiKeyKind } from '../shared/values.ts';

export interface QueueSizes {
  /** `processing` bookings: places held until paid or lapsed. */
  holdsActive: number;
  /** Waitlist entries holding offered places. */
  waitlistOffersActive: number;
  webhookDeliveriesPending: number;
  /** Deliveries given up on (past the maximum age, or their endpoint deleted or disabled). */
  webhookDeliveriesFailed: number;
  /** Endpoints not deleted but disabled (failing too long, or by their brand): they get no deliveries. */
  webhookEndpointsDisabled: number;
}

/** Places held unpaid (active participants of `processing` bookings) in one brand by one kind of key. */
export interface UnpaidPlaces {
  brandId: string;
  /** The kind of key whose checkout holds them; null when not recorded (bookings of carts checked out before it was). */
  keyKind: ApiKeyKind | null;
  places: number;
}

export interface OperationsStore {
  /** Asks the database something trivial: throws when it cannot be reached or read. */
  pingDatabase(): Promise<void>;
  /** Whether the newest migration this build ships is recorded as applied. */
  migrationsCurrent(): Promise<boolean>;
  /**
   * Writes `at` into the one heartbeat row (creating it when missing): throws when the database cannot
   * take this write, and waits while another unit holds that row.
   */
  recordHeartbeat(at: string): Promise<void>;
  queueSizes(): Promise<QueueSizes>;
  /** Unpaid places held, by brand id (byte order), then key kind (byte order, null first); only groups holding some. */
  unpaidPlacesHeld(): Promise<UnpaidPlaces[]>;
  /** The newest event's sequence (0 when there is none). */
  newestEventSequence(): Promise<number>;
  /**
   * Events after sequence `after`, counted by type (types in byte order), with the newest sequence among
   * them, read together: the counts and the sequence come from the same state of the data.
   */
  eventCountsAfter(after: number): Promise<Array<{ type: string; n: number; newest: number }>>;
}
