/**
 * Statements prepared with preparedPerExecutor run through a compiled execution (src/db/postgres/
 * prepared-execution.ts): rows mapped by a mapper compiled once instead of Drizzle's mapResultRow, and none
 * of Drizzle's per-call wrapping. The same query run by Drizzle itself must give the same objects, null
 * joins, decoders and instants included; a failure must reach the caller as Drizzle's would.
 */
import { avg, count, DrizzleQueryError, eq, sql } from 'drizzle-orm';
import { NodePgPreparedQuery } from 'drizzle-orm/node-postgres';
import { alias } from 'drizzle-orm/pg-core';
import { beforeAll, expect, it } from 'vitest';
import { namedSql } from '../../src/db/postgres/named-sql.ts';
import { categories, experiences, hosts, listingMedia, listings, media, reviews } from '../../src/db/postgres/schema/index.ts';
import { preparedPerExecutor, type PgExecutor } from '../../src/db/postgres/store-binding.ts';
import { freshPostgresDb } from '../support/db.ts';
import { buildMappingWorld } from '../support/mapping-world.ts';
import { describePostgres } from '../support/postgres.ts';

describePostgres('compiled execution of prepared statements', () => {
  let pgDb: PgExecutor;
  let world: Awaited<ReturnType<typeof buildMappingWorld>>;
  beforeAll(async () => {
    const db = await freshPostgresDb();
    pgDb = db.pg;
    world = await buildMappingWorld(db);
  });

  const listingHost = alias(hosts, 'listing_host');
  const experienceHost = alias(hosts, 'experience_host');
  const listingCategory = alias(categories, 'listing_category');
  const joined = (on: PgExecutor) =>
    on
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

  it('builds what Drizzle builds: nested objects, left joins that found nothing as null, decoded booleans and JSON', async () => {
    const prepared = preparedPerExecutor((on) => joined(on).prepare('test_joined_listings'))(pgDb);
    // The statement runs through the compiled execution, not Drizzle's own (which the comparison runs).
    expect(prepared.execute).not.toBe(NodePgPreparedQuery.prototype.execute);
    const compiled = await prepared.execute({ brandId: world.brandId });
    expect(compiled).toEqual(await joined(pgDb).prepare('test_joined_listings_drizzle').execute({ brandId: world.brandId }));
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

  it('maps no row to an empty list, and keeps the decoders of aggregates (mapWith), counts and instants', async () => {
    const one = preparedPerExecutor((on) =>
      on
        .select({ listingId: listingMedia.listingId, media })
        .from(listingMedia)
        .innerJoin(media, eq(media.id, listingMedia.mediaId))
        .where(eq(listingMedia.listingId, sql.placeholder('id')))
        .prepare('test_listing_media'),
    )(pgDb);
    expect(await one.execute({ id: world.withEverything })).toEqual([
      { listingId: world.withEverything, media: expect.objectContaining({ id: world.picture.id }) },
    ]);
    expect(await one.execute({ id: world.bare })).toEqual([]);

    const stats = (on: PgExecutor) =>
      on
        .select({ experienceId: reviews.experienceId, average: avg(reviews.rating).mapWith(Number), total: count() })
        .from(reviews)
        .where(eq(reviews.experienceId, sql.placeholder('id')))
        .groupBy(reviews.experienceId);
    const compiled = await preparedPerExecutor((on) => stats(on).prepare('test_review_stats'))(pgDb).execute({ id: world.experienceId });
    expect(compiled).toEqual(await stats(pgDb).prepare('test_review_stats_drizzle').execute({ id: world.experienceId }));
    expect(compiled).toEqual([{ experienceId: world.experienceId, average: expect.any(Number), total: 3 }]);

    const reviewed = (on: PgExecutor) =>
      on
        .select({ id: reviews.id, reviewedAt: reviews.reviewedAt })
        .from(reviews)
        .where(eq(reviews.experienceId, sql.placeholder('id')))
        .orderBy(reviews.id);
    const instants = await preparedPerExecutor((on) => reviewed(on).prepare('test_reviewed_at'))(pgDb).execute({ id: world.experienceId });
    expect(instants).toEqual(await reviewed(pgDb).prepare('test_reviewed_at_drizzle').execute({ id: world.experienceId }));
    expect(instants.map((row) => row.reviewedAt)).toEqual(Array(3).fill(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)));
  });

  it('answers a statement with nothing selected (SQL text, a write without RETURNING) as node-postgres does', async () => {
    const titles = namedSql<{ title: string }>(
      'test_titles',
      sql`select title from experiences where brand_id = ${sql.placeholder('brandId')}`,
    );
    expect(await titles(pgDb, { brandId: world.brandId })).toEqual([{ title: expect.any(String) }]);
    const rename = preparedPerExecutor((on) =>
      on
        .update(categories)
        .set({ name: sql`${sql.placeholder('name')}` })
        .where(eq(categories.brandId, sql.placeholder('brandId')))
        .prepare('test_rename'),
    )(pgDb);
    const [{ total } = { total: 0 }] = await pgDb.select({ total: count() }).from(categories).where(eq(categories.brandId, world.brandId));
    expect(total).toBeGreaterThan(0);
    expect(await rename.execute({ name: 'Sailing', brandId: world.brandId })).toMatchObject({
      command: 'UPDATE',
      rowCount: total,
      rows: [],
    });
  });

  it('fails as Drizzle fails: a DrizzleQueryError with the statement, its values and the driver’s error as cause', async () => {
    const insert = preparedPerExecutor((on) =>
      on
        .insert(categories)
        .values({ id: sql.placeholder('id'), brandId: sql.placeholder('brandId'), name: 'Twice' })
        .returning({ id: categories.id })
        .prepare('test_insert_twice'),
    )(pgDb);
    const id = '0c9f3c0e-8a55-4c3e-9d52-6f0b1a2f3e4d';
    expect(await insert.execute({ id, brandId: world.brandId })).toEqual([{ id }]);
    const failure = await insert.execute({ id, brandId: world.brandId }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DrizzleQueryError);
    expect((failure as DrizzleQueryError).params).toEqual([id, world.brandId, 'Twice']);
    expect((failure as DrizzleQueryError).query).toMatch(/^insert into "categories"/);
    expect((failure as { cause: { code: string } }).cause.code).toBe('23505');
  });
});
