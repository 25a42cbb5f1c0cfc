/**
 * The PostgreSQL access, catalog and questions stores against the SQLite ones: one world built with the
 * factories on SQLite and copied into PostgreSQL, the same calls on both ports, the same answers (values,
 * number types, instants, null vs absent, and order). The reads run twice: on a database of the server's
 * default collation and on one whose default collation is ICU's en-US (where text does not sort byte by
 * byte, as it does on SQLite), so orders and paging that compare text are shown not to lean on the
 * collation. Then the writes (API keys, reviews) on both sides, and the races on PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrand, createCancellationPolicy, createOrganization, createReschedulePolicy } from '../../fixtures/factories/brands.ts';
import {
  assignQuestion,
  createCategory,
  createExperience,
  createHost,
  createMedia,
  createQuestion,
  createVibe,
} from '../../fixtures/factories/catalog.ts';
import {
  attachMedia,
  attachVibe,
  createContentTranslation,
  createListing,
  createListingContent,
} from '../../fixtures/factories/listings.ts';
import { createReviewer, createReviews, reviewRow } from '../../fixtures/factories/reviews.ts';
import type { ReviewKey, ReviewPageRow } from '../../src/domain/catalog/store.ts';
import type { Database, Stores } from '../../src/domain/shared/database.ts';
import { closePostgres, migratePostgres, openPostgres, type PgDb } from '../../src/db/postgres/client.ts';
import { postgresDatabase, type DatabaseOf } from '../../src/db/postgres/database.ts';
import type { PostgresStores } from '../../src/db/postgres/store-binding.ts';
import { apiKeysStore } from '../../src/db/postgres/stores/access/api-keys.ts';
import { organizationsStore } from '../../src/db/postgres/stores/access/organizations.ts';
import { brandsStore } from '../../src/db/postgres/stores/catalog/brands.ts';
import { experiencesStore } from '../../src/db/postgres/stores/catalog/experiences.ts';
import { hostsStore } from '../../src/db/postgres/stores/catalog/hosts.ts';
import { listingsStore } from '../../src/db/postgres/stores/catalog/listings.ts';
import { reviewStatsStore } from '../../src/db/postgres/stores/catalog/review-stats.ts';
import { insertReviews as insertReviewsPg, type ReviewInsert } from '../../src/db/postgres/stores/catalog/reviews-write.ts';
import { reviewsAfterKeyQuery, reviewsStore } from '../../src/db/postgres/stores/catalog/reviews.ts';
import { questionsStore } from '../../src/db/postgres/stores/questions/questions.ts';
import { insertReviews as insertReviewsSqlite } from '../../src/db/sqlite/stores/catalog/reviews-write.ts';
import { freshDb, portOf } from '../support/db.ts';
import { describePostgres, freshPostgresDatabase } from '../support/postgres.ts';
import { copyRows } from '../support/postgres-rows.ts';

type CatalogStores = Pick<
  Stores,
  'apiKeys' | 'organizations' | 'brands' | 'experiences' | 'hosts' | 'listings' | 'reviewStats' | 'reviews' | 'questions'
>;

const catalogStores: PostgresStores<CatalogStores> = {
  apiKeys: apiKeysStore,
  organizations: organizationsStore,
  brands: brandsStore,
  experiences: experiencesStore,
  hosts: hostsStore,
  listings: listingsStore,
  reviewStats: reviewStatsStore,
  reviews: reviewsStore,
  questions: questionsStore,
};

type Port = CatalogStores;

/** Minute `n` of 2026-01-01, as instants are written. */
const minute = (n: number) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + n * 60_000).toISOString();

/**
 * The world both ports read. Names and ids are chosen so that byte order (SQLite's) and a language's
 * order disagree: upper before lower case, accented letters after 'z', punctuation.
 */
