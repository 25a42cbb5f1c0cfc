import { type HostRow } from './store.ts';
import type { ImageRef } from '../shared/json-types.ts';
import { loadBrand } from './brands.ts';
import type { CallerDeps, Deps } from '../shared/deps.ts';

/** The spec's `hostedBy` shape. */
export interface Host {
  id: string;
  profilePicture: ImageRef;
  firstName: string;
  lastName: string;
  emailAddress: string;
  description: string;
  allowOverlappingBookings: boolean;
}

export const toHost = (row: HostRow): Host => ({
  id: row.id,
  profilePicture: row.profilePicture,
  firstName: row.firstName,
  lastName: row.lastName,
  emailAddress: row.emailAddress,
  description: row.description,
  allowOverlappingBookings: row.allowOverlappingBookings,
});

/** The brand's hosts, at most `features.hostsLimit` of them (its plan's limit), in the list's order. */
export async function listHosts(deps: CallerDeps, input: { brandId: string }): Promise<Host[]> {
  const brand = await loadBrand(deps, input.brandId);
  return (await deps.db.hosts.listHostsOfBrand(brand.id)).slice(0, Math.max(0, brand.hostsLimit)).map(toHost);
}

/** Hosts by id, in the order asked (null for unknown ids): the batch function of a DataLoader. */
export async function hostsByIds(deps: Deps, ids: readonly string[]): Promise<Array<Host | null>> {
  const byId = new Map((await deps.db.hosts.findHostsByIds(ids)).map((row) => [row.id, toHost(row)]));
  return ids.map((id) => byId.get(id) ?? null);
}
