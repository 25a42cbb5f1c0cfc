import { DomainError } from '../shared/errors.ts';
import type { ApiKeyKind } from '../shared/values.ts';

/** Who is calling: the API key's identity and the brands it may act for. */
export interface Principal {
  /** A publishable key acts for its one brand, as a brand key does, within the narrow scope of publishable.ts. */
  kind: ApiKeyKind;
  keyId: string;
  organizationId: string | null;
  /** Every brand this key may act for (one for a brand key, all of the organization's for an org key). */
  brandIds: readonly string[];
  /** The brand named by the `Tessera-Brand-Id` header, already checked to be in scope. */
  headerBrandId: string | null;
}

export function canActFor(principal: Principal, brandId: string): boolean {
  return principal.brandIds.includes(brandId);
}

/**
 * Whether a resource of `brandId` found by its own id (no brand in the path) is visible to the caller:
 * in the key's scope and, when the `Tessera-Brand-Id` header narrows it, of that brand. Callers answer
 * NOT_FOUND otherwise, so other brands' resources are never revealed.
 */
export function canSee(principal: Principal, brandId: string): boolean {
  return canActFor(principal, brandId) && (!principal.headerBrandId || principal.headerBrandId === brandId);
}

/**
 * The brand a request acts for. A brand named in the path or arguments must be in the key's scope and
 * agree with the `Tessera-Brand-Id` header when both are sent; without one, a brand key acts for its
 * brand and an organization key must name the brand in the header.
 */
export function actingBrand(principal: Principal, requested?: string | null): string {
  if (requested) {
    if (!canActFor(principal, requested)) {
      throw new DomainError('FORBIDDEN', `This API key may not act for brand ${requested}`, { brandId: requested });
    }
    if (principal.headerBrandId && principal.headerBrandId !== requested) {
      throw new DomainError('FORBIDDEN', `Brand ${requested} differs from the Tessera-Brand-Id header (${principal.headerBrandId})`, {
        brandId: requested,
      });
    }
    return requested;
  }
  if (principal.headerBrandId) return principal.headerBrandId;
  if (principal.kind !== 'organization' && principal.brandIds[0]) return principal.brandIds[0];
  throw new DomainError('VALIDATION_FAILED', 'An organization key acts for several brands: name one with the Tessera-Brand-Id header', {
    field: 'Tessera-Brand-Id',
  });
}
