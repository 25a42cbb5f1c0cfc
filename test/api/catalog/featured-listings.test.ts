import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';
import { createCategory, createExperience, createHost, createMedia, createVibe } from '../../../fixtures/factories/catalog.ts';
import {
  attachMedia,
  attachVibe,
  createContentTranslation,
  createListing,
  createListingContent,
} from '../../../fixtures/factories/listings.ts';
import { createReviews } from '../../../fixtures/factories/reviews.ts';

const db = await freshDb();
let t: TestApp;
const org = await createOrganization(db);
const brand = await createBrand(db, { name: 'Coast Lisbon', organizationId: org.id, currency: 'EUR', language: 'en' });
const sister = await createBrand(db, { name: 'Coast Tokyo', organizationId: org.id, currency: 'JPY', language: 'ja' });
const outsider = await createBrand(db, { name: 'Elsewhere' });
const brandKey = (await createApiKey(db, { brandId: brand.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;

// Sunset: an experience listing that takes category and host from its experience, with everything nested.
const skipper = await createHost(db, brand.id, { firstName: 'Rui', lastName: 'Costa' });
const tours = await createCategory(db, brand.id, 'Tours');
const sail = (await createExperience(db, brand.id, {}, { host: skipper, category: tours })).experience;
await createReviews(db, { brandId: brand.id, experienceId: sail.id, hostId: skipper.id }, [{ rating: 5 }, { rating: 4 }]);
const sunset = await createListing(db, brand.id, {
  kind: 'experience',
  productLine: 'activate',
  experienceId: sail.id,
  displayOrder: 2,
  isExclusive: true,
  bookingAvailabilityMode: 'private',
  pointsEligible: true,
  content: {
    title: 'Sunset Sail',
    summary: 'Two hours at dusk',
    slug: 'sunset-sail',
    advertisedPriceMinor: 4550,
    startingPriceMinor: 3999,
    maxParticipants: 12,
  },
});
await createListingContent(db, sunset.listing.id, {
  version: 'draft',
  title: 'Sunset Sail (new)',
  summary: 'Now with tapas',
  advertisedPriceMinor: 5000,
});
await createContentTranslation(db, sunset.content!.id, 'pt', { title: 'Passeio ao pôr do sol', summary: 'Duas horas ao entardecer' });
const photo = await createMedia(db, brand.id, { altText: 'Boat at dusk' });
const video = await createMedia(db, brand.id, {
  type: 'video',
  renditions: [{ resolution: 'original', url: 'https://cdn.example.test/v.mp4', type: 'video/mp4' }],
});
await attachMedia(db, sunset.listing.id, video.id, 2, 'gallery');
await attachMedia(db, sunset.listing.id, photo.id, 1, 'cover');
const [calm, wild] = [await createVibe(db, brand.id, 'Relaxing'), await createVibe(db, brand.id, 'Adventurous')];
await attachVibe(db, sunset.listing.id, wild.id, 2);
await attachVibe(db, sunset.listing.id, calm.id, 1);

// Jazz: an event listing (first in dashboard order) whose own category and host win over its experience's.
const singer = await createHost(db, brand.id, { firstName: 'Ana', lastName: 'Moura' });
const music = await createCategory(db, brand.id, 'Music');
const gig = (await createExperience(db, brand.id, {}, { host: skipper, category: tours })).experience;
const jazz = await createListing(db, brand.id, {
  kind: 'event',
  productLine: 'host',
  experienceId: gig.id,
  categoryId: music.id,
  hostId: singer.id,
  displayOrder: 1,
  eventStartDate: '2026-07-01',
  eventEndDate: '2026-07-03',
  content: { title: 'Jazz Night', summary: 'Live jazz', advertisedPriceMinor: 2000, startingPriceMinor: 2000 },
});
await createContentTranslation(db, jazz.content!.id, 'pt-BR', { title: 'Noite de Jazz (BR)', summary: 'Jazz ao vivo' });

// Draft-only, unlisted, not featured, and other brands' listings.
const upcoming = await createListing(db, brand.id, { displayOrder: 3, content: false });
await createListingContent(db, upcoming.listing.id, { version: 'draft', title: 'Coming soon' });
const secret = await createListing(db, brand.id, { displayOrder: 0, isUnlisted: true, content: { title: 'Members only' } });
await createListing(db, brand.id, { displayOrder: 4, isFeatured: false });
const tokyo = await createListing(db, sister.id, { content: { advertisedPriceMinor: 8000, startingPriceMinor: 7500 } });
await createListing(db, outsider.id);

beforeAll(async () => {
  t = await startApp(db);
});

const featured = (query = '', options: { key?: string; headers?: Record<string, string> } = { key: brandKey }) =>
  t.rest('GET', `/v3/listings/featured${query}`, options);
const ids = (res: { body: any }) => res.body.data.map((l: { id: string }) => l.id);
const titles = (res: { body: any }) => res.body.data.map((l: { title: string }) => l.title);

const host = (h: typeof skipper) => ({
  id: h.id,
  profilePicture: h.profilePicture,
  firstName: h.firstName,
  lastName: h.lastName,
  emailAddress: h.emailAddress,
  description: h.description,
  allowOverlappingBookings: false,
});

describe('GET /v3/listings/featured', () => {
  it('returns the published featured listed listings in dashboard order, every field filled', async () => {
    const res = await featured();
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([jazz.listing.id, sunset.listing.id]);
    expect(res.body.data[1]).toEqual({
      id: sunset.listing.id,
      kind: 'experience',
      productLine: 'activate',
      title: 'Sunset Sail',
      summary: 'Two hours at dusk',
      slug: 'sunset-sail',
      advertisedPrice: 45.5,
      startingPrice: 39.99,
      hidePrice: false,
      pricePerType: 'per person',
      maxParticipants: 12,
      order: 2,
      isExclusive: true,
      isUnlisted: false,
      isFeatured: true,
      experienceId: sail.id,
      resourceGroupCollectionId: sunset.listing.resourceGroupCollectionId,
      medias: [
        {
          id: photo.id,
          kind: 'cover',
          type: 'image',
          altText: 'Boat at dusk',
          links: [
            { type: 'image/jpeg', url: `https://cdn.example.test/${photo.id}.jpg`, resolution: 'original' },
            { type: 'image/webp', url: `https://cdn.example.test/${photo.id}-480.webp`, resolution: '480w' },
          ],
        },
        {
          id: video.id,
          kind: 'gallery',
          type: 'video',
          altText: null,
          links: [{ type: 'video/mp4', url: 'https://cdn.example.test/v.mp4', resolution: 'original' }],
        },
      ],
      bookingAvailabilityMode: 'private',
      category: { id: tours.id, name: 'Tours' },
      eventDates: null,
      hostedBy: host(skipper),
      pointsEligible: true,
      rating: { rating: 4.5, total: 2 },
      vibes: [
        { id: calm.id, name: 'Relaxing' },
        { id: wild.id, name: 'Adventurous' },
      ],
    });
  });

  it("prefers the listing's own category and host, and shows event dates; empty and null where nothing is set", async () => {
    const jazzItem = (await featured()).body.data[0];
    expect(jazzItem).toMatchObject({
      kind: 'event',
      productLine: 'host',
      slug: null,
      advertisedPrice: 20,
      category: { id: music.id, name: 'Music' },
      hostedBy: host(singer),
      eventDates: { startDate: '2026-07-01', endDate: '2026-07-03' },
      bookingAvailabilityMode: null,
      pointsEligible: null,
      rating: null,
      medias: [],
      vibes: [],
    });
  });

  it('returns the unlisted listings instead with unlisted=true', async () => {
    const res = await featured('?unlisted=true');
    expect(ids(res)).toEqual([secret.listing.id]);
    expect(res.body.data[0].isUnlisted).toBe(true);
    expect(ids(await featured('?unlisted=false'))).toEqual([jazz.listing.id, sunset.listing.id]);
  });

  it.each([
    ['pt', ['Jazz Night', 'Passeio ao pôr do sol']],
    ['pt-BR', ['Noite de Jazz (BR)', 'Passeio ao pôr do sol']],
    ['PT-br', ['Noite de Jazz (BR)', 'Passeio ao pôr do sol']],
    ['fr', ['Jazz Night', 'Sunset Sail']],
  ])('translates with locale=%s, keeping base text where no translation fits', async (locale, expected) => {
    const res = await featured(`?locale=${locale}`);
    expect(titles(res)).toEqual(expected);
  });

  it('translates the summary too', async () => {
    expect((await featured('?locale=pt')).body.data[1].summary).toBe('Duas horas ao entardecer');
  });

  it('shows drafts with version=latest and published content by default', async () => {
    const latest = await featured('?version=latest');
    expect(ids(latest)).toEqual([jazz.listing.id, sunset.listing.id, upcoming.listing.id]);
    expect(titles(latest)).toEqual(['Jazz Night', 'Sunset Sail (new)', 'Coming soon']);
    expect(latest.body.data[1]).toMatchObject({ summary: 'Now with tapas', advertisedPrice: 50 });
    expect(titles(await featured('?version=published'))).toEqual(['Jazz Night', 'Sunset Sail']);
    // Translations belong to one content version: the draft has none yet.
    expect(titles(await featured('?version=latest&locale=pt'))).toEqual(['Jazz Night', 'Sunset Sail (new)', 'Coming soon']);
  });

  it("shows amounts in the brand's currency (JPY has no minor unit)", async () => {
    const res = await featured('', { key: orgKey, headers: { 'tessera-brand-id': sister.id } });
    expect(ids(res)).toEqual([tokyo.listing.id]);
    expect(res.body.data[0]).toMatchObject({ advertisedPrice: 8000, startingPrice: 7500 });
  });

  it('lets an organization key act for the brand named in Tessera-Brand-Id, and requires it', async () => {
    const named = await featured('', { key: orgKey, headers: { 'tessera-brand-id': brand.id } });
    expect(named.body).toEqual((await featured()).body);
    const missing = await featured('', { key: orgKey });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'Tessera-Brand-Id' } });
  });

  it('refuses brands outside the key scope with 403 and no key with 401', async () => {
    const orgOutside = await featured('', { key: orgKey, headers: { 'tessera-brand-id': outsider.id } });
    expect([orgOutside.status, orgOutside.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const brandOther = await featured('', { key: brandKey, headers: { 'tessera-brand-id': sister.id } });
    expect([brandOther.status, brandOther.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const anonymous = await featured('', {});
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
  });

  it.each([
    ['unlisted=maybe', 'unlisted'],
    ['locale=en_US', 'locale'],
    ['locale=e', 'locale'],
    ['version=draft', 'version'],
  ])('rejects %s as VALIDATION_FAILED on %s', async (query, field) => {
    const res = await featured(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
  });
});

// Raw ids (`uuid`, `key`) under REST's name, so the two faces compare field for field.
const listingFields = `id: uuid kind productLine title summary slug advertisedPrice startingPrice hidePrice pricePerType
  maxParticipants order isExclusive isUnlisted isFeatured experienceId resourceGroupCollectionId
  medias { id: key kind type altText links { type url resolution } } bookingAvailabilityMode
  category { id: key name } eventDates { startDate endDate }
  hostedBy { id: uuid profilePicture { id: key uri } firstName lastName emailAddress description allowOverlappingBookings }
  pointsEligible rating { rating total } vibes { id: key name }`;
const query = `query($brandId: UUID, $unlisted: Boolean, $locale: Locale, $version: ContentVersion) {
  featuredListings(brandId: $brandId, unlisted: $unlisted, locale: $locale, contentVersion: $version) { ${listingFields} } }`;

/** GraphQL enum values back to the REST strings: `NON_RESTRICTED` -> `non-restricted`. */
const restSpelling = (listing: Record<string, unknown>) => {
  const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase().replace(/_/g, '-') : v);
  return {
    ...listing,
    kind: lower(listing.kind),
    productLine: lower(listing.productLine),
    bookingAvailabilityMode: lower(listing.bookingAvailabilityMode),
  };
};

describe('GraphQL featuredListings', () => {
  it.each([
    [{}, ''],
    [{ unlisted: true }, '?unlisted=true'],
    [{ locale: 'pt-BR', version: 'LATEST' }, '?locale=pt-BR&version=latest'],
  ])('agrees with REST for %o', async (variables, restQuery) => {
    const [gql, rest] = await Promise.all([t.gql(query, variables, { key: brandKey }), featured(restQuery)]);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.featuredListings.map(restSpelling)).toEqual(rest.body.data);
  });

  it('answers enums in SCREAMING_SNAKE_CASE', async () => {
    const res = await t.gql(query, {}, { key: brandKey });
    expect(res.body.data.featuredListings[1]).toMatchObject({
      kind: 'EXPERIENCE',
      productLine: 'ACTIVATE',
      bookingAvailabilityMode: 'PRIVATE',
    });
  });

  it('takes the brand from brandId for an organization key, within its scope only', async () => {
    const sisterRes = await t.gql(query, { brandId: sister.id }, { key: orgKey });
    expect(sisterRes.body.data.featuredListings.map((l: { id: string }) => l.id)).toEqual([tokyo.listing.id]);
    const outside = await t.gql(query, { brandId: outsider.id }, { key: orgKey });
    expect(outside.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const unnamed = await t.gql(query, {}, { key: orgKey });
    expect(unnamed.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'Tessera-Brand-Id' });
    const byHeader = await t.gql(query, {}, { key: orgKey, headers: { 'tessera-brand-id': sister.id } });
    expect(byHeader.body.data.featuredListings).toHaveLength(1);
  });

  it('refuses no key, another brand and bad arguments', async () => {
    expect((await t.gql(query, {})).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await t.gql(query, { brandId: sister.id }, { key: brandKey })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    for (const variables of [{ locale: 'not a locale' }, { version: 'DRAFT' }, { unlisted: 'yes' }, { brandId: 'nope' }]) {
      const res = await t.gql(query, variables, { key: brandKey });
      expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
  });
});
