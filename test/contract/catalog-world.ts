/**
 * The world of the access, catalog, reviews and questions contracts, and their reads: each area's
 * contract file (access, catalog, reviews, questions) builds it on its engine's database and runs its
 * area's reads (given the database and world as a function, read when the tests run); test/postgres/collation.test.ts runs them all again on a PostgreSQL database whose
 * default collation is ICU's en-US, where text does not sort byte by byte: orders and keys that compare
 * text must not lean on the database's collation.
 *
 * Names and ids are chosen so that byte order and a language's order disagree: upper before lower case,
 * accented letters after 'z', punctuation. Rows are written in an order none of the reads asks for.
 */
import { expect, it } from 'vitest';
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
import type { HostRow, ListingRow, PersonRow, ReviewInsert, ReviewKey, ReviewPageRow } from '../../src/domain/catalog/store.ts';
import type { Database } from '../../src/domain/shared/database.ts';
import type { TestDb } from '../support/db.ts';

/** Minute `n` of 2026-01-01, as instants are written. */
export const minute = (n: number) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + n * 60_000).toISOString();

/** Text in byte order (JavaScript compares UTF-16 code units: the bytes' order for the ASCII compared with it here). */
export const inByteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The sailing's price tiers and taxes, in position order. */
const sailingPrices = {
  priceTiers: [
    { name: 'Adult', priceMinor: 4550 },
    { name: 'child', priceMinor: 2000 },
    { name: 'Senior', priceMinor: 3000 },
  ],
  taxes: [
    { name: 'VAT', rateBasisPoints: 2300 },
    { name: 'City tax', rateBasisPoints: 100 },
  ],
};

/** Reviews newest first: latest `reviewedAt`, equal instants by id, descending (byte order). */
export const newestFirst = (a: ReviewInsert, b: ReviewInsert) =>
  a.reviewedAt === b.reviewedAt ? inByteOrder(b.id, a.id) : a.reviewedAt < b.reviewedAt ? 1 : -1;