function buildWorld() {
  const world = freshDb();
  const org = createOrganization(world, { id: 'org-1', name: 'Coast Group' });
  // Written in this order, created in this order; their ids and names sort otherwise.
  const orgBrands = [
    createBrand(world, { id: 'brand-z', organizationId: org.id, name: 'Zeta Tours', createdAt: minute(1) }),
    createBrand(world, { id: 'brand-a', organizationId: org.id, name: 'alpha trips', currency: 'JPY', createdAt: minute(2) }),
    createBrand(world, { id: 'brand-B', organizationId: org.id, name: 'Alpha Trips', createdAt: minute(3) }),
    createBrand(world, { id: 'brand-s2', organizationId: org.id, name: 'Same', createdAt: minute(4) }),
    createBrand(world, { id: 'brand-s1', organizationId: org.id, name: 'Same', createdAt: minute(5) }),
    createBrand(world, { id: 'brand-o', organizationId: org.id, name: 'Órbita', createdAt: minute(6) }),
  ];
  const brand = createBrand(world, { id: 'brand-main', name: 'Main', createdAt: minute(7) });
  const cancellation = createCancellationPolicy(world, brand.id, { id: 'cp-1', fullRefundHoursBefore: null, lateRefundPercent: 50 });
  const reschedule = createReschedulePolicy(world, brand.id, { id: 'rp-1' });

  // Hosts of the same name are written in id order: SQLite gives those in the order written.
  const hosts = {
    costa1: createHost(world, brand.id, { id: 'host-1', firstName: 'Rui', lastName: 'Costa' }),
    costa2: createHost(world, brand.id, { id: 'host-2', firstName: 'Rui', lastName: 'Costa' }),
    ana: createHost(world, brand.id, { id: 'host-3', firstName: 'ana', lastName: 'Costa', allowOverlappingBookings: true }),
    sousa: createHost(world, brand.id, { id: 'host-4', firstName: 'Zé', lastName: 'de Sousa', phoneNumber: '+351 910 000 000' }),
    alvares: createHost(world, brand.id, { id: 'host-5', firstName: 'Inês', lastName: 'Álvares' }),
    dias: createHost(world, brand.id, { id: 'host-6', firstName: 'Bea', lastName: 'Dias' }),
  };

  const sailing = createExperience(
    world,
    brand.id,
    { id: 'exp-a', cancellationPolicyId: cancellation.id, minimumRequiredToBook: 2, displayedCapacity: 10 },
    {
      host: hosts.costa1,
      pictures: 3,
      vibes: ['Calm', 'sunny', 'Wild'],
      priceTiers: [
        { name: 'Adult', priceMinor: 4550 },
        { name: 'child', priceMinor: 2000 },
        { name: 'Senior', priceMinor: 3000 },
      ],
      taxes: [
        { name: 'VAT', rateBasisPoints: 2300 },
        { name: 'City tax', rateBasisPoints: 100 },
      ],
      translations: [
        { locale: 'pt', title: 'Vela', headline: 'O rio', description: 'Duas horas.', healthAndSafety: 'Coletes.' },
        { locale: 'en-GB', title: 'Sail', headline: 'The river', description: 'Two hours.', healthAndSafety: 'Jackets.' },
        { locale: 'PT-br', title: 'Veleiro', headline: 'O rio', description: 'Duas horas.', healthAndSafety: 'Coletes.' },
      ],
    },
  );
  const walk = createExperience(world, brand.id, { id: 'exp-B', title: 'Walk', isUnlisted: true }, { host: hosts.sousa, pictures: 0 });
  const tasting = createExperience(world, brand.id, { id: 'exp-c', title: 'Tasting' }, { host: hosts.dias });

  // 23 reviews a minute apart (ratings 1..5 in turn), then three written at one instant whose ids sort
  // differently by bytes ('tie-B' < 'tie-C' < 'tie-a') and by language (a < B < C).
  createReviews(world, { brandId: brand.id, experienceId: sailing.experience.id, hostId: hosts.costa1.id }, 23);
  const tieReviewer = createReviewer(world, brand.id, { id: 'reviewer-tie', firstName: 'Tie' });
  insertReviewsSqlite(
    world,
    ['tie-B', 'tie-a', 'tie-C'].map((id, i) =>
      reviewRow({
        id,
        experienceId: sailing.experience.id,
        reviewerId: tieReviewer.id,
        hostId: hosts.costa2.id,
        reviewedAt: minute(10),
        rating: 3 + i,
      }),
    ),
  );
  createReviews(world, { brandId: brand.id, experienceId: tasting.experience.id, hostId: hosts.dias.id }, [
    { rating: 5, recommendability: 10 },
    { rating: 4, recommendability: 7 },
    { rating: 4, recommendability: 9 },
  ]);

  // Listings: two of display order 1 (ids 'list-B' < 'list-a' by bytes only), one without content, one
  // unlisted, one not featured.
  const category = createCategory(world, brand.id, 'Boats');
  const withExperience = createListing(world, brand.id, {
    id: 'list-a',
    displayOrder: 1,
    experienceId: sailing.experience.id,
    pointsEligible: true,
    content: { id: 'content-a', title: 'Sail', slug: 'sail' },
  });
  const draft = createListingContent(world, 'list-a', { id: 'content-a-draft', version: 'draft', title: 'Sail (draft)', hidePrice: true });
  createContentTranslation(world, 'content-a', 'PT-BR', { title: 'Vela BR', summary: 'Resumo' });
  createContentTranslation(world, 'content-a', 'PT', { title: 'Vela', summary: 'Resumo' });
  createContentTranslation(world, 'content-a', 'en', { title: 'Sail EN', summary: 'Summary' });
  createContentTranslation(world, 'content-a-draft', 'pt', { title: 'Vela (rascunho)', summary: 'Resumo' });
  const own = createListing(world, brand.id, {
    id: 'list-B',
    kind: 'event',
    productLine: 'host',
    displayOrder: 1,
    categoryId: category.id,
    hostId: hosts.dias.id,
    bookingAvailabilityMode: 'private',
    eventStartDate: '2026-07-01',
    eventEndDate: '2026-07-03',
    content: { id: 'content-B', advertisedPriceMinor: 0 },
  });
  createContentTranslation(world, 'content-B', 'pt', { title: 'Evento', summary: 'Resumo' });
  createListing(world, brand.id, { id: 'list-c', displayOrder: 0, content: false });
  createListing(world, brand.id, {
    id: 'list-u',
    displayOrder: 5,
    isUnlisted: true,
    experienceId: walk.experience.id,
    content: { id: 'content-u' },
  });
  createListing(world, brand.id, { id: 'list-nf', isFeatured: false, content: { id: 'content-nf' } });
  const pictures = [createMedia(world, brand.id, { id: 'media-2', altText: 'Deck' }), createMedia(world, brand.id, { id: 'media-1' })];
  attachMedia(world, 'list-a', pictures[0]!.id, 2, 'gallery');
  attachMedia(world, 'list-a', pictures[1]!.id, 1);
  attachMedia(world, 'list-B', pictures[0]!.id, 1);
  const vibes = [createVibe(world, brand.id, 'Wild'), createVibe(world, brand.id, 'calm')];
  attachVibe(world, 'list-a', vibes[0]!.id, 2);
  attachVibe(world, 'list-a', vibes[1]!.id, 1);
  attachVibe(world, 'list-B', vibes[1]!.id, 1);

  // Questions: two assignments of order 1 ('eq-1A' < 'eq-1b' by bytes only), an inactive one, another experience's.
  const allergies = createQuestion(world, brand.id, { id: 'q-allergies' });
  const size = createQuestion(world, brand.id, {
    id: 'q-size',
    prompt: 'Shirt size?',
    fieldType: 'single_select',
    options: [
      { key: 's', value: 'S' },
      { key: 'm', value: 'M' },
    ],
    termsAndConditions: { label: 'Terms', mediaId: 'media-terms', isOverrided: false },
  });
  assignQuestion(world, sailing.experience.id, size.id, { id: 'eq-2', order: 2, scope: 'purchaser', isRequired: true });
  assignQuestion(world, sailing.experience.id, allergies.id, {
    id: 'eq-1b',
    order: 1,
    conditions: [{ rule: 'value_matches', conditionKey: 'q-size', conditionValue: 'm' }],
    conditionsMatchType: 'all',
  });
  assignQuestion(world, sailing.experience.id, size.id, { id: 'eq-1A', order: 1 });
  assignQuestion(world, sailing.experience.id, allergies.id, { id: 'eq-0', order: 0, isActive: false });
  assignQuestion(world, walk.experience.id, allergies.id, { id: 'eq-walk', order: 1 });

  // Reviewers for the reviews the tests write.
  const writers = Array.from({ length: 4 }, (_, i) => createReviewer(world, brand.id, { id: `writer-${i}`, firstName: `Writer${i}` }));
  const ranked = createExperience(world, brand.id, { id: 'exp-rank-a' }, { host: hosts.costa1, pictures: 0 });
  const rankedB = createExperience(world, brand.id, { id: 'exp-rank-b' }, { host: hosts.costa1, pictures: 0 });
  const raced = createExperience(world, brand.id, { id: 'exp-race' }, { host: hosts.costa1, pictures: 0 });
  const written = createExperience(world, brand.id, { id: 'exp-written' }, { host: hosts.costa2, pictures: 0 });
  createExperience(world, brand.id, { id: 'exp-many' }, { host: hosts.costa1, pictures: 0 });

  return {
    world,
    org,
    orgBrands,
    brand,
    cancellation,
    reschedule,
    hosts,
    sailing,
    walk,
    tasting,
    withExperience,
    draft,
    own,
    writers,
    ranked,
    rankedB,
    raced,
    written,
  };
}

