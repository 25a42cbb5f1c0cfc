import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { idempotencyStates } from '../../../domain/shared/values.ts';

/** Stored answers of POST requests sent with an `Idempotency-Key`, per API key, kept 24 hours. */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    apiKeyId: text('api_key_id').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: idempotencyStates }).notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    /**
     * While `running`: until when the request that claimed it is presumed alive. A retry finding the
     * lease ended (its request was cut off by a crash) takes the record over and runs again.
     */
    leaseExpiresAt: text('lease_expires_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
