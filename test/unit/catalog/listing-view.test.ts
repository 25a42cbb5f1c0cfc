import { describe, expect, it } from 'vitest';
import type { FeaturedListingRow, ListingContentRow, ListingRow } from '../../../src/domain/catalog/store.ts';
import type { Principal } from '../../../src/domain/access/principal.ts';
import { chooseContent, toEventDates, toListing, translationLocales, versionsFor } from '../../../src/domain/catalog/listing-view.ts';

const content = (version: 'published' | 'draft', title: string): ListingContentRow => ({
  id: `${version}-id`,
  listingId: 'l1',
  version,
  title,
  summary: `${title} summary`,
  slug: null,
  advertisedPriceMinor: 4550,
  startingPriceMinor: 8000,
  hidePrice: false,
  pricePerType: 'per person',
  maxParticipants: 4,
});
const published = content('published', 'Published');
const draft = content('draft', 'Draft');

describe('chooseContent', () => {
  it.each([
    ['published', [published, draft], 'Published'],
    ['published', [published], 'Published'],
    ['published', [draft], undefined],
    ['latest', [published, draft], 'Draft'],
    ['latest', [draft, published], 'Draft'],
    ['latest', [published], 'Published'],
    ['latest', [draft], 'Draft'],
    ['latest', [], undefined],
  ] as const)('%s of %j -> %s', (version, rows, title) => {
    expect(chooseContent(rows, version)?.title).toBe(title);
  });

  it('reads only the versions a view may show', () => {
    expect(versionsFor('published')).toEqual(['published']);
    expect(versionsFor('latest')).toEqual(['draft', 'published']);
  });
});

describe('translationLocales', () => {
  it.each([
    ['pt-BR', ['pt-BR', 'pt']],
    ['pt', ['pt']],
    ['zh-Hant-TW', ['zh-Hant-TW', 'zh']],
    [undefined, []],
    [null, []],
  ])('%s -> %j', (locale, expected) => {
    expect(translationLocales(locale)).toEqual(expected);
  });
});

const listing: ListingRow = {
  id: 'l1',
  brandId: 'b1',
  kind: 'event',
  productLine: 'host',
  experienceId: null,
  resourceGroupCollectionId: 'rgc',
  isFeatured: true,
  isUnlisted: false,
  isExclusive: false,
  displayOrder: 7,
  bookingAvailabilityMode: 'non-restricted',
  categoryId: null,
  hostId: null,
  pointsEligible: false,
  eventStartDate: '2026-07-01',
  eventEndDate: '2026-07-02',
};

describe('toEventDates', () => {
  it.each([
    [{}, { startDate: '2026-07-01', endDate: '2026-07-02' }],
    [{ kind: 'resource' as const }, null],
    [{ eventEndDate: null }, null],
    [{ eventStartDate: null }, null],
  ])('%j -> %j', (overrides, expected) => {
    expect(toEventDates({ ...listing, ...overrides })).toEqual(expected);
  });
});

describe('toListing', () => {
  const hostRow = (id: string) => ({
    id,
    brandId: 'b1',
    firstName: id,
    lastName: 'Host',
    emailAddress: `${id}@host.test`,
    phoneNumber: '+1',
    description: '',
    profilePicture: { id: 'p', uri: { original: 'u' } },
    allowOverlappingBookings: true,
  });
  const row = (parts: Partial<FeaturedListingRow>): FeaturedListingRow => ({
    listing,
    listingCategory: null,
    experienceCategory: null,
    listingHost: null,
    experienceHost: null,
    ...parts,
  });
  const caller = (kind: Principal['kind']): Principal => ({ kind, keyId: 'k', organizationId: null, brandIds: ['b'], headerBrandId: null });
  const build = (parts: Partial<FeaturedListingRow>, currency = 'EUR', principal = caller('brand')) =>
    toListing({
      row: row(parts),
      content: published,
      translation: null,
      language: 'en',
      currency,
      medias: [],
      vibes: [],
      ratings: undefined,
      principal,
    });

  it('takes category and host from the listing, else from its experience, else null', () => {
    const own = build({
      listingCategory: { id: 'c1', name: 'Own' },
      experienceCategory: { id: 'c2', name: 'Exp' },
      listingHost: hostRow('h1'),
      experienceHost: hostRow('h2'),
    });
    expect([own.category?.id, own.hostedBy?.id]).toEqual(['c1', 'h1']);
    const inherited = build({ experienceCategory: { id: 'c2', name: 'Exp' }, experienceHost: hostRow('h2') });
    expect([inherited.category?.id, inherited.hostedBy?.id]).toEqual(['c2', 'h2']);
    const none = build({});
    expect([none.category, none.hostedBy]).toEqual([null, null]);
  });

  it('shows money in the currency and the host without its phone number', () => {
    expect(build({}, 'EUR')).toMatchObject({ advertisedPrice: 45.5, startingPrice: 80 });
    expect(build({}, 'JPY')).toMatchObject({ advertisedPrice: 4550, startingPrice: 8000 });
    expect(build({ listingHost: hostRow('h1') }).hostedBy).not.toHaveProperty('phoneNumber');
  });

  it("leaves the host's e-mail out for a publishable key only", () => {
    expect(build({ listingHost: hostRow('h1') }).hostedBy?.emailAddress).toBe('h1@host.test');
    expect(build({ listingHost: hostRow('h1') }, 'EUR', caller('publishable')).hostedBy).not.toHaveProperty('emailAddress');
  });

  it('uses a translation for title and summary only', () => {
    const translated = toListing({
      row: row({}),
      content: { ...published, slug: 'base-slug' },
      translation: { locale: 'pt', title: 'Título', summary: 'Resumo' },
      language: 'en',
      currency: 'EUR',
      medias: [],
      vibes: [],
      ratings: { rating: 4.7, recommendability: 9, total: 3 },
      principal: caller('brand'),
    });
    expect(translated).toMatchObject({
      title: 'Título',
      summary: 'Resumo',
      contentLanguage: 'pt',
      slug: 'base-slug',
      rating: { rating: 4.7, total: 3 },
      order: 7,
    });
    expect(translated.rating).not.toHaveProperty('recommendability');
  });
});
