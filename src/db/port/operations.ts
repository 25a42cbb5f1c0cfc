export interface QueueSizes {
  /** `processing` bookings: places held until paid or lapsed. */
  holdsActive: number;
  /** Waitlist entries holding offered places. */
  waitlistOffersActive: number;
  webhookDeliveriesPending: number;
  /** Deliveries given up on (past the maximum age). */
  webhookDeliveriesFailed: number;
}

export interface OperationsStore {
  /** A trivial statement: throws when the connection is closed or the file unreadable. */
  pingDatabase(): Promise<void>;
  /** Whether the newest migration this build ships is recorded as applied. */
  migrationsCurrent(): Promise<boolean>;
  queueSizes(): Promise<QueueSizes>;
  /** The newest event's sequence (0 when there is none). */
  newestEventSequence(): Promise<number>;
  /**
   * Events after sequence `after`, counted by type, with the newest sequence among them: one statement,
   * so the counts and the sequence come from the same snapshot. A range of the primary key.
   */
  eventCountsAfter(after: number): Promise<Array<{ type: string; n: number; newest: number }>>;
}