/** A new empty database whose default collation is ICU's en-US, dropped after the file's tests. */
function freshIcuDatabase(): { url: () => string } {
  return freshPostgresDatabase(`TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`);
}

/**
 * Runs `call` on both ports and expects the same answer; returns it. Strict: an `undefined` property
 * is not a missing one, and a number is not a numeric string.
 */
function differential(ports: () => { sqlite: Port; postgres: Port }) {
  return async <T>(call: (port: Port) => Promise<T>): Promise<T> => {
    const { sqlite, postgres } = ports();
    const expected = await call(sqlite);
    const actual = await call(postgres);
    expect(actual).toStrictEqual(expected);
    return expected;
  };
}

/** The read-only half of the suite: the same answers from both ports on an untouched copy of the world. */
function readsAgree(label: string, target: () => { url: () => string }) {
  describe(label, () => {
    const database = target();
    const w = buildWorld();
    const sqlite: Port = portOf(w.world);
    let pgDb: PgDb;
    let postgres: DatabaseOf<CatalogStores>;
    beforeAll(async () => {
      pgDb = openPostgres(database.url());
      await migratePostgres(pgDb);
      await copyRows(w.world, pgDb);
      postgres = postgresDatabase(pgDb, catalogStores);
    });
    afterAll(() => closePostgres(pgDb));
    const same = differential(() => ({ sqlite, postgres }));

    it('reads organizations and brand summaries, brands by name in byte order', async () => {
      expect(await same((p) => p.organizations.findOrganization(w.org.id))).toMatchObject({ id: 'org-1', name: 'Coast Group' });
      expect(await same((p) => p.organizations.findOrganization('missing'))).toBeUndefined();
      const names = await same((p) => p.organizations.brandsOfOrganization(w.org.id));
      expect(names.map((b) => b.id)).toEqual(['brand-B', 'brand-s1', 'brand-s2', 'brand-z', 'brand-a', 'brand-o']);
      expect(await same((p) => p.organizations.brandsOfOrganization('missing'))).toEqual([]);
      expect(await same((p) => p.organizations.brandSummary('brand-a'))).toStrictEqual({
        id: 'brand-a',
        name: 'alpha trips',
        currency: 'JPY',
      });
      expect(await same((p) => p.organizations.brandSummary('missing'))).toBeUndefined();
      expect(await same((p) => p.apiKeys.brandIdsOfOrganization(w.org.id))).toEqual(w.orgBrands.map((b) => b.id));
      expect(await same((p) => p.apiKeys.brandIdsOfOrganization('missing'))).toEqual([]);
    });

    it('reads brands and their policies with JSON, booleans and instants as SQLite does', async () => {
      const brand = await same((p) => p.brands.findBrand(w.brand.id));
      expect(brand).toMatchObject({
        isLimited: false,
        featuresUpdatedAt: '2026-01-15T10:00:00.000Z',
        createdAt: minute(7),
        organizationId: null,
      });
      expect(brand!.paymentMethods).toEqual({ applePay: true, googlePay: true, paypal: false, klarna: false, link: false });
      expect(await same((p) => p.brands.findBrand('missing'))).toBeUndefined();
      expect(await same((p) => p.brands.findCancellationPolicy('cp-1'))).toMatchObject({
        fullRefundHoursBefore: null,
        lateRefundPercent: 50,
      });
      expect(await same((p) => p.brands.findCancellationPolicy('missing'))).toBeUndefined();
      expect(await same((p) => p.brands.findReschedulePolicy('rp-1'))).toMatchObject({ allowedHoursBefore: 48, maxReschedules: 2 });
      expect(await same((p) => p.brands.findReschedulePolicy('missing'))).toBeUndefined();
    });

    it('reads an experience and its parts in their orders', async () => {
      const row = await same((p) => p.experiences.findExperienceRow('exp-a'));
      expect(row).toMatchObject({ minimumRequiredToBook: 2, maximumAllowedToBook: null, isBookable: true, externalFieldType: null });
      expect(await same((p) => p.experiences.findExperienceRow('missing'))).toBeUndefined();
      const translations = await same((p) => p.experiences.translationsOfExperience('exp-a'));
      expect(translations.map((t) => t.locale)).toEqual(['PT-br', 'en-GB', 'pt']);
      expect(await same((p) => p.experiences.translationsOfExperience('exp-B'))).toEqual([]);
      expect(await same((p) => p.experiences.findCategory(w.sailing.category.id))).toStrictEqual({
        id: w.sailing.category.id,
        name: 'Boat Tours',
      });
      expect(await same((p) => p.experiences.findCategory('missing'))).toBeUndefined();
      expect((await same((p) => p.experiences.vibesOfExperience('exp-a'))).map((v) => v.name)).toEqual(['Calm', 'sunny', 'Wild']);
      const media = await same((p) => p.experiences.mediaOfExperience('exp-a'));
      expect(media.map((m) => m.role)).toEqual(['cover', 'picture', 'picture', 'picture']);
      expect(media.slice(1).map((m) => m.id)).toEqual(w.sailing.pictures.map((m) => m.id));
      expect(await same((p) => p.experiences.mediaOfExperience('exp-B'))).toHaveLength(1);
      expect(await same((p) => p.experiences.priceTiersOfExperience('exp-a'))).toStrictEqual([
        { name: 'Adult', priceMinor: 4550 },
        { name: 'child', priceMinor: 2000 },
        { name: 'Senior', priceMinor: 3000 },
      ]);
      expect(await same((p) => p.experiences.taxesOfExperience('exp-a'))).toStrictEqual([
        { name: 'VAT', rateBasisPoints: 2300 },
        { name: 'City tax', rateBasisPoints: 100 },
      ]);
      expect(await same((p) => p.experiences.taxesOfExperience('missing'))).toEqual([]);
    });

    it('lists hosts by last then first name in byte order, and finds hosts by ids', async () => {
      const listed = await same((p) => p.hosts.listHostsOfBrand(w.brand.id));
      expect(listed.map((h) => h.id)).toEqual(['host-1', 'host-2', 'host-3', 'host-6', 'host-4', 'host-5']);
      expect(listed[2]!.allowOverlappingBookings).toBe(true);
      expect(await same((p) => p.hosts.listHostsOfBrand('missing'))).toEqual([]);
      const found = await same((p) => p.hosts.findHostsByIds(['host-6', 'host-4', 'missing', 'host-1', 'host-6']));
      expect(found.map((h) => h.id)).toEqual(['host-1', 'host-4', 'host-6']);
      expect(found[1]!.profilePicture).toEqual(w.hosts.sousa.profilePicture);
      expect(await same((p) => p.hosts.findHostsByIds([]))).toEqual([]);
    });

    it('reads featured listings in dashboard order with their categories and hosts, null where absent', async () => {
      const listed = await same((p) => p.listings.findFeaturedListings(w.brand.id, false));
      expect(listed.map((r) => r.listing.id)).toEqual(['list-c', 'list-B', 'list-a']);
      const [noContent, own, withExperience] = listed;
      expect(noContent).toMatchObject({ listingCategory: null, experienceCategory: null, listingHost: null, experienceHost: null });
      expect(own!.listingCategory).toStrictEqual({ id: w.own.listing.categoryId, name: 'Boats' });
      expect(own!.listingHost!.id).toBe('host-6');
      expect(own!.listing).toMatchObject({ eventStartDate: '2026-07-01', pointsEligible: null, bookingAvailabilityMode: 'private' });
      expect(withExperience!.experienceHost!.id).toBe('host-1');
      expect(withExperience!.experienceCategory!.name).toBe('Boat Tours');
      expect(withExperience!.listing.pointsEligible).toBe(true);
      expect((await same((p) => p.listings.findFeaturedListings(w.brand.id, true))).map((r) => r.listing.id)).toEqual(['list-u']);
      expect(await same((p) => p.listings.findFeaturedListings('missing', false))).toEqual([]);
    });

    it('reads listing contents, translations, media and vibes in batches', async () => {
      const ids = ['list-a', 'list-B', 'list-c', 'list-u', 'missing'];
      const published = await same((p) => p.listings.findListingContents(ids, ['published']));
      expect(published.map((c) => c.id)).toEqual(['content-B', 'content-a', 'content-u']);
      const latest = await same((p) => p.listings.findListingContents(ids, ['draft', 'published']));
      expect(latest.map((c) => c.id)).toEqual(['content-B', 'content-a-draft', 'content-a', 'content-u']);
      expect(latest[1]!.hidePrice).toBe(true);
      expect(await same((p) => p.listings.findListingContents([], ['published']))).toEqual([]);

      const contents = ['content-a', 'content-a-draft', 'content-B'];
      const pt = await same((p) => p.listings.findContentTranslations(contents, ['pt-br', 'PT']));
      expect(pt.map((t) => `${t.contentId}/${t.locale}`)).toEqual([
        'content-B/pt',
        'content-a/PT',
        'content-a/PT-BR',
        'content-a-draft/pt',
      ]);
      expect(await same((p) => p.listings.findContentTranslations(contents, ['EN']))).toHaveLength(1);
      expect(await same((p) => p.listings.findContentTranslations(contents, []))).toEqual([]);
      expect(await same((p) => p.listings.findContentTranslations([], ['pt']))).toEqual([]);

      const media = await same((p) => p.listings.findListingMedia(['list-a', 'list-B', 'list-c']));
      expect(media.map((m) => `${m.listingId}/${m.media.id}/${m.kind}`)).toEqual([
        'list-B/media-2/cover',
        'list-a/media-1/cover',
        'list-a/media-2/gallery',
      ]);
      expect(media[0]!.media).toMatchObject({ altText: 'Deck', type: 'image' });
      expect(await same((p) => p.listings.findListingMedia([]))).toEqual([]);
      const vibes = await same((p) => p.listings.findListingVibes(['list-a', 'list-B']));
      expect(vibes.map((v) => `${v.listingId}/${v.name}`)).toEqual(['list-B/calm', 'list-a/calm', 'list-a/Wild']);
      expect(await same((p) => p.listings.findListingVibes([]))).toEqual([]);
    });

    it('averages reviews in double precision, as SQLite does', async () => {
      const stats = await same((p) => p.reviewStats.reviewStatsOf(['exp-c', 'exp-a', 'exp-B', 'missing']));
      expect(stats.map((s) => s.experienceId)).toEqual(['exp-a', 'exp-c']);
      const sailingRatings = [...Array.from({ length: 23 }, (_, i) => (i % 5) + 1), 3, 4, 5];
      expect(stats[0]).toStrictEqual({
        experienceId: 'exp-a',
        averageRating: sailingRatings.reduce((a, b) => a + b) / sailingRatings.length,
        averageRecommendability: 9,
        total: 26,
      });
      expect(stats[1]).toStrictEqual({ experienceId: 'exp-c', averageRating: 13 / 3, averageRecommendability: 26 / 3, total: 3 });
      expect(await same((p) => p.reviewStats.reviewStatsOf([]))).toEqual([]);
    });

    it('counts an experience’s reviews with its header', async () => {
      expect(await same((p) => p.reviews.findReviewedExperience('exp-a'))).toStrictEqual({
        id: 'exp-a',
        title: 'Sunset Sail',
        brandId: w.brand.id,
        total: 26,
      });
      expect(await same((p) => p.reviews.findReviewedExperience('exp-B'))).toMatchObject({ total: 0 });
      expect(await same((p) => p.reviews.findReviewedExperience('missing'))).toBeUndefined();
    });

    it('pages reviews by rank, newest first, equal instants by id in byte order', async () => {
      const seen: string[] = [];
      for (let afterRank = 0; afterRank < 30; afterRank += 4) {
        const page = await same((p) => p.reviews.findReviewsByRank('exp-a', afterRank, 4));
        expect(page.map((r) => r.rank)).toEqual(page.map((_, i) => afterRank + i + 1));
        seen.push(...page.map((r) => r.id));
      }
      expect(seen).toHaveLength(26);
      const ties = seen.filter((id) => id.startsWith('tie-'));
      expect(ties).toEqual(['tie-a', 'tie-C', 'tie-B']);
      const [first] = await same((p) => p.reviews.findReviewsByRank('exp-a', 0, 1));
      expect(first).toMatchObject({ rank: 1, text: 'Review 23', reviewedAt: minute(22), experiencedDate: '2026-02-28T18:00:00.000Z' });
      expect(first!.reviewer).toMatchObject({ firstName: 'Guest23', lastName: 'Reviewer' });
      expect(first!.host.id).toBe('host-1');
      expect(await same((p) => p.reviews.findReviewsByRank('exp-a', 26, 4))).toEqual([]);
      expect(await same((p) => p.reviews.findReviewsByRank('exp-B', 0, 4))).toEqual([]);
    });

    it('pages reviews after a key through ties, in the order of the ranks', async () => {
      const byRank = await same((p) => p.reviews.findReviewsByRank('exp-a', 0, 100));
      const seen: string[] = [];
      let after: ReviewKey | null = null;
      for (;;) {
        const key = after;
        const page: ReviewPageRow[] = await same((p) => p.reviews.findReviewsAfterKey('exp-a', key, 3));
        if (page.length === 0) break;
        seen.push(...page.map((r) => r.id));
        const last = page[page.length - 1]!;
        after = { reviewedAt: last.reviewedAt, id: last.id };
      }
      expect(seen).toEqual(byRank.map((r) => r.id));
      // A key between the tied ids, and keys SQLite compares as text: another shape, and no real date.
      const keys = [
        { reviewedAt: minute(10), id: 'tie-C' },
        { reviewedAt: minute(10), id: 'tie-b' },
        { reviewedAt: minute(10).replace('.000Z', 'Z'), id: 'tie-C' },
        { reviewedAt: '2026-01-01T00:09:60.000Z', id: 'z' },
        { reviewedAt: '2025-02-30T00:00:00.000Z', id: 'z' },
        { reviewedAt: '2026-01-01T00:10:00.000+00:00', id: '' },
      ];
      for (const key of keys) await same((p) => p.reviews.findReviewsAfterKey('exp-a', key, 30));
      expect(byRank.slice(12, 15).map((r) => r.id)).toEqual(['tie-a', 'tie-C', 'tie-B']);
      const afterTieC = await same((p) => p.reviews.findReviewsAfterKey('exp-a', keys[0]!, 2));
      expect(afterTieC.map((r) => r.id)).toEqual([byRank[14]!.id, byRank[15]!.id]);
      expect(await same((p) => p.reviews.findReviewsAfterKey('exp-B', null, 3))).toEqual([]);
    });

    it('reads active questions by experience, order, then id in byte order, with their JSON', async () => {
      const assigned = await same((p) => p.questions.activeQuestionsOfExperiences(['exp-B', 'exp-a', 'missing']));
      expect(assigned.map((a) => a.assignment.id)).toEqual(['eq-walk', 'eq-1A', 'eq-1b', 'eq-2']);
      expect(assigned[2]!.assignment).toMatchObject({ conditionsMatchType: 'all', isActive: true, isRequired: false });
      expect(assigned[2]!.assignment.conditions).toEqual([{ rule: 'value_matches', conditionKey: 'q-size', conditionValue: 'm' }]);
      expect(assigned[1]!.question.options).toEqual([
        { key: 's', value: 'S' },
        { key: 'm', value: 'M' },
      ]);
      expect(assigned[1]!.question.termsAndConditions).toEqual({ label: 'Terms', mediaId: 'media-terms', isOverrided: false });
      expect(assigned[2]!.question).toMatchObject({ options: null, termsAndConditions: null });
      expect(await same((p) => p.questions.activeQuestionsOfExperiences([]))).toEqual([]);
    });

    it('ranks reviews written on both sides alike, equal instants by id in byte order (last: it writes)', async () => {
      const rows = ['x-B', 'x-a', 'x-C', 'X-d'].map((id) =>
        reviewRow({ id, experienceId: 'exp-c', reviewerId: 'writer-0', hostId: 'host-6', reviewedAt: '2026-06-01T00:00:00.000Z' }),
      );
      insertReviewsSqlite(w.world, rows);
      await insertReviewsPg(pgDb, rows);
      const page = await same((p) => p.reviews.findReviewsByRank('exp-c', 0, 10));
      expect(page.map((r) => r.id)).toEqual(['x-a', 'x-C', 'x-B', 'X-d', ...page.slice(4).map((r) => r.id)]);
      expect(page).toHaveLength(7);
      await same((p) => p.reviews.findReviewsAfterKey('exp-c', { reviewedAt: '2026-06-01T00:00:00.000Z', id: 'x-C' }, 10));
    });
  });
}

