import { avg, count, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createCategory, createExperience, createHost, createMedia } from '../../fixtures/factories/catalog.ts';
import { attachMedia, createListing } from '../../fixtures/factories/listings.ts';
import { createReviews } from '../../fixtures/factories/reviews.ts';
import { preparedPerDb } from '../../src/db/sqlite/prepared.ts';
import { categories, experiences, hosts, listingMedia, listings, media, reviews } from '../../src/db/sqlite/schema/index.ts';
import { freshSqliteDb } from '../support/db.ts';

// Statements prepared with preparedPerDb map rows with a compiled mapper; the same query run once by
// Drizzle maps them with its own mapResultRow. Both must give the same objects, null joins included.

const db = freshSqliteDb();
const brand = await createBrand(db);
const host = await createHost(db, brand.id, { firstName: 'Ana' });
const category = await createCategory(db, brand.id, 'Sailing');
const { experience } = await createExperience(db, brand.id, { hostId: host.id, categoryId: category.id });
const withEverything = await createListing(db, brand.id, {
  experienceId: experience.id,
  hostId: host.id,
  categoryId: category.id,
  displayOrder: 1,
});
const bare = await createListing(db, brand.id, { displayOrder: 2, isExclusive: true });
const picture = await createMedia(db, brand.id);
await attachMedia(db, withEverything.listing.id, picture.id, 0);
await createReviews(db, { brandId: brand.id, experienceId: experience.id, hostId: host.id }, 3);

const listingHost = alias(hosts, 'listing_host');
const experienceHost = alias(hosts, 'experience_host');
const listingCategory = alias(categories, 'listing_category');

const joined = () =>
  db.connection
    .select({
      listing: listings,
      category: { id: listingCategory.id, name: listingCategory.name },
      listingHost,
      experienceHost,
      nested: { experienceId: experiences.id, bookable: experiences.isBookable, order: listings.displayOrder },
      mixed: { listingId: listings.id, hostName: listingHost.firstName },
      places: sql<number>`(select count(*) from listing_media m where m.listing_id = ${listings.id})`.mapWith(Number),
    })
    .from(listings)
    .leftJoin(experiences, eq(experiences.id, listings.experienceId))
    .leftJoin(listingCategory, eq(listingCategory.id, listings.categoryId))
    .leftJoin(listingHost, eq(listingHost.id, listings.hostId))
    .leftJoin(experienceHost, eq(experienceHost.id, experiences.hostId))
    .where(eq(listings.brandId, sql.placeholder('brandId')))
    .orderBy(listings.displayOrder);

describe('compiled row mapping', () => {
  it('builds what Drizzle builds: nested objects, left joins that found nothing as null, decoded booleans and JSON', () => {
    const prepared = preparedPerDb(() => joined().prepare())(db.connection);
    const compiled = prepared.all({ brandId: brand.id });
    expect(compiled).toEqual(joined().prepare().all({ brandId: brand.id }));
    expect(compiled.map((row) => [row.category?.name ?? null, row.listingHost?.firstName ?? null, row.mixed.hostName, row.places])).toEqual(
      [
        ['Sailing', 'Ana', 'Ana', 1],
        [null, null, null, 0],
      ],
    );
    expect(compiled[1]!.listing.isExclusive).toBe(true);
    expect(compiled[1]!.experienceHost).toBeNull();
    expect(compiled[1]!.nested).toEqual({ experienceId: null, bookable: null, order: 2 });
    expect(compiled[0]!.listingHost!.profilePicture).toEqual(host.profilePicture);
  });

  it('maps one row for get, and answers undefined when there is none', () => {
    const one = preparedPerDb(() =>
      db.connection
        .select({ listingId: listingMedia.listingId, media })
        .from(listingMedia)
        .innerJoin(media, eq(media.id, listingMedia.mediaId))
        .where(eq(listingMedia.listingId, sql.placeholder('id')))
        .prepare(),
    )(db.connection);
    expect(one.get({ id: withEverything.listing.id })).toEqual({ listingId: withEverything.listing.id, media: { ...picture } });
    expect(one.get({ id: bare.listing.id })).toBeUndefined();
  });

  it('keeps the decoders of aggregates (mapWith) and plain counts', () => {
    const stats = () =>
      db.connection
        .select({ experienceId: reviews.experienceId, average: avg(reviews.rating).mapWith(Number), total: count() })
        .from(reviews)
        .where(eq(reviews.experienceId, sql.placeholder('id')))
        .groupBy(reviews.experienceId);
    const compiled = preparedPerDb(() => stats().prepare())(db.connection).all({ id: experience.id });
    expect(compiled).toEqual(stats().prepare().all({ id: experience.id }));
    expect(compiled).toEqual([{ experienceId: experience.id, average: expect.any(Number), total: 3 }]);
  });
});
