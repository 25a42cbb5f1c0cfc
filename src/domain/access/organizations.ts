/**
 * Who a key is, and the organization behind an organization key: what a frontend needs to build a
 * brand picker. An organization is shown only to its own keys; a brand key is FORBIDDEN, and any other
 * organization is NOT_FOUND, so ids of other organizations are never confirmed.
 */
import type { BrandSummaryRow } from './store.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import type { ApiKeyKind } from '../shared/values.ts';

export interface Organization {
  id: string;
  name: string;
  /** Its brands, by name. */
  brands: BrandSummaryRow[];
}

export interface Viewer {
  kind: ApiKeyKind;
  /** The key's organization; null for a brand key. */
  organization: Organization | null;
  /** The brands the key may act for now (one when `Tessera-Brand-Id` narrows an organization key), by name. */
  brands: BrandSummaryRow[];
}

/** The key's own organization, or null for any other (unknown or not its own: never confirmed); FORBIDDEN for a brand's keys. */
export async function findOrganization(deps: CallerDeps, organizationId: string): Promise<Organization | null> {
  const { principal } = deps;
  if (principal.kind !== 'organization') {
    throw new DomainError('FORBIDDEN', `A ${principal.kind} key cannot read organizations; use an organization key`);
  }
  if (principal.organizationId !== organizationId) return null;
  const organization = await deps.db.organizations.findOrganization(organizationId);
  if (!organization) return null;
  return { id: organization.id, name: organization.name, brands: await deps.db.organizations.brandsOfOrganization(organization.id) };
}

export async function getOrganization(deps: CallerDeps, organizationId: string): Promise<Organization> {
  const organization = await findOrganization(deps, organizationId);
  if (!organization) throw notFound('Organization', organizationId);
  return organization;
}

export async function viewer(deps: CallerDeps): Promise<Viewer> {
  const { principal } = deps;
  const organization = principal.organizationId ? await getOrganization(deps, principal.organizationId) : null;
  // One brand: a brand's (secret or publishable) key's own, or the one `Tessera-Brand-Id` narrows an organization key to.
  const one = principal.headerBrandId ?? (principal.kind !== 'organization' ? principal.brandIds[0] : undefined);
  if (one === undefined) return { kind: principal.kind, organization, brands: organization?.brands ?? [] };
  const brand = await deps.db.organizations.brandSummary(one);
  return { kind: principal.kind, organization, brands: brand ? [brand] : [] };
}