describePostgres('PostgreSQL access, catalog and questions stores', () => {
  readsAgree('the same answers as SQLite (server default collation)', freshPostgresDatabase);
  readsAgree('the same answers as SQLite (ICU en-US default collation)', freshIcuDatabase);

  describe('writes, on both sides, and races', () => {
    const database = freshPostgresDatabase();
    const w = buildWorld();
    const sqlite: Database = portOf(w.world);
    let pgDb: PgDb;
    let second: PgDb;
    let gateways: Array<DatabaseOf<CatalogStores>> = [];
    beforeAll(async () => {
      pgDb = openPostgres(database.url(), { poolSize: 8 });
      second = openPostgres(database.url(), { poolSize: 8 });
      await migratePostgres(pgDb);
      await copyRows(w.world, pgDb);
      gateways = [postgresDatabase(pgDb, catalogStores), postgresDatabase(second, catalogStores)];
    });
    afterAll(() => Promise.all(gateways.map((g) => g.close())));
    const same = differential(() => ({ sqlite, postgres: gateways[0]! }));

    const key = (n: number, fields: Partial<Parameters<Port['apiKeys']['insertApiKey']>[0]> = {}) => ({
      id: `key-${n}`,
      kind: 'brand' as const,
      secretHash: `hash-${n}`,
      prefix: `sk_test_${n}`,
      brandId: w.brand.id,
      ...fields,
    });

    it('inserts, lists, finds and revokes API keys, and lists the origins of active publishable keys', async () => {
      // Written out of id order; listed in the order written.
      const keys = [
        key(3),
        key(1, { kind: 'organization', brandId: null, organizationId: w.org.id, label: 'Group key' }),
        key(2, { kind: 'publishable', allowedOrigins: ['https://b.example', 'https://a.example'] }),
        key(5, { kind: 'publishable', allowedOrigins: ['https://a.example', 'https://c.example'] }),
        key(4, { kind: 'publishable', allowedOrigins: ['https://gone.example'], revokedAt: minute(200) }),
      ].map((row, i) => ({ ...row, createdAt: minute(100 + i) }));
      for (const row of keys) await same((p) => p.apiKeys.insertApiKey(row));

      const listed = await same((p) => p.apiKeys.listApiKeys());
      expect(listed.map((k) => k.id)).toEqual(['key-3', 'key-1', 'key-2', 'key-5', 'key-4']);
      expect(listed[1]).toStrictEqual({
        id: 'key-1',
        kind: 'organization',
        brandId: null,
        organizationId: 'org-1',
        secretHash: 'hash-1',
        prefix: 'sk_test_1',
        label: 'Group key',
        allowedOrigins: null,
        createdAt: minute(101),
        revokedAt: null,
      });
      expect(await same((p) => p.apiKeys.findActiveKeyByHash('hash-2'))).toStrictEqual({
        id: 'key-2',
        kind: 'publishable',
        brandId: w.brand.id,
        organizationId: null,
        allowedOrigins: ['https://b.example', 'https://a.example'],
      });
      expect(await same((p) => p.apiKeys.findActiveKeyByHash('hash-4'))).toBeUndefined();
      expect(await same((p) => p.apiKeys.findActiveKeyByHash('missing'))).toBeUndefined();
      expect(await same((p) => p.apiKeys.publishableKeyOrigins())).toEqual(['https://b.example', 'https://a.example', 'https://c.example']);

      expect(await same((p) => p.apiKeys.revokeApiKey('key-2', '2026-02-01T00:00:00.000Z'))).toBe(true);
      expect(await same((p) => p.apiKeys.revokeApiKey('key-2', '2026-02-02T00:00:00.000Z'))).toBe(false);
      expect(await same((p) => p.apiKeys.revokeApiKey('missing', '2026-02-02T00:00:00.000Z'))).toBe(false);
      expect(await same((p) => p.apiKeys.findActiveKeyByHash('hash-2'))).toBeUndefined();
      expect(await same((p) => p.apiKeys.publishableKeyOrigins())).toEqual(['https://a.example', 'https://c.example']);
      // A revoked key keeps its place in the list (its new row version does not move it to the end).
      const after = await same((p) => p.apiKeys.listApiKeys());
      expect(after.map((k) => [k.id, k.revokedAt])).toEqual([
        ['key-3', null],
        ['key-1', null],
        ['key-2', '2026-02-01T00:00:00.000Z'],
        ['key-5', null],
        ['key-4', minute(200)],
      ]);
    });

    it('writes the default creation time of a key as an ISO instant', async () => {
      const { createdAt: _, ...row } = key(9);
      const before = Date.now();
      await gateways[0]!.apiKeys.insertApiKey(row);
      const written = (await gateways[0]!.apiKeys.listApiKeys()).find((k) => k.id === 'key-9')!;
      expect(written.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(written.createdAt)).toBeGreaterThanOrEqual(before - 5_000);
    });

    it('revokes a key once when 12 revocations race on two gateways', async () => {
      await gateways[0]!.apiKeys.insertApiKey(key(20));
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          gateways[i % 2]!.transaction((tx) => tx.apiKeys.revokeApiKey('key-20', new Date(Date.UTC(2026, 3, 1, 0, 0, i)).toISOString())),
        ),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const revoked = (await gateways[1]!.apiKeys.listApiKeys()).find((k) => k.id === 'key-20')!;
      expect(revoked.revokedAt).toBe(new Date(Date.UTC(2026, 3, 1, 0, 0, outcomes.indexOf(true))).toISOString());
    });

    /** `id` by rank for one experience, as stored on PostgreSQL. */
    const ranked = async (experienceId: string): Promise<Array<[number, string]>> => {
      const result = await pgDb.$client.query<{ rank: number; id: string }>(
        'SELECT rank, id FROM reviews WHERE experience_id = $1 ORDER BY rank',
        [experienceId],
      );
      return result.rows.map((r) => [r.rank, r.id]);
    };
    const dense = (ids: string[]) => ids.map((id, i) => [i + 1, id]);
    const at = (day: number) => `2026-03-${String(day).padStart(2, '0')}T10:00:00.000Z`;
    const review = (experienceId: string, id: string, day: number, reviewerId = 'writer-0') =>
      reviewRow({ id, experienceId, hostId: 'host-1', reviewerId, reviewedAt: at(day) });

    it('writes reviews on both sides to the same pages, ranks and stats', async () => {
      const rows: ReviewInsert[] = [
        review('exp-written', 'w-05', 5, 'writer-1'),
        review('exp-a', 'w-a', 9, 'writer-2'),
        { ...review('exp-written', 'w-07', 7, 'writer-3'), reviewedAt: '2026-03-07T11:00:00+01:00', rating: 2 },
        review('exp-written', 'W-07', 7),
      ];
      insertReviewsSqlite(w.world, rows);
      await insertReviewsPg(pgDb, rows);
      for (const experienceId of ['exp-written', 'exp-a']) {
        await same((p) => p.reviews.findReviewedExperience(experienceId));
        await same((p) => p.reviews.findReviewsByRank(experienceId, 0, 50));
        await same((p) => p.reviews.findReviewsAfterKey(experienceId, null, 50));
      }
      const written = await same((p) => p.reviews.findReviewsByRank('exp-written', 0, 50));
      expect(written.map((r) => [r.rank, r.id, r.reviewedAt])).toEqual([
        [1, 'w-07', '2026-03-07T10:00:00.000Z'],
        [2, 'W-07', '2026-03-07T10:00:00.000Z'],
        [3, 'w-05', '2026-03-05T10:00:00.000Z'],
      ]);
      expect((await same((p) => p.reviews.findReviewsByRank('exp-a', 0, 1)))[0]!.id).toBe('w-a');
      expect(await same((p) => p.reviewStats.reviewStatsOf(['exp-written', 'exp-a']))).toHaveLength(2);
    });

    describe('insertReviews keeps rank dense, 1 = newest, per experience', () => {
      const a = 'exp-rank-a';
      const b = 'exp-rank-b';
      it('numbers a first batch spanning two experiences separately', async () => {
        await insertReviewsPg(pgDb, [review(a, 'a-05', 5), review(b, 'b-10', 10), review(a, 'a-07', 7), review(b, 'b-02', 2)]);
        expect(await ranked(a)).toEqual(dense(['a-07', 'a-05']));
        expect(await ranked(b)).toEqual(dense(['b-10', 'b-02']));
      });

      it('puts newer, middle and oldest reviews in place', async () => {
        await insertReviewsPg(pgDb, [review(a, 'a-09', 9)]);
        await insertReviewsPg(pgDb, [review(a, 'a-06', 6)]);
        await insertReviewsPg(pgDb, [review(a, 'a-01', 1)]);
        expect(await ranked(a)).toEqual(dense(['a-09', 'a-07', 'a-06', 'a-05', 'a-01']));
        expect(await ranked(b)).toEqual(dense(['b-10', 'b-02']));
      });

      it('orders equal instants by id, descending, byte by byte', async () => {
        await insertReviewsPg(pgDb, [review(b, 'b-05x', 5), review(b, 'b-05Z', 5), review(b, 'b-05y', 5)]);
        expect(await ranked(b)).toEqual(dense(['b-10', 'b-05y', 'b-05x', 'b-05Z', 'b-02']));
      });

      it('writes nothing when a row fails, leaving ranks as they were', async () => {
        await expect(insertReviewsPg(pgDb, [review(a, 'a-04', 4), review(a, 'a-09', 4)])).rejects.toThrow();
        expect(await ranked(a)).toEqual(dense(['a-09', 'a-07', 'a-06', 'a-05', 'a-01']));
      });

      it('orders instants written in other ISO 8601 shapes chronologically, stored canonical', async () => {
        const row = (id: string, reviewedAt: string) => ({ ...review(b, id, 1), reviewedAt });
        await insertReviewsPg(pgDb, [row('c-1000', '2026-03-01T10:00:00Z'), row('c-0930', '2026-03-01T10:30:00+01:00')]);
        await insertReviewsPg(pgDb, [row('c-1000.5', '2026-03-01T10:00:00.500Z')]);
        expect((await ranked(b)).slice(-3)).toEqual([
          [6, 'c-1000.5'],
          [7, 'c-1000'],
          [8, 'c-0930'],
        ]);
        const [stored] = await gateways[0]!.reviews.findReviewsAfterKey(b, { reviewedAt: '2026-03-01T10:00:00.000Z', id: 'c-1000' }, 1);
        expect(stored).toMatchObject({ id: 'c-0930', reviewedAt: '2026-03-01T09:30:00.000Z' });
      });

      it('rejects an instant that is no date-time (even one PostgreSQL would read) and writes nothing', async () => {
        await expect(
          insertReviewsPg(pgDb, [review(a, 'a-bad', 4), { ...review(a, 'a-bad2', 4), reviewedAt: 'yesterday' }]),
        ).rejects.toThrow(/reviewedAt/);
        await expect(insertReviewsPg(pgDb, [{ ...review(a, 'a-bad3', 4), experiencedDate: 'epoch' }])).rejects.toThrow(/experiencedDate/);
        expect(await ranked(a)).toHaveLength(5);
      });

      it('accepts an empty batch', async () => {
        await insertReviewsPg(pgDb, []);
        expect(await ranked(b)).toHaveLength(8);
      });

      it('runs as a savepoint of a transaction it is given, undone with it', async () => {
        await expect(
          pgDb.transaction(async (tx) => {
            await insertReviewsPg(tx, [review(a, 'a-02', 2)]);
            expect((await ranked(a)).length).toBe(5); // not visible outside yet
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect(await ranked(a)).toEqual(dense(['a-09', 'a-07', 'a-06', 'a-05', 'a-01']));
      });
    });

    it('keeps ranks dense when 8 batches of reviews of one experience race on two gateways', async () => {
      const batches = Array.from({ length: 8 }, (_, batch) =>
        Array.from({ length: 3 }, (_, i) => ({
          ...review('exp-race', `race-${batch}-${i}`, 1, `writer-${i}`),
          // Interleaved in time across batches, with some instants shared.
          reviewedAt: minute(((batch * 7 + i * 11) % 13) + 1000),
        })),
      );
      await Promise.all(batches.map((rows, i) => insertReviewsPg(i % 2 ? second : pgDb, rows)));
      const all = batches.flat();
      const expected = [...all]
        .sort((x, y) => (x.reviewedAt === y.reviewedAt ? (x.id < y.id ? -1 : 1) : x.reviewedAt < y.reviewedAt ? -1 : 1))
        .reverse()
        .map((r) => r.id);
      expect(await ranked('exp-race')).toEqual(dense(expected));
      expect((await gateways[1]!.reviews.findReviewedExperience('exp-race'))!.total).toBe(24);
    });

    it('seeks the review index for a page after a key, sorting only reviews of equal instants', async () => {
      // 3000 reviews, three at each instant.
      const rows = Array.from({ length: 3000 }, (_, i) => ({
        ...review('exp-many', `many-${i}`, 1),
        reviewedAt: minute(5000 + (i % 1000)),
      }));
      await insertReviewsPg(pgDb, rows);
      await pgDb.execute(sql`ANALYZE reviews`);
      const query = reviewsAfterKeyQuery(pgDb, 'exp-many', { reviewedAt: minute(5500), id: 'many-1500' }, 20).toSQL();
      const result = await pgDb.$client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${inline(query.sql, query.params)}`);
      const plan = result.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Index Scan Backward using reviews_experience_reviewed_idx/);
      expect(plan).toMatch(/Incremental Sort/);
      expect(plan).not.toMatch(/->\s+Sort\b/);
      const page = await gateways[0]!.reviews.findReviewsAfterKey('exp-many', { reviewedAt: minute(5500), id: 'many-1500' }, 4);
      expect(page.map((r) => r.id)).toEqual(['many-499', 'many-2499', 'many-1499', 'many-498']);
    });
  });
});

/** A statement with its parameters written in (for EXPLAIN), as quoted literals. */
function inline(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
}
