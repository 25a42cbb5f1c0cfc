import { type HostRow } from './store.ts';
import type { ImageRef } from '../shared/json-types.ts';
import { loadBrand } from './brands.ts';
import type { CallerDeps } from '../shared/deps.ts';
import type { Principal } from '../access/principal.ts';
import { mayReadContacts } from '../access/personal-data.ts';

/** The spec's `hostedBy` shape; `emailAddress` only for callers that may read contacts (personal-data.ts). */
export interface Host {
  id: string;
  profilePicture: ImageRef;
  firstName: string;
  lastName: string;
  emailAddress?: string;
  description: string;
  allowOverlappingBookings: boolean;
}

export const toHost = (row: HostRow, principal: Principal): Host => ({
  id: row.id,
  profilePicture: row.profilePicture,
  firstName: row.firstName,
  lastName: row.lastName,
  ...(mayReadContacts(principal) ? { emailAddress: row.emailAddress } : {}),
  description: row.description,
  allowOverlappingBookings: row.allowOverlappingBookings,
});

/** The brand's hosts, at most `features.hostsLimit` of them (its plan's limit), in the list's order. */
export async function listHosts(deps: CallerDeps, input: { brandId: string }): Promise<Host[]> {
  const brand = await loadBrand(deps, input.brandId);
  return (await deps.db.hosts.listHostsOfBrand(brand.id)).slice(0, Math.max(0, brand.hostsLimit)).map((row) => toHost(row, deps.principal));
}
