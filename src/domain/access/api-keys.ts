import { randomBytes, randomUUID } from 'node:crypto';
import { hashSecret } from './secrets.ts';
import type { Deps } from '../shared/deps.ts';
import { DomainError, notFound } from '../shared/errors.ts';

export type KeyOwner = { brandId: string } | { organizationId: string };

export interface IssuedKey {
  id: string;
  kind: 'brand' | 'organization';
  /** Shown once; only its SHA-256 is stored. */
  secret: string;
}

/** Issues a new secret key for a brand or an organization. */
export async function issueApiKey(
  deps: Pick<Deps, 'db' | 'now'>,
  input: { owner: KeyOwner; label?: string; live?: boolean },
): Promise<IssuedKey> {
  const { owner } = input;
  if (
    'brandId' in owner
      ? !(await deps.db.brands.findBrand(owner.brandId))
      : !(await deps.db.organizations.findOrganization(owner.organizationId))
  ) {
    throw 'brandId' in owner ? notFound('Brand', owner.brandId) : notFound('Organization', owner.organizationId);
  }
  const kind = 'brandId' in owner ? 'brand' : 'organization';
  const secret = `sk_${input.live ? 'live' : 'test'}_${randomBytes(24).toString('base64url')}`;
  const id = randomUUID();
  await deps.db.apiKeys.insertApiKey({
    id,
    kind,
    brandId: 'brandId' in owner ? owner.brandId : null,
    organizationId: 'organizationId' in owner ? owner.organizationId : null,
    secretHash: hashSecret(secret),
    prefix: secret.slice(0, 12),
    label: input.label ?? '',
    createdAt: deps.now().toISOString(),
  });
  return { id, kind, secret };
}

export async function revokeKey(deps: Pick<Deps, 'db' | 'now'>, id: string): Promise<void> {
  if (!(await deps.db.apiKeys.revokeApiKey(id, deps.now().toISOString()))) {
    throw new DomainError('NOT_FOUND', `No active API key has id ${id}`, { id });
  }
}

/** Keys without their hashes: id, owner, prefix, label, dates. */
export async function listKeys(deps: Pick<Deps, 'db'>) {
  return (await deps.db.apiKeys.listApiKeys()).map(({ secretHash: _, ...key }) => key);
}
