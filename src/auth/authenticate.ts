import type { Database } from '../domain/shared/database.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { findActiveKey } from '../domain/access/key-lookup.ts';
import { assertOriginAllowed } from '../domain/access/publishable.ts';
import { hashSecret } from '../domain/access/secrets.ts';
import type { Principal } from '../domain/access/principal.ts';

/** Request headers as both transports see them (lower-cased names). */
export type Headers = Record<string, string | string[] | undefined>;

export const BRAND_HEADER = 'tessera-brand-id';
export const ORGANIZATION_HEADER = 'tessera-organization-id';
export const SECRET_HEADER = 'tessera-secret-key';

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first.trim() === '' ? undefined : first.trim();
}

const unauthenticated = (message: string) => new DomainError('UNAUTHENTICATED', message);

/**
 * Turns credentials into a Principal: `Authorization: Bearer <key>`, or the legacy pair of an id header
 * (`Tessera-Brand-Id` or `Tessera-Organization-Id`) and `Tessera-Secret-Key`. Returns null when the
 * request carries no credentials at all; throws UNAUTHENTICATED for wrong ones.
 *
 * Secrets are looked up by their SHA-256 through a unique index: the comparison never touches the
 * secret byte by byte, so timing reveals nothing about how close a guess was. `generation`: the
 * request's keys version, to reuse a key found earlier while no key, brand or organization was written (key-lookup.ts).
 */
export async function authenticate(db: Database, headers: Headers, generation?: string): Promise<Principal | null> {
  const authorization = header(headers, 'authorization');
  const legacySecret = header(headers, SECRET_HEADER);
  const brandHeader = header(headers, BRAND_HEADER) ?? null;
  const organizationHeader = header(headers, ORGANIZATION_HEADER) ?? null;

  if (authorization && legacySecret) {
    throw new DomainError('VALIDATION_FAILED', 'Send either Authorization or Tessera-Secret-Key, not both', {
      field: 'Authorization',
    });
  }
  let secret: string;
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match?.[1]) throw unauthenticated('The Authorization header must be "Bearer <API key>"');
    secret = match[1];
  } else if (legacySecret) {
    if (!brandHeader && !organizationHeader) {
      throw unauthenticated('Tessera-Secret-Key needs a Tessera-Brand-Id or Tessera-Organization-Id header');
    }
    secret = legacySecret;
  } else {
    return null;
  }

  const active = await findActiveKey(db, hashSecret(secret), generation);
  if (!active) throw unauthenticated('The API key is not valid');
  const key = active.record;
  assertOriginAllowed(key.allowedOrigins, header(headers, 'origin'));

  const principal: Principal = {
    kind: key.kind,
    keyId: key.id,
    organizationId: key.kind === 'organization' ? key.organizationId : null,
    brandIds: [...active.brandIds],
    headerBrandId: null,
  };

  if (organizationHeader && organizationHeader !== principal.organizationId) {
    throw unauthenticated('Tessera-Organization-Id does not match the API key');
  }
  if (brandHeader) {
    if (!principal.brandIds.includes(brandHeader)) {
      if (legacySecret && key.kind !== 'organization') throw unauthenticated('Tessera-Brand-Id does not match the API key');
      throw new DomainError('FORBIDDEN', `This API key may not act for brand ${brandHeader}`, { brandId: brandHeader });
    }
    principal.headerBrandId = brandHeader;
  }
  return principal;
}

export function requirePrincipal(principal: Principal | null): Principal {
  if (!principal) throw unauthenticated('This operation needs an API key: send "Authorization: Bearer <key>"');
  return principal;
}
