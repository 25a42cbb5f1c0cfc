/**
 * The rows the compiled row-mapping tests read on either engine (test/sqlite/row-mapper.test.ts,
 * test/postgres/prepared-execution.test.ts): two listings of one brand, one with everything joined (an
 * experience, its host and category, a picture) and one with nothing; an experience with 3 reviews.
 */
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createCategory, createExperience, createHost, createMedia } from '../../fixtures/factories/catalog.ts';
import { attachMedia, createListing } from '../../fixtures/factories/listings.ts';
import { createReviews } from '../../fixtures/factories/reviews.ts';
import type { TestDb } from './db.ts';

export async function buildMappingWorld(db: TestDb) {
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
  return {
    brandId: brand.id,
    experienceId: experience.id,
    withEverything: withEverything.listing.id,
    bare: bare.listing.id,
    hostPicture: host.profilePicture,
    picture,
  };
}