export async function catalogWorld(db: TestDb) {
  const org = await createOrganization(db, { id: 'org-1', name: 'Coast Group', createdAt: minute(0) });
  // Written in this order; created otherwise ('brand-o' first), two pairs at one instant whose ids sort
  // otherwise by bytes ('brand-B' < 'brand-a') and by language (a < B).
  const orgBrands = {
    z: await createBrand(db, { id: 'brand-z', organizationId: org.id, name: 'Zeta Tours', createdAt: minute(1) }),
    a: await createBrand(db, {
      id: 'brand-a',
      organizationId: org.id,
      name: 'alpha trips',
      currency: 'JPY',
      defaultLocale: 'ja-JP',
      publishableHoldSharePercent: 25,
      createdAt: minute(2),
    }),
    B: await createBrand(db, { id: 'brand-B', organizationId: org.id, name: 'Alpha Trips', createdAt: minute(2) }),
    s2: await createBrand(db, { id: 'brand-s2', organizationId: org.id, name: 'Same', createdAt: minute(4) }),
    s1: await createBrand(db, { id: 'brand-s1', organizationId: org.id, name: 'Same', createdAt: minute(4) }),
    o: await createBrand(db, { id: 'brand-o', organizationId: org.id, name: 'Órbita', createdAt: minute(0) }),
  };
  const brand = await createBrand(db, { id: 'brand-main', name: 'Main', createdAt: minute(7) });
  const cancellation = await createCancellationPolicy(db, brand.id, { id: 'cp-1', fullRefundHoursBefore: null, lateRefundPercent: 50 });
  const reschedule = await createReschedulePolicy(db, brand.id, { id: 'rp-1' });

  // Hosts of the same name written out of id order.
  const costa2 = await createHost(db, brand.id, { id: 'host-2', firstName: 'Rui', lastName: 'Costa' });
  const costa1 = await createHost(db, brand.id, { id: 'host-1', firstName: 'Rui', lastName: 'Costa' });
  const hosts = {
    costa1,
    costa2,
    ana: await createHost(db, brand.id, { id: 'host-3', firstName: 'ana', lastName: 'Costa', allowOverlappingBookings: true }),
    sousa: await createHost(db, brand.id, { id: 'host-4', firstName: 'Zé', lastName: 'de Sousa', phoneNumber: '+351 910 000 000' }),
    alvares: await createHost(db, brand.id, { id: 'host-5', firstName: 'Inês', lastName: 'Álvares' }),
    dias: await createHost(db, brand.id, { id: 'host-6', firstName: 'Bea', lastName: 'Dias' }),
  };

  const sailing = await createExperience(
    db,
    brand.id,
    { id: 'exp-a', cancellationPolicyId: cancellation.id, minimumRequiredToBook: 2, displayedCapacity: 10 },
    {
      host: hosts.costa1,
      pictures: 3,
      vibes: ['Calm', 'sunny', 'Wild'],
      ...sailingPrices,
      translations: [
        { locale: 'pt', title: 'Vela', headline: 'O rio', description: 'Duas horas.', healthAndSafety: 'Coletes.' },
        { locale: 'en-GB', title: 'Sail', headline: 'The river', description: 'Two hours.', healthAndSafety: 'Jackets.' },
        { locale: 'PT-br', title: 'Veleiro', headline: 'O rio', description: 'Duas horas.', healthAndSafety: 'Coletes.' },
      ],
    },
  );
  const walk = await createExperience(db, brand.id, { id: 'exp-B', title: 'Walk', isUnlisted: true }, { host: hosts.sousa, pictures: 0 });
  const tasting = await createExperience(db, brand.id, { id: 'exp-c', title: 'Tasting' }, { host: hosts.dias });
  const dunes = await createExperience(db, brand.id, { id: 'exp-D', title: 'Dunes' }, { host: hosts.dias, pictures: 0 });

  // 23 reviews a minute apart (ratings 1..5 in turn), then three written at one instant (minute 10, as
  // the eleventh) whose ids sort differently by bytes ('tie-B' < 'tie-C' < 'tie-a') and by language.
  const sailingReviews = await createReviews(db, { brandId: brand.id, experienceId: 'exp-a', hostId: hosts.costa1.id }, 23);
  const tieReviewer = await createReviewer(db, brand.id, { id: 'reviewer-tie', firstName: 'Tie' });
  const ties = ['tie-B', 'tie-a', 'tie-C'].map((id, i) =>
    reviewRow({ id, experienceId: 'exp-a', reviewerId: tieReviewer.id, hostId: hosts.costa2.id, reviewedAt: minute(10), rating: 3 + i }),
  );
  await db.database.reviews.insertReviews(ties);
  const tastingReviews = await createReviews(db, { brandId: brand.id, experienceId: 'exp-c', hostId: hosts.dias.id }, [
    { rating: 5, recommendability: 10 },
    { rating: 4, recommendability: 7 },
    { rating: 4, recommendability: 9 },
  ]);
  await createReviews(db, { brandId: brand.id, experienceId: 'exp-D', hostId: hosts.dias.id }, [
    { rating: 2, recommendability: 5 },
    { rating: 3, recommendability: 6 },
  ]);

  // Listings: two of display order 1 ('list-B' < 'list-a' by bytes only), one without content, one
  // unlisted, one not featured.
  const category = await createCategory(db, brand.id, 'Boats');
  const withExperience = await createListing(db, brand.id, {
    id: 'list-a',
    displayOrder: 1,
    experienceId: sailing.experience.id,
    pointsEligible: true,
    content: { id: 'content-a', title: 'Sail', slug: 'sail' },
  });
  const draft = await createListingContent(db, 'list-a', {
    id: 'content-a-draft',
    version: 'draft',
    title: 'Sail (draft)',
    hidePrice: true,
  });
  await createContentTranslation(db, 'content-a', 'PT-BR', { title: 'Vela BR', summary: 'Resumo' });
  await createContentTranslation(db, 'content-a', 'PT', { title: 'Vela', summary: 'Resumo' });
  await createContentTranslation(db, 'content-a', 'en', { title: 'Sail EN', summary: 'Summary' });
  await createContentTranslation(db, 'content-a-draft', 'pt', { title: 'Vela (rascunho)', summary: 'Resumo' });
  const own = await createListing(db, brand.id, {
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
  await createContentTranslation(db, 'content-B', 'pt', { title: 'Evento', summary: 'Resumo' });
  const noContent = await createListing(db, brand.id, { id: 'list-c', displayOrder: 0, content: false });
  const unlisted = await createListing(db, brand.id, {
    id: 'list-u',
    displayOrder: 5,
    isUnlisted: true,
    experienceId: walk.experience.id,
    content: { id: 'content-u' },
  });
  await createListing(db, brand.id, { id: 'list-nf', isFeatured: false, content: { id: 'content-nf' } });
  const pictures = [
    await createMedia(db, brand.id, { id: 'media-2', altText: 'Deck' }),
    await createMedia(db, brand.id, { id: 'media-1' }),
  ];
  await attachMedia(db, 'list-a', pictures[0]!.id, 2, 'gallery');
  await attachMedia(db, 'list-a', pictures[1]!.id, 1);
  await attachMedia(db, 'list-B', pictures[0]!.id, 1);
  const vibes = [await createVibe(db, brand.id, 'Wild'), await createVibe(db, brand.id, 'calm')];
  await attachVibe(db, 'list-a', vibes[0]!.id, 2);
  await attachVibe(db, 'list-a', vibes[1]!.id, 1);
  await attachVibe(db, 'list-B', vibes[1]!.id, 1);

  // Questions: two assignments of order 1 ('eq-1A' < 'eq-1b' by bytes only), an inactive one, another experience's.
  const allergies = await createQuestion(db, brand.id, { id: 'q-allergies' });
  const size = await createQuestion(db, brand.id, {
    id: 'q-size',
    prompt: 'Shirt size?',
    fieldType: 'single_select',
    options: [
      { key: 's', value: 'S' },
      { key: 'm', value: 'M' },
    ],
    termsAndConditions: { label: 'Terms', mediaId: 'media-terms', isOverrided: false },
  });
  const assignments = {
    eq2: await assignQuestion(db, sailing.experience.id, size.id, { id: 'eq-2', order: 2, scope: 'purchaser', isRequired: true }),
    eq1b: await assignQuestion(db, sailing.experience.id, allergies.id, {
      id: 'eq-1b',
      order: 1,
      conditions: [{ rule: 'value_matches', conditionKey: 'q-size', conditionValue: 'm' }],
      conditionsMatchType: 'all',
    }),
    eq1A: await assignQuestion(db, sailing.experience.id, size.id, { id: 'eq-1A', order: 1 }),
    eq0: await assignQuestion(db, sailing.experience.id, allergies.id, { id: 'eq-0', order: 0, isActive: false }),
    walk: await assignQuestion(db, walk.experience.id, allergies.id, { id: 'eq-walk', order: 1 }),
  };

  // Reviewers and experiences for the reviews the write tests write.
  for (let i = 0; i < 4; i++) await createReviewer(db, brand.id, { id: `writer-${i}`, firstName: `Writer${i}` });
  for (const id of ['exp-rank-a', 'exp-rank-b', 'exp-race'])
    await createExperience(db, brand.id, { id }, { host: hosts.costa1, pictures: 0 });
  await createExperience(db, brand.id, { id: 'exp-written' }, { host: hosts.costa2, pictures: 0 });

  /** Every reviewer, as a review page shows them. */
  const people = new Map((await db.rows('reviewers')).map((r) => [r.id, personOf(r)]));

  return {
    org,
    orgBrands,
    brand,
    cancellation,
    reschedule,
    hosts,
    sailing,
    walk,
    tasting,
    dunes,
    sailingReviews: [...sailingReviews, ...ties].sort(newestFirst),
    tastingReviews,
    category,
    withExperience,
    draft,
    own,
    noContent,
    unlisted,
    pictures,
    vibes,
    questions: { allergies, size },
    assignments,
    people,
  };
}

export type CatalogWorld = Awaited<ReturnType<typeof catalogWorld>>;

/** A person (reviewer or host) as a review page shows them. */
export const personOf = (row: PersonRow): PersonRow => ({
  id: row.id,
  firstName: row.firstName,
  lastName: row.lastName,
  emailAddress: row.emailAddress,
  phoneNumber: row.phoneNumber,
  profilePicture: row.profilePicture,
});

/** A listing as stored: what the factory wrote, the columns it left out at their defaults. */
const listingRow = (row: Partial<ListingRow>): ListingRow =>
  ({
    bookingAvailabilityMode: null,
    categoryId: null,
    hostId: null,
    pointsEligible: null,
    eventStartDate: null,
    eventEndDate: null,
    ...row,
  }) as ListingRow;

/** The organizations and API keys stores' reads. */
export function accessReads(on: () => { database: Database; w: CatalogWorld }): void {
  it('reads organizations, brand summaries, brands by name (then id), brand ids oldest first (then id)', async () => {
    const { database, w } = on();
    expect(await database.organizations.findOrganization(w.org.id)).toStrictEqual({
      id: 'org-1',
      name: 'Coast Group',
      createdAt: minute(0),
    });
    expect(await database.organizations.findOrganization('missing')).toBeUndefined();
    const summary = (b: { id: string; name: string; currency: string }) => ({ id: b.id, name: b.name, currency: b.currency });
    const { z, a, B, s1, s2, o } = w.orgBrands;
    expect(await database.organizations.brandsOfOrganization(w.org.id)).toStrictEqual([B, s1, s2, z, a, o].map(summary));
    expect(await database.organizations.brandsOfOrganization('missing')).toEqual([]);
    expect(await database.organizations.brandSummary('brand-a')).toStrictEqual({ id: 'brand-a', name: 'alpha trips', currency: 'JPY' });
    expect(await database.organizations.brandSummary('missing')).toBeUndefined();
    expect(await database.apiKeys.brandIdsOfOrganization(w.org.id)).toEqual([
      'brand-o',
      'brand-z',
      'brand-B',
      'brand-a',
      'brand-s1',
      'brand-s2',
    ]);
    expect(await database.apiKeys.brandIdsOfOrganization('missing')).toEqual([]);
  });
}

/** The brands, experiences, hosts and listings stores' reads. */
export function catalogReads(on: () => { database: Database; w: CatalogWorld }): void {
  it('reads a brand and its policies with their JSON, booleans and instants', async () => {
    const { database, w } = on();
    expect(await database.brands.findBrand(w.brand.id)).toStrictEqual({
      organizationId: null,
      defaultLocale: null,
      validateRoomCharge: false,
      validateMemberCharge: false,
      processorAccount: null,
      cancellationPolicyId: null,
      reschedulePolicyId: null,
      publishableHoldSharePercent: 50,
      ...w.brand,
    });
    expect(await database.brands.findBrand('brand-a')).toMatchObject({
      organizationId: 'org-1',
      currency: 'JPY',
      defaultLocale: 'ja-JP',
      publishableHoldSharePercent: 25,
      createdAt: minute(2),
    });
    expect(await database.brands.findBrand('missing')).toBeUndefined();
    expect(await database.brands.findCancellationPolicy('cp-1')).toStrictEqual(w.cancellation);
    expect(w.cancellation).toMatchObject({ fullRefundHoursBefore: null, lateRefundPercent: 50 });
    expect(await database.brands.findCancellationPolicy('missing')).toBeUndefined();
    expect(await database.brands.findReschedulePolicy('rp-1')).toStrictEqual(w.reschedule);
    expect(w.reschedule).toMatchObject({ allowedHoursBefore: 48, maxReschedules: 2 });
    expect(await database.brands.findReschedulePolicy('missing')).toBeUndefined();
  });

  it('reads an experience, and its parts in their orders', async () => {
    const { database, w } = on();
    expect(await database.experiences.findExperienceRow('exp-a')).toStrictEqual({
      isExclusive: false,
      isBookable: true,
      isUnlisted: false,
      externalFieldType: null,
      externalFieldValue: null,
      maximumAllowedToBook: null,
      version: 1,
      archivedAt: null,
      ...w.sailing.experience,
    });
    expect(w.sailing.experience).toMatchObject({ minimumRequiredToBook: 2, displayedCapacity: 10, cancellationPolicyId: 'cp-1' });
    expect(await database.experiences.findExperienceRow('exp-B')).toMatchObject({
      isUnlisted: true,
      minimumRequiredToBook: null,
      displayedCapacity: null,
      cancellationPolicyId: null,
    });
    expect(await database.experiences.findExperienceRow('missing')).toBeUndefined();

    // Translations by locale, byte order; vibes in their order; cover first, then pictures by position.
    const translation = (locale: string, title: string, english: boolean) => ({
      experienceId: 'exp-a',
      locale,
      title,
      headline: english ? 'The river' : 'O rio',
      description: english ? 'Two hours.' : 'Duas horas.',
      healthAndSafety: english ? 'Jackets.' : 'Coletes.',
    });
    const media = (row: { id: string; altText?: string | null; renditions: unknown }, role: string) => ({
      id: row.id,
      role,
      altText: row.altText ?? null,
      renditions: row.renditions,
    });
    const record = await database.experiences.findExperienceRecord('exp-a');
    expect(record).toStrictEqual({
      row: await database.experiences.findExperienceRow('exp-a'),
      translations: [translation('PT-br', 'Veleiro', false), translation('en-GB', 'Sail', true), translation('pt', 'Vela', false)],
      media: [media(w.sailing.cover, 'cover'), ...w.sailing.pictures.map((p) => media(p, 'picture'))],
      category: { id: w.sailing.category.id, name: 'Boat Tours' },
      host: w.hosts.costa1,
      vibes: w.sailing.vibes.map((v) => ({ id: v.id, name: v.name })),
      // Written in reverse (the factory's way): read back by position.
      ...sailingPrices,
    });
    expect(w.sailing.vibes.map((v) => v.name)).toEqual(['Calm', 'sunny', 'Wild']);
    expect(await database.experiences.findExperienceRecord('exp-B')).toMatchObject({
      row: { id: 'exp-B', isUnlisted: true },
      translations: [],
      media: [media(w.walk.cover, 'cover')],
      vibes: [],
    });
    expect(await database.experiences.findExperienceRecord('missing')).toBeUndefined();
    // An experience page's read: the record and its review stats as reviewStatsOf gives them.
    for (const id of ['exp-a', 'exp-B']) {
      const stats = await database.reviewStats.reviewStatsOf([id]);
      expect(await database.experiences.findExperiencePage(id)).toStrictEqual({
        ...(await database.experiences.findExperienceRecord(id)),
        reviewStats: stats[0] ?? null,
      });
    }
    expect(await database.experiences.findExperiencePage('missing')).toBeUndefined();
    expect(await database.experiences.priceTiersOfExperience('exp-a')).toStrictEqual(record!.priceTiers);
    expect(await database.experiences.priceTiersOfExperience('missing')).toEqual([]);
  });

  it('reads several experiences at once, each as it reads one; unknown ids left out', async () => {
    const { database } = on();
    const records = await database.experiences.findExperienceRecords(['exp-B', 'missing', 'exp-a', 'exp-a']);
    const byId = new Map(records.map((record) => [record.row.id, record]));
    expect([...byId.keys()].sort(inByteOrder)).toEqual(['exp-B', 'exp-a']);
    expect(records).toHaveLength(2);
    expect(byId.get('exp-a')).toStrictEqual(await database.experiences.findExperienceRecord('exp-a'));
    expect(byId.get('exp-B')).toStrictEqual(await database.experiences.findExperienceRecord('exp-B'));
    expect(await database.experiences.findExperienceRecords([])).toEqual([]);
    expect(await database.experiences.findExperienceRecords(['missing'])).toEqual([]);
  });

  it("pages a brand's listed experience ids by id in byte order (unlisted left out), after an id", async () => {
    const { database, w } = on();
    const all = ['exp-D', 'exp-a', 'exp-c', 'exp-race', 'exp-rank-a', 'exp-rank-b', 'exp-written'];
    expect(await database.experiences.listedExperienceIds(w.brand.id, null, 100)).toEqual(all);
    expect(await database.experiences.listedExperienceIds(w.brand.id, null, 2)).toEqual(['exp-D', 'exp-a']);
    expect(await database.experiences.listedExperienceIds(w.brand.id, 'exp-a', 3)).toEqual(['exp-c', 'exp-race', 'exp-rank-a']);
    // An id that is not one of them still places the page: 'exp-B' (unlisted) sorts between 'exp-D' and 'exp-a'.
    expect(await database.experiences.listedExperienceIds(w.brand.id, 'exp-B', 1)).toEqual(['exp-D']);
    expect(await database.experiences.listedExperienceIds(w.brand.id, 'exp-written', 10)).toEqual([]);
    expect(await database.experiences.listedExperienceIds('missing', null, 10)).toEqual([]);
  });

  it('lists hosts by last name, first name, then id (byte order)', async () => {
    const { database, w } = on();
    const { costa1, costa2, ana, dias, sousa, alvares } = w.hosts;
    expect(await database.hosts.listHostsOfBrand(w.brand.id)).toStrictEqual([costa1, costa2, ana, dias, sousa, alvares]);
    expect(ana.allowOverlappingBookings).toBe(true);
    expect(await database.hosts.listHostsOfBrand('missing')).toEqual([]);
  });

  it('reads featured listings in dashboard order (display order, then id) with their categories and hosts, null where absent', async () => {
    const { database, w } = on();
    const host = (row: HostRow) => row;
    // The listings themselves; what comes with each is the next test's.
    const featured = async (brandId: string, unlisted: boolean) =>
      (await database.listings.findFeaturedListingPage(brandId, unlisted, ['published'], [])).map(
        ({ contents: _c, translations: _t, media: _m, vibes: _v, reviewStats: _r, ...row }) => row,
      );
    expect(await featured(w.brand.id, false)).toStrictEqual([
      {
        listing: listingRow(w.noContent.listing),
        listingCategory: null,
        experienceCategory: null,
        listingHost: null,
        experienceHost: null,
      },
      {
        listing: listingRow(w.own.listing),
        listingCategory: { id: w.category.id, name: 'Boats' },
        experienceCategory: null,
        listingHost: host(w.hosts.dias),
        experienceHost: null,
      },
      {
        listing: listingRow(w.withExperience.listing),
        listingCategory: null,
        experienceCategory: { id: w.sailing.category.id, name: 'Boat Tours' },
        listingHost: null,
        experienceHost: host(w.hosts.costa1),
      },
    ]);
    expect(w.own.listing).toMatchObject({ eventStartDate: '2026-07-01', bookingAvailabilityMode: 'private' });
    expect(w.withExperience.listing.pointsEligible).toBe(true);
    expect(await featured(w.brand.id, true)).toStrictEqual([
      {
        listing: listingRow(w.unlisted.listing),
        listingCategory: null,
        experienceCategory: { id: w.walk.category.id, name: 'Boat Tours' },
        listingHost: null,
        experienceHost: host(w.hosts.sousa),
      },
    ]);
    expect(await featured('missing', false)).toEqual([]);
  });

  it('gives each featured listing its contents of the versions asked, their translations, its media, vibes and review stats', async () => {
    const { database, w } = on();
    /** What comes with each listing, by listing id. */
    const page = async (versions: Array<'draft' | 'published'>, locales: string[], unlisted = false) =>
      Object.fromEntries(
        (await database.listings.findFeaturedListingPage(w.brand.id, unlisted, versions, locales)).map(
          ({ listing, contents, translations, media, vibes, reviewStats }) => [
            listing.id,
            { contents, translations, media, vibes, reviewStats },
          ],
        ),
      );
    const translation = (contentId: string, locale: string, title: string, summary = 'Resumo') => ({ contentId, locale, title, summary });
    const [deck, plain] = w.pictures;
    const [wild, calm] = w.vibes;
    const [sailingStats] = await database.reviewStats.reviewStatsOf(['exp-a']);
    expect(sailingStats).toMatchObject({ experienceId: 'exp-a', total: 26 });

    // Versions by name, 'draft' before 'published'; locales compared case-insensitively, translations by content id, then locale.
    expect(await page(['draft', 'published'], ['pt-br', 'PT'])).toStrictEqual({
      'list-c': { contents: [], translations: [], media: [], vibes: [], reviewStats: null },
      'list-B': {
        contents: [w.own.content],
        translations: [translation('content-B', 'pt', 'Evento')],
        media: [{ listingId: 'list-B', kind: 'cover', media: deck }],
        vibes: [{ listingId: 'list-B', id: calm!.id, name: 'calm' }],
        reviewStats: null,
      },
      'list-a': {
        contents: [w.draft, w.withExperience.content],
        translations: [
          translation('content-a', 'PT', 'Vela'),
          translation('content-a', 'PT-BR', 'Vela BR'),
          translation('content-a-draft', 'pt', 'Vela (rascunho)'),
        ],
        media: [
          { listingId: 'list-a', kind: 'cover', media: plain },
          { listingId: 'list-a', kind: 'gallery', media: deck },
        ],
        vibes: [
          { listingId: 'list-a', id: calm!.id, name: 'calm' },
          { listingId: 'list-a', id: wild!.id, name: 'Wild' },
        ],
        reviewStats: sailingStats,
      },
    });
    expect(w.draft.hidePrice).toBe(true);
    expect(deck).toMatchObject({ id: 'media-2', altText: 'Deck', type: 'image' });

    const published = await page(['published'], ['EN']);
    expect(published['list-a']!.contents).toStrictEqual([w.withExperience.content]);
    expect(published['list-a']!.translations).toStrictEqual([translation('content-a', 'en', 'Sail EN', 'Summary')]);
    expect(published['list-B']!.translations).toEqual([]);
    const none = await page([], []);
    expect(Object.values(none).map((listing) => [listing.contents, listing.translations])).toEqual([
      [[], []],
      [[], []],
      [[], []],
    ]);
    expect((await page(['published'], ['pt'], true))['list-u']!.contents).toStrictEqual([w.unlisted.content]);
  });
}

/** A review as a page shows it, at `rank`. */
function pageRow(w: CatalogWorld, review: ReviewInsert, rank: number): ReviewPageRow {
  const host = Object.values(w.hosts).find((h) => h.id === review.hostId)!;
  return {
    id: review.id,
    rank,
    rating: review.rating,
    recommendability: review.recommendability,
    text: review.text,
    reviewedAt: review.reviewedAt,
    experiencedDate: review.experiencedDate,
    reviewer: w.people.get(review.reviewerId)!,
    host: personOf(host),
  };
}

/** The review stats and reviews stores' reads. */
export function reviewReads(on: () => { database: Database; w: CatalogWorld }): void {
  /** exp-a's reviews newest first, as pages show them. */
  const byRank = (w: CatalogWorld) => w.sailingReviews.map((review, i) => pageRow(w, review, i + 1));

  it('averages reviews in double precision, by experience id; experiences without reviews are absent', async () => {
    const { database } = on();
    const sailingRatings = [...Array.from({ length: 23 }, (_, i) => (i % 5) + 1), 3, 4, 5];
    expect(await database.reviewStats.reviewStatsOf(['exp-c', 'exp-a', 'exp-B', 'exp-D', 'missing'])).toStrictEqual([
      { experienceId: 'exp-D', averageRating: 2.5, averageRecommendability: 5.5, total: 2 },
      {
        experienceId: 'exp-a',
        averageRating: sailingRatings.reduce((a, b) => a + b) / sailingRatings.length,
        averageRecommendability: 9,
        total: 26,
      },
      { experienceId: 'exp-c', averageRating: 13 / 3, averageRecommendability: 26 / 3, total: 3 },
    ]);
    expect(await database.reviewStats.reviewStatsOf([])).toEqual([]);
  });

  it('reads a review page with its experience and review count, a page past the end or of no review too', async () => {
    const { database, w } = on();
    const sailing = { id: 'exp-a', title: 'Sunset Sail', brandId: w.brand.id, total: 26 };
    expect((await database.reviews.findReviewsByRank('exp-a', 0, 2))!.experience).toStrictEqual(sailing);
    expect((await database.reviews.findReviewsAfterKey('exp-a', null, 2))!.experience).toStrictEqual(sailing);
    // Past the last review: nothing to carry the experience, read all the same.
    expect(await database.reviews.findReviewsByRank('exp-a', 26, 4)).toStrictEqual({ experience: sailing, reviews: [] });
    const newest = byRank(w)[25]!;
    expect(await database.reviews.findReviewsAfterKey('exp-a', { reviewedAt: newest.reviewedAt, id: newest.id }, 4)).toStrictEqual({
      experience: sailing,
      reviews: [],
    });
    const walk = { id: 'exp-B', title: 'Walk', brandId: w.brand.id, total: 0 };
    expect(await database.reviews.findReviewsByRank('exp-B', 0, 4)).toStrictEqual({ experience: walk, reviews: [] });
    expect(await database.reviews.findReviewsAfterKey('exp-B', null, 4)).toStrictEqual({ experience: walk, reviews: [] });
    expect(await database.reviews.findReviewsByRank('missing', 0, 4)).toBeUndefined();
    expect(await database.reviews.findReviewsAfterKey('missing', null, 4)).toBeUndefined();
  });

  it('pages reviews by rank, newest first, equal instants by id, descending', async () => {
    const { database, w } = on();
    const all = byRank(w);
    expect(all.slice(12, 16).map((r) => r.id)).toEqual(['tie-a', 'tie-C', 'tie-B', w.sailingReviews[15]!.id]);
    expect(w.sailingReviews[15]!.reviewedAt).toBe(minute(10));
    for (let afterRank = 0; afterRank < 30; afterRank += 4) {
      expect((await database.reviews.findReviewsByRank('exp-a', afterRank, 4))!.reviews).toStrictEqual(all.slice(afterRank, afterRank + 4));
    }
    const [first] = (await database.reviews.findReviewsByRank('exp-a', 0, 1))!.reviews;
    expect(first).toMatchObject({ rank: 1, text: 'Review 23', reviewedAt: minute(22), experiencedDate: '2026-02-28T18:00:00.000Z' });
    expect(first!.reviewer).toMatchObject({ firstName: 'Guest23', lastName: 'Reviewer' });
    expect(first!.host.id).toBe('host-1');
    expect((await database.reviews.findReviewsByRank('exp-a', 26, 4))!.reviews).toEqual([]);
    expect((await database.reviews.findReviewsByRank('exp-B', 0, 4))!.reviews).toEqual([]);
    expect((await database.reviews.findReviewsByRank('exp-c', 0, 10))!.reviews).toStrictEqual(
      [...w.tastingReviews].sort(newestFirst).map((review, i) => pageRow(w, review, i + 1)),
    );
  });

  it('reads reviews by id with their experience, as pages show them; unknown ids left out', async () => {
    const { database, w } = on();
    const all = byRank(w);
    const [newest, tenth] = [all[0]!, all[9]!];
    const tasting = (await database.reviews.findReviewsByRank('exp-c', 0, 1))!.reviews[0]!;
    const read = await database.reviews.findReviewsByIds([tenth.id, 'missing', newest.id, tasting.id]);
    const sailing = { id: 'exp-a', title: w.sailing.experience.title, brandId: w.sailing.experience.brandId };
    const byId = new Map(read.map((row) => [row.id, row]));
    expect(read).toHaveLength(3);
    expect(byId.get(newest.id)).toStrictEqual({ ...newest, experience: sailing });
    expect(byId.get(tenth.id)).toStrictEqual({ ...tenth, experience: sailing });
    expect(byId.get(tasting.id)!.experience.id).toBe('exp-c');
    expect(await database.reviews.findReviewsByIds([])).toEqual([]);
  });

  it('pages reviews after a key through ties, in the order of the ranks; a key compares as text', async () => {
    const { database, w } = on();
    const all = byRank(w);
    const seen: ReviewPageRow[] = [];
    let after: ReviewKey | null = null;
    for (;;) {
      const key: ReviewKey | null = after;
      const page: ReviewPageRow[] = (await database.reviews.findReviewsAfterKey('exp-a', key, 3))!.reviews;
      expect(page).toStrictEqual(all.slice(seen.length, seen.length + 3));
      if (page.length === 0) break;
      seen.push(...page);
      const last = page[page.length - 1]!;
      after = { reviewedAt: last.reviewedAt, id: last.id };
    }
    expect(seen).toHaveLength(26);

    // A key between the tied ids, and keys in other shapes: each compares as text with (reviewedAt, id).
    const olderThan = (key: ReviewKey) => (r: ReviewPageRow) =>
      r.reviewedAt < key.reviewedAt || (r.reviewedAt === key.reviewedAt && r.id < key.id);
    const keys: Array<[ReviewKey, number]> = [
      [{ reviewedAt: minute(10), id: 'tie-C' }, 14],
      [{ reviewedAt: minute(10), id: 'tie-b' }, 12],
      [{ reviewedAt: minute(10).replace('.000Z', 'Z'), id: 'tie-C' }, 12],
      [{ reviewedAt: '2026-01-01T00:09:60.000Z', id: 'z' }, 16],
      [{ reviewedAt: '2025-02-30T00:00:00.000Z', id: 'z' }, 26],
      [{ reviewedAt: '2026-01-01T00:10:00.000+00:00', id: '' }, 16],
    ];
    for (const [key, skipped] of keys) {
      expect(all.findIndex(olderThan(key))).toBe(skipped === 26 ? -1 : skipped);
      expect((await database.reviews.findReviewsAfterKey('exp-a', key, 30))!.reviews).toStrictEqual(all.slice(skipped));
    }
    expect((await database.reviews.findReviewsAfterKey('exp-a', keys[0]![0], 2))!.reviews.map((r) => r.id)).toEqual([
      all[14]!.id,
      all[15]!.id,
    ]);
    expect(all[14]!.id).toBe('tie-B');
    expect((await database.reviews.findReviewsAfterKey('exp-B', null, 3))!.reviews).toEqual([]);
  });
}

/** The questions store's reads. */
export function questionReads(on: () => { database: Database; w: CatalogWorld }): void {
  it('reads active questions by experience id, order, then assignment id, with their JSON', async () => {
    const { database, w } = on();
    const { allergies, size } = w.questions;
    const { walk, eq1A, eq1b, eq2 } = w.assignments;
    expect(await database.questions.activeQuestionsOfExperiences(['exp-B', 'exp-a', 'missing'])).toStrictEqual([
      { question: allergies, assignment: walk },
      { question: size, assignment: eq1A },
      { question: allergies, assignment: eq1b },
      { question: size, assignment: eq2 },
    ]);
    expect(eq1b).toMatchObject({ conditionsMatchType: 'all', isActive: true, isRequired: false });
    expect(eq1b.conditions).toEqual([{ rule: 'value_matches', conditionKey: 'q-size', conditionValue: 'm' }]);
    expect(size.options).toEqual([
      { key: 's', value: 'S' },
      { key: 'm', value: 'M' },
    ]);
    expect(size.termsAndConditions).toEqual({ label: 'Terms', mediaId: 'media-terms', isOverrided: false });
    expect(allergies).toMatchObject({ options: null, termsAndConditions: null });
    expect(await database.questions.activeQuestionsOfExperiences(['exp-a'])).toHaveLength(3);
    expect(await database.questions.activeQuestionsOfExperiences([])).toEqual([]);
  });
}

/**
 * Reviews written at one instant, ranked by id in byte order ('X-d' < 'x-B' < 'x-C' < 'x-a'). Writes to
 * exp-c, which no other test writes to.
 */
export function reviewTies(on: () => { database: Database; w: CatalogWorld }): void {
  it('ranks reviews written at one instant by id, descending (byte order), and pages after a key through them', async () => {
    const { database, w } = on();
    const rows = ['x-B', 'x-a', 'x-C', 'X-d'].map((id) =>
      reviewRow({ id, experienceId: 'exp-c', reviewerId: 'writer-0', hostId: 'host-6', reviewedAt: '2026-06-01T00:00:00.000Z' }),
    );
    await database.reviews.insertReviews(rows);
    const expected = [...rows.sort(newestFirst), ...[...w.tastingReviews].sort(newestFirst)].map((review, i) => pageRow(w, review, i + 1));
    expect(expected.slice(0, 4).map((r) => r.id)).toEqual(['x-a', 'x-C', 'x-B', 'X-d']);
    expect((await database.reviews.findReviewsByRank('exp-c', 0, 10))!.reviews).toStrictEqual(expected);
    expect((await database.reviews.findReviewsAfterKey('exp-c', null, 10))!.reviews).toStrictEqual(expected);
    expect(
      (await database.reviews.findReviewsAfterKey('exp-c', { reviewedAt: '2026-06-01T00:00:00.000Z', id: 'x-C' }, 10))!.reviews,
    ).toStrictEqual(expected.slice(2));
    expect(
      (await database.reviews.findReviewsAfterKey('exp-c', { reviewedAt: '2026-06-01T00:00:00.000Z', id: 'x-D' }, 2))!.reviews,
    ).toStrictEqual(expected.slice(1, 3));
  });
}
