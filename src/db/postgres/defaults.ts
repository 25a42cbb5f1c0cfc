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
