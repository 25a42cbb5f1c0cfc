import type { ApiKeyKind } from '../shared/values.ts';

export interface KeyRecord {
  id: string;
  kind: ApiKeyKind;
  brandId: string | null;
  organizationId: string | null;
  /** A publishable key's origins; null for secret keys. */
  allowedOrigins: string[] | null;
}

export interface ApiKeysStore {
  /** The active (not revoked) key whose secret hashes to `secretHash`. Every request asks (a hot path). */
  findActiveKeyByHash(secretHash: string): Promise<KeyRecord | undefined>;
  /** The organization's brands, oldest first (creation time, then id). */
  brandIdsOfOrganization(organizationId: string): Promise<string[]>;
  insertApiKey(row: {
    id: string;
    kind: ApiKeyKind;
    secretHash: string;
    prefix: string;
    createdAt?: string | undefined;
    organizationId?: string | null | undefined;
    brandId?: string | null | undefined;
    label?: string | undefined;
    allowedOrigins?: string[] | null | undefined;
    revokedAt?: string | null | undefined;
  }): Promise<void>;
  /** Every key, revoked ones too, oldest first (creation time, then id). */
  listApiKeys(): Promise<
    {
      id: string;
      kind: ApiKeyKind;
      brandId: string | null;
      organizationId: string | null;
      secretHash: string;
      prefix: string;
      label: string;
      allowedOrigins: string[] | null;
      createdAt: string;
      revokedAt: string | null;
    }[]
  >;
  /** Marks a key revoked; returns false when no active key has that id. */
  revokeApiKey(id: string, at: string): Promise<boolean>;
  /**
   * Every origin an active publishable key lists, once each: the keys oldest first (as `listApiKeys`),
   * each key's origins in its own order.
   */
  publishableKeyOrigins(): Promise<string[]>;
}

/** A brand as a brand picker shows it. */
export interface BrandSummaryRow {
  id: string;
  name: string;
  currency: string;
}

export interface OrganizationsStore {
  findOrganization(id: string): Promise<{ id: string; name: string; createdAt: string } | undefined>;
  /** The organization's brands, by name, then id. */
  brandsOfOrganization(organizationId: string): Promise<BrandSummaryRow[]>;
  brandSummary(brandId: string): Promise<BrandSummaryRow | undefined>;
}
