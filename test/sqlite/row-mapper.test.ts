import { avg, count, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { preparedPerDb } from '../../src/db/sqlite/prepared.ts';
import { categories, experiences, hosts, listingMedia, listings, media, reviews } from '../../src/db/sqlite/schema/index.ts';
import { freshSqliteDb } from '../support/db.ts';
import { buildMappingWorld } from '../support/mapping-world.ts';

// Statements prepared with preparedPerDb map rows with a compiled mapper; the same query run once by
// Drizzle maps them with its own mapResultRow. Both must give the same objects, null joins included.

const db = freshSqliteDb();
const world = await buildMappingWorld(db);

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
    const compiled = prepared.all({ brandId: world.brandId });
    expect(compiled).toEqual(joined().prepare().all({ brandId: world.brandId }));
    expect(compiled.map((row) => [row.category?.name ?? null, row.listingHost?.firstName ?? null, row.mixed.hostName, row.places])).toEqual(
      [
        ['Sailing', 'Ana', 'Ana', 1],
        [null, null, null, 0],
      ],
    );
    expect(compiled[1]!.listing.isExclusive).toBe(true);
    expect(compiled[1]!.experienceHost).toBeNull();
    expect(compiled[1]!.nested).toEqual({ experienceId: null, bookable: null, order: 2 });
    expect(compiled[0]!.listingHost!.profilePicture).toEqual(world.hostPicture);
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
    expect(one.get({ id: world.withEverything })).toEqual({ listingId: world.withEverything, media: { ...world.picture } });
    expect(one.get({ id: world.bare })).toBeUndefined();
  });

  it('keeps the decoders of aggregates (mapWith) and plain counts', () => {
    const stats = () =>
      db.connection
        .select({ experienceId: reviews.experienceId, average: avg(reviews.rating).mapWith(Number), total: count() })
        .from(reviews)
        .where(eq(reviews.experienceId, sql.placeholder('id')))
        .groupBy(reviews.experienceId);
    const compiled = preparedPerDb(() => stats().prepare())(db.connection).all({ id: world.experienceId });
    expect(compiled).toEqual(stats().prepare().all({ id: world.experienceId }));
    expect(compiled).toEqual([{ experienceId: world.experienceId, average: expect.any(Number), total: 3 }]);
  });
});
