import { json, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { apiKeyKinds } from '../../../domain/shared/values.ts';
import { createdAt, instant } from './columns.ts';
import { brands, organizations } from './catalog.ts';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: apiKeyKinds }).notNull(),
    brandId: text('brand_id').references(() => brands.id),
    organizationId: text('organization_id').references(() => organizations.id),
    /** SHA-256 of the secret, hex. The secret itself is never stored. */
    secretHash: text('secret_hash').notNull(),
    /** First characters of the secret, to tell keys apart in listings. */
    prefix: text('prefix').notNull(),
    label: text('label').notNull().default(''),
    /** A publishable key's origins (`https://shop.example`); null for secret keys. */
    allowedOrigins: json('allowed_origins').$type<string[]>(),
    createdAt: createdAt(),
    revokedAt: instant('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_secret_hash_idx').on(t.secretHash)],
);
