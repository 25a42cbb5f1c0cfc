/** The PostgreSQL pool's defaults, shared by the client and the configuration (which must not load a driver). */
export const postgresDefaults = {
  poolSize: 10,
  statementTimeoutMs: 15_000,
  /** Connecting, and waiting for a pooled connection when all are busy (DATABASE_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs: 5_000,
  /** A statement waiting this long for a lock (a row another session holds) fails with 55P03. */
  lockTimeoutMs: 5_000,
  /** The server ends a session left idle this long inside a transaction (a frozen or cut-off gateway), freeing its locks. */
  idleInTransactionTimeoutMs: 10_000,
  /** TCP keepalive probes start after this long without traffic on a connection. */
  keepAliveInitialDelayMs: 10_000,
} as const;

/**
 * The connections of a pool of `poolSize` kept for reads outside units of work: a fifth (one at least) when
 * it has two or more, none of one. Units of work take the rest (database.ts `unitSlots`), and reads share
 * this many lanes at most (read-lanes.ts), so neither starves the other.
 */
export const readConnections = (poolSize: number): number => (poolSize < 2 ? 0 : Math.max(1, Math.floor(poolSize / 5)));
