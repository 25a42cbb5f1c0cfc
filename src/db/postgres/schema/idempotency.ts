import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { idempotencyStates } from '../../../domain/shared/values.ts';
import { createdAt, instant } from './columns.ts';

/** Stored answers of POST requests sent with an `Idempotency-Key`, per API key, kept 24 hours. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    apiKeyId: text('api_key_id').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: idempotencyStates }).notNull(),
    responseStatus: integer('response_status'),
    /** Encrypted at rest, so text rather than jsonb. */
    responseBody: text('response_body'),
    /**
     * While `running`: until when the request that claimed it is presumed alive. A retry finding the
     * lease ended (its request was cut off by a crash) takes the record over and runs again.
     */
    leaseExpiresAt: instant('lease_expires_at'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
