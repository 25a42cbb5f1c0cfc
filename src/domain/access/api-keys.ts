import { randomBytes, randomUUID } from 'node:crypto';
import { parseOrigins } from './publishable.ts';
import { hashSecret } from './secrets.ts';
import type { ApiKeyKind } from '../shared/values.ts';
import type { Deps } from '../shared/deps.ts';
import { DomainError, notFound } from '../shared/errors.ts';

export type KeyOwner = { brandId: string } | { organizationId: string };

export interface IssuedKey {
  id: string;
  kind: ApiKeyKind;
  /** Shown once; only its SHA-256 is stored. */
  secret: string;
  /** A publishable key's origins, as browsers send them; null for secret keys. */
  allowedOrigins: string[] | null;
}

/**
 * Issues a new secret key for a brand or an organization, or, given `origins`, a brand's publishable key
 * for browsers on those origins (see publishable.ts).
 */
export async function issueApiKey(
  deps: Pick<Deps, 'db' | 'now'>,
  input: { owner: KeyOwner; label?: string; live?: boolean; origins?: readonly string[] },
): Promise<IssuedKey> {
  const { owner } = input;
  if (input.origins && !('brandId' in owner)) {
    throw new DomainError('VALIDATION_FAILED', 'A publishable key belongs to one brand: issue it with --brand', { field: 'organization' });
  }
  const allowedOrigins = input.origins ? parseOrigins(input.origins) : null;
  if (
    'brandId' in owner
      ? !(await deps.db.brands.findBrand(owner.brandId))
      : !(await deps.db.organizations.findOrganization(owner.organizationId))
  ) {
    throw 'brandId' in owner ? notFound('Brand', owner.brandId) : notFound('Organization', owner.organizationId);
  }
  const kind: ApiKeyKind = allowedOrigins ? 'publishable' : 'brandId' in owner ? 'brand' : 'organization';
  const secret = `${allowedOrigins ? 'pk' : 'sk'}_${input.live ? 'live' : 'test'}_${randomBytes(24).toString('base64url')}`;
  const id = randomUUID();
  await deps.db.apiKeys.insertApiKey({
    id,
    kind,
    brandId: 'brandId' in owner ? owner.brandId : null,
    organizationId: 'organizationId' in owner ? owner.organizationId : null,
    secretHash: hashSecret(secret),
    prefix: secret.slice(0, 12),
    label: input.label ?? '',
    allowedOrigins,
    createdAt: deps.now().toISOString(),
  });
  return { id, kind, secret, allowedOrigins };
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
