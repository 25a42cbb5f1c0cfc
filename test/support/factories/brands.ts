import { randomUUID } from 'node:crypto';
import { hashSecret } from '../../../src/auth/authenticate.ts';
import type { Db } from '../../../src/db/client.ts';
import { apiKeys, brands, cancellationPolicies, organizations, reschedulePolicies } from '../../../src/db/schema.ts';

type BrandInsert = typeof brands.$inferInsert;

export function createOrganization(db: Db, overrides: Partial<typeof organizations.$inferInsert> = {}) {
  const row = { id: randomUUID(), name: 'Test Organization', ...overrides };
  db.insert(organizations).values(row).run();
  return row;
}

const image = (id: string) => ({ id, mimeType: 'image/png', uri: { original: `https://cdn.example.test/${id}.png` } });
const mediaObject = (id: string) => ({
  id,
  type: 'image',
  kind: 'hero',
  altText: null,
  links: [{ url: `https://cdn.example.test/${id}.jpg`, type: 'image/jpeg', resolution: 'original' }],
});

export function createBrand(db: Db, overrides: Partial<BrandInsert> = {}) {
  const id = overrides.id ?? randomUUID();
  const row: BrandInsert = {
    id,
    name: 'Test Brand',
    brandEmail: 'hello@brand.test',
    countryCode: 'PT',
    currency: 'EUR',
    language: 'en',
    isLimited: false,
    designElement: {
      logoId: 'logo-1',
      logo: image('logo-1'),
      identityImageId: 'identity-1',
      identityImage: image('identity-1'),
      primaryColor: '#0B3D5C',
      secondaryColor: '#F2E8D5',
      buttonColor: '#E4572E',
      primaryFont: 'Inter',
      secondaryFont: 'Lora',
      theme: 'light',
    },
    templateElement: {
      hero: {
        intro: 'Welcome',
        heading: 'Test heading',
        description: 'Test description',
        mobileImageId: 'hero-m',
        desktopImageId: 'hero-d',
        mobileImage: image('hero-m'),
        desktopImage: image('hero-d'),
        desktopMedia: mediaObject('hero-dm'),
        mobileMedia: mediaObject('hero-mm'),
      },
    },
    featuresActive: ['reviews', 'customQuestions'],
    featuresUpdatedAt: '2026-01-15T10:00:00.000Z',
    hostsLimit: 10,
    promotionExclusiveTag: 'Exclusive',
    customStyle: '',
    paymentPlatform: 'processor-eu',
    serviceVersion: 'V3',
    products: ['activate'],
    paymentMethods: { applePay: true, googlePay: true, paypal: false, klarna: false, link: false },
    ...overrides,
  };
  db.insert(brands).values(row).run();
  return { ...row, id };
}

/** Issues an API key and returns its secret. */
export function createApiKey(db: Db, owner: { brandId: string } | { organizationId: string }, secret = `sk_test_${randomUUID()}`) {
  const id = randomUUID();
  db.insert(apiKeys)
    .values({
      id,
      kind: 'brandId' in owner ? 'brand' : 'organization',
      brandId: 'brandId' in owner ? owner.brandId : null,
      organizationId: 'organizationId' in owner ? owner.organizationId : null,
      secretHash: hashSecret(secret),
      prefix: secret.slice(0, 12),
    })
    .run();
  return { id, secret };
}

export function createCancellationPolicy(db: Db, brandId: string, overrides: Partial<typeof cancellationPolicies.$inferInsert> = {}) {
  const row = {
    id: randomUUID(),
    brandId,
    name: 'Flexible',
    description: 'Full refund up to 24 hours before the start.',
    fullRefundHoursBefore: 24,
    lateRefundPercent: 0,
    ...overrides,
  };
  db.insert(cancellationPolicies).values(row).run();
  return row;
}

export function createReschedulePolicy(db: Db, brandId: string, overrides: Partial<typeof reschedulePolicies.$inferInsert> = {}) {
  const row = {
    id: randomUUID(),
    brandId,
    name: 'Standard',
    description: 'Reschedule up to 48 hours before, twice.',
    allowedHoursBefore: 48,
    maxReschedules: 2,
    ...overrides,
  };
  db.insert(reschedulePolicies).values(row).run();
  return row;
}

/**
 * A EUR brand and its JPY sister brand in one organization, a brand outside it, and a key for each
 * brand and for the organization: the cast of most API tests that check scopes.
 */
export function createBrandFamily(db: Db) {
  const org = createOrganization(db);
  const brand = createBrand(db, { organizationId: org.id, name: 'Coast Lisbon', currency: 'EUR' });
  const sister = createBrand(db, { organizationId: org.id, name: 'Coast Tokyo', currency: 'JPY' });
  const outsider = createBrand(db, { name: 'Elsewhere' });
  const keys = {
    brand: createApiKey(db, { brandId: brand.id }).secret,
    sister: createApiKey(db, { brandId: sister.id }).secret,
    org: createApiKey(db, { organizationId: org.id }).secret,
    outsider: createApiKey(db, { brandId: outsider.id }).secret,
  };
  return { org, brand, sister, outsider, keys };
}
