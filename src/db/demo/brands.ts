/** Writes the organization, the brands with their settings, policies and brand media, and the demo API keys. */
import { hashSecret } from '../../domain/access/secrets.ts';
import type { DesignElement, TemplateElement } from '../../domain/shared/json-types.ts';
import type { Seeder } from '../tables.ts';
import { brandSpecs, organizationSpec, type BrandSpec } from './brand-specs.ts';
import { demoId, demoIds, stableId, type DemoBrandKey } from './ids.ts';
import { brandImage, MP4, mediaObject, mediaRow, PNG } from './media.ts';

/** Fixed instants: the demo data must be identical on every run. */
const CREATED_AT = '2025-01-06T09:00:00.000Z';
const FEATURES_UPDATED_AT = '2026-01-15T10:00:00.000Z';

export const cancellationPolicyId = (brand: DemoBrandKey, key: string) => demoId(brand, 'cancellation-policy', key);
const reschedulePolicyId = (spec: BrandSpec) => demoId(spec.key, 'reschedule-policy', 'default');

function designElement(spec: BrandSpec): DesignElement {
  const logo = brandImage(spec.key, 'logo', PNG);
  const identity = brandImage(spec.key, 'identity');
  return { logoId: logo.id, logo, identityImageId: identity.id, identityImage: identity, ...spec.look };
}

function templateElement(spec: BrandSpec): TemplateElement {
  const desktop = brandImage(spec.key, 'hero-desktop');
  const mobile = brandImage(spec.key, 'hero-mobile');
  const { intro, heading, description, imageAlt, videoAlt } = spec.hero;
  return {
    hero: {
      intro,
      heading,
      description,
      desktopImageId: desktop.id,
      mobileImageId: mobile.id,
      desktopImage: desktop,
      mobileImage: mobile,
      desktopMedia: mediaObject(spec.key, 'hero-video', 'hero', videoAlt, MP4),
      mobileMedia: mediaObject(spec.key, 'hero-mobile', 'hero', imageAlt),
    },
  };
}

function brandMedia(spec: BrandSpec) {
  return [
    mediaRow(spec.key, spec.id, 'logo', `${spec.name} logo`, PNG),
    mediaRow(spec.key, spec.id, 'identity', `${spec.name} identity image`),
    mediaRow(spec.key, spec.id, 'hero-desktop', spec.hero.imageAlt),
    mediaRow(spec.key, spec.id, 'hero-mobile', spec.hero.imageAlt),
    mediaRow(spec.key, spec.id, 'hero-video', spec.hero.videoAlt, MP4),
  ];
}

async function insertBrand(seed: Seeder, spec: BrandSpec): Promise<void> {
  // Everything but the seed-only fields is a brands column.
  const { key: _key, look: _look, hero: _hero, apiKey: _apiKey, cancellationPolicies: policies, reschedulePolicy, ...columns } = spec;
  await seed.insert('brands', {
    ...columns,
    designElement: designElement(spec),
    templateElement: templateElement(spec),
    featuresUpdatedAt: FEATURES_UPDATED_AT,
    cancellationPolicyId: cancellationPolicyId(spec.key, policies[0]!.key),
    reschedulePolicyId: reschedulePolicyId(spec),
    createdAt: CREATED_AT,
  });
  for (const { key: policyKey, ...policy } of policies) {
    await seed.insert('cancellationPolicies', { ...policy, id: cancellationPolicyId(spec.key, policyKey), brandId: spec.id });
  }
  await seed.insert('reschedulePolicies', { ...reschedulePolicy, id: reschedulePolicyId(spec), brandId: spec.id });
  await seed.insert('media', brandMedia(spec));
}

async function insertKey(
  seed: Seeder,
  owner: { brandId: string } | { organizationId: string },
  secret: string,
  label: string,
  allowedOrigins: string[] | null = null,
): Promise<void> {
  await seed.insert('apiKeys', {
    id: stableId(`api-key/${secret}`),
    kind: allowedOrigins ? 'publishable' : 'brandId' in owner ? 'brand' : 'organization',
    brandId: 'brandId' in owner ? owner.brandId : null,
    organizationId: 'organizationId' in owner ? owner.organizationId : null,
    secretHash: hashSecret(secret),
    prefix: secret.slice(0, 12),
    label,
    allowedOrigins,
    createdAt: CREATED_AT,
  });
}

export async function seedBrands(seed: Seeder): Promise<void> {
  await seed.insert('organizations', { id: organizationSpec.id, name: organizationSpec.name, createdAt: CREATED_AT });
  for (const spec of brandSpecs) await insertBrand(seed, spec);
  await insertKey(seed, { organizationId: organizationSpec.id }, organizationSpec.apiKey.secret, organizationSpec.apiKey.label);
  for (const spec of brandSpecs) await insertKey(seed, { brandId: spec.id }, spec.apiKey.secret, spec.apiKey.label);
  await insertKey(seed, { brandId: demoIds.brands.lisbon }, demoPublishableKey.secret, demoPublishableKey.label, [
    ...demoPublishableKey.origins,
  ]);
}

/** Lisbon's publishable key, for the example booking page (examples/booking-page, served on port 5173). */
export const demoPublishableKey = {
  secret: 'pk_test_lisbon_demo',
  label: 'Publishable key: Harbor Lisbon, for pages on http://localhost:5173 and http://127.0.0.1:5173',
  origins: ['http://localhost:5173', 'http://127.0.0.1:5173'],
} as const;

/** The demo keys in the order start-up prints them: the organization's, then each brand's. */
export const demoKeys: ReadonlyArray<{ secret: string; label: string }> = [
  organizationSpec.apiKey,
  ...brandSpecs.map((spec) => spec.apiKey),
  demoPublishableKey,
];
