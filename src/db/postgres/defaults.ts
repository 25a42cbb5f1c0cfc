/** The PostgreSQL pool's defaults, shared by the client and the configuration (which must not load a driver). */
export const postgresDefaults = { poolSize: 10, statementTimeoutMs: 15_000 } as const;
