/** Turns a BrandCatalog into rows: hosts, taxonomy, media, experiences (with their parts) and listings. */
import type { Seeder } from '../tables.ts';
import { cancellationPolicyId } from './brands.ts';
import type { BrandCatalog, ContentSpec, ExperienceSpec, ListingSpec } from './catalog-types.ts';
import { demoId, type DemoBrandKey } from './ids.ts';
import { imageRef, mediaId, mediaRow, type MediaInsert } from './media.ts';

/** Ids of a catalog's rows, derived from their brand and readable keys. */
export const catalogIds = (brand: DemoBrandKey) => ({
  host: (key: string) => demoId(brand, 'host', key),
  category: (name: string) => demoId(brand, 'category', name),
  vibe: (name: string) => demoId(brand, 'vibe', name),
  experience: (slug: string) => demoId(brand, 'experience', slug),
  listing: (slug: string) => demoId(brand, 'listing', slug),
  content: (listingSlug: string, version: string) => demoId(brand, 'listing-content', `${listingSlug}/${version}`),
});

const hostPictureSlug = (key: string) => `hosts/${key}`;

function catalogMedia(catalog: BrandCatalog): MediaInsert[] {
  const { brand, brandId } = catalog;
  const rows = new Map<string, MediaInsert>();
  const add = (row: MediaInsert) => rows.set(row.id, rows.get(row.id) ?? row);
  for (const host of catalog.hosts) {
    add(mediaRow(brand, brandId, hostPictureSlug(host.key), `Portrait of ${host.firstName} ${host.lastName}`));
  }
  for (const picture of [...catalog.experiences.flatMap((e) => e.pictures), ...(catalog.extraPictures ?? [])]) {
    add(mediaRow(brand, brandId, picture.slug, picture.alt));
  }
  return [...rows.values()];
}

async function insertHostsAndTaxonomy(seed: Seeder, catalog: BrandCatalog): Promise<void> {
  const ids = catalogIds(catalog.brand);
  await seed.insert(
    'hosts',
    catalog.hosts.map(({ key, allowOverlappingBookings, ...host }) => ({
      ...host,
      id: ids.host(key),
      brandId: catalog.brandId,
      profilePicture: imageRef(catalog.brand, hostPictureSlug(key)),
      allowOverlappingBookings: allowOverlappingBookings ?? false,
    })),
  );
  await seed.insert(
    'categories',
    catalog.categories.map((name) => ({ id: ids.category(name), brandId: catalog.brandId, name })),
  );
  await seed.insert(
    'vibes',
    catalog.vibes.map((name) => ({ id: ids.vibe(name), brandId: catalog.brandId, name })),
  );
}

async function insertExperience(seed: Seeder, catalog: BrandCatalog, spec: ExperienceSpec): Promise<void> {
  const { brand, brandId } = catalog;
  const ids = catalogIds(brand);
  const id = ids.experience(spec.slug);
  await seed.insert('experiences', {
    id,
    brandId,
    hostId: ids.host(spec.host),
    categoryId: ids.category(spec.category),
    slug: spec.slug,
    title: spec.title,
    headline: spec.headline,
    description: spec.description,
    healthAndSafety: spec.healthAndSafety,
    providedItems: spec.providedItems,
    locationName: spec.location.name,
    latitude: spec.location.latitude,
    longitude: spec.location.longitude,
    timezoneId: spec.location.timezoneId,
    locationAdditionalInfo: spec.location.additionalInfo,
    maxParticipantsCount: spec.maxParticipantsCount,
    sessionDurationMinutes: spec.sessionDurationMinutes,
    bookingAvailabilityMode: spec.bookingAvailabilityMode,
    isExclusive: spec.isExclusive ?? false,
    isBookable: spec.isBookable ?? true,
    isUnlisted: spec.isUnlisted ?? false,
    type: spec.type,
    paymentMethods: spec.paymentMethods,
    integrationMeta: spec.integrationMeta ?? [],
    externalFieldType: spec.externalField?.type ?? null,
    externalFieldValue: spec.externalField?.value ?? null,
    minimumRequiredToBook: spec.minimumRequiredToBook ?? null,
    maximumAllowedToBook: spec.maximumAllowedToBook ?? null,
    displayedCapacity: spec.displayedCapacity ?? null,
    cancellationPolicyId: spec.cancellationPolicy ? cancellationPolicyId(brand, spec.cancellationPolicy) : null,
  });
  if (spec.translations?.length) {
    await seed.insert(
      'experienceTranslations',
      spec.translations.map((t) => ({ ...t, experienceId: id })),
    );
  }
  await seed.insert(
    'experienceVibes',
    spec.vibes.map((name, i) => ({ experienceId: id, vibeId: ids.vibe(name), position: i + 1 })),
  );
  await seed.insert(
    'experienceMedia',
    spec.pictures.map((picture, i) => ({
      experienceId: id,
      mediaId: mediaId(brand, picture.slug),
      role: i === 0 ? ('cover' as const) : ('picture' as const),
      position: i + 1,
    })),
  );
  await seed.insert(
    'priceTiers',
    spec.priceTiers.map(([name, priceMinor], i) => ({
      id: demoId(brand, 'price-tier', `${spec.slug}/${name}`),
      experienceId: id,
      name,
      priceMinor,
      position: i + 1,
    })),
  );
  if (spec.taxes.length) {
    await seed.insert(
      'taxes',
      spec.taxes.map(([name, rateBasisPoints], i) => ({
        id: demoId(brand, 'tax', `${spec.slug}/${name}`),
        experienceId: id,
        name,
        rateBasisPoints,
        position: i + 1,
      })),
    );
  }
}

