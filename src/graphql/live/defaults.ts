/** Defaults of the live-update limits; apart from settings.ts so src/config.ts reads them without an import cycle. */
export const liveDefaults = {
  /** Open subscriptions on one connection; the next is refused with TOO_MANY_SUBSCRIPTIONS. */
  maxSubscriptionsPerConnection: 100,
  /**
   * Open connections of one secret key on one gateway, or of one client address of a publishable key
   * (every browser of a shop shares its key): a leak or a loop cannot take every socket of the gateway.
   */
  maxConnectionsPerKey: 200,
  /** A WebSocket ping this often; a client that has not answered the last one by the next is dropped. */
  keepAliveMs: 12_000,
  /**
   * Bytes queued on a socket for a client that does not read. Past it the client is dropped (it reconnects
   * and resumes) rather than kept in memory without bound: an update is at most a few KB, so 1 MiB is
   * hundreds of unread updates.
   */
  maxBufferedBytes: 1024 * 1024,
} as const;