async function insertContent(
  seed: Seeder,
  brand: DemoBrandKey,
  listing: ListingSpec,
  version: 'published' | 'draft',
  spec: ContentSpec,
): Promise<void> {
  const { translations, hidePrice, ...content } = spec;
  const id = catalogIds(brand).content(listing.slug, version);
  await seed.insert('listingContents', {
    ...content,
    id,
    listingId: catalogIds(brand).listing(listing.slug),
    version,
    hidePrice: hidePrice ?? false,
  });
  if (translations?.length) {
    await seed.insert(
      'listingContentTranslations',
      translations.map((t) => ({ ...t, contentId: id })),
    );
  }
}

async function insertListing(seed: Seeder, catalog: BrandCatalog, spec: ListingSpec): Promise<void> {
  const { brand, brandId } = catalog;
  const ids = catalogIds(brand);
  const id = ids.listing(spec.slug);
  await seed.insert('listings', {
    id,
    brandId,
    kind: spec.kind,
    productLine: spec.productLine,
    experienceId: spec.experience ? ids.experience(spec.experience) : null,
    resourceGroupCollectionId: demoId(brand, 'resource-group-collection', spec.slug),
    isFeatured: spec.isFeatured,
    isUnlisted: spec.isUnlisted ?? false,
    isExclusive: spec.isExclusive ?? false,
    displayOrder: spec.displayOrder,
    bookingAvailabilityMode: spec.bookingAvailabilityMode,
    categoryId: spec.category ? ids.category(spec.category) : null,
    hostId: spec.host ? ids.host(spec.host) : null,
    pointsEligible: spec.pointsEligible ?? null,
    eventStartDate: spec.eventDates?.[0] ?? null,
    eventEndDate: spec.eventDates?.[1] ?? null,
  });
  await insertContent(seed, brand, spec, 'published', spec.published);
  if (spec.draft) await insertContent(seed, brand, spec, 'draft', spec.draft);
  await seed.insert(
    'listingMedia',
    spec.medias.map((slug, i) => ({
      listingId: id,
      mediaId: mediaId(brand, slug),
      kind: i === 0 ? 'cover' : 'gallery',
      position: i + 1,
    })),
  );
  if (spec.vibes.length) {
    await seed.insert(
      'listingVibes',
      spec.vibes.map((name, i) => ({ listingId: id, vibeId: ids.vibe(name), position: i + 1 })),
    );
  }
}

export async function seedCatalog(seed: Seeder, catalog: BrandCatalog): Promise<void> {
  await insertHostsAndTaxonomy(seed, catalog);
  await seed.insert('media', catalogMedia(catalog));
  for (const experience of catalog.experiences) await insertExperience(seed, catalog, experience);
  for (const listing of catalog.listings) await insertListing(seed, catalog, listing);
}
