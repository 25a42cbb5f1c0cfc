/**
 * On PostgreSQL the listing a unit of work writes is its own from its first read
 * (`listingWrites.findListingToWrite` locks the row): a second unit reading it waits until the first
 * commits and then sees what it wrote, so an If-Match checked on that read holds until the unit commits.
 */
import { expect, it } from 'vitest';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createListing } from '../../fixtures/factories/listings.ts';
import { freshPostgresDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';

const db = adminUrl ? await freshPostgresDb() : undefined;

describePostgres('PostgreSQL listing writes', () => {
  it('make a second unit reading the same listing wait for the first, then see its write', async () => {
    const { database } = db!;
    const brand = await createBrand(db!);
    const { experience } = await createExperience(db!, brand.id);
    const { listing } = await createListing(db!, brand.id, { experienceId: experience.id, displayOrder: 0 });
    let releaseFirst!: () => void;
    const held = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstRead!: () => void;
    const read = new Promise<void>((resolve) => (firstRead = resolve));
    const first = database.transaction(async (tx) => {
      await tx.listingWrites.findListingToWrite(listing.id);
      firstRead();
      await held;
      await tx.listingWrites.updateListing(listing.id, { displayOrder: 7 });
    });
    await read;
    let secondSaw: number | undefined;
    const second = database.transaction(async (tx) => {
      secondSaw = (await tx.listingWrites.findListingToWrite(listing.id))!.listing.displayOrder;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(secondSaw).toBeUndefined();
    releaseFirst();
    await Promise.all([first, second]);
    expect(secondSaw).toBe(7);
  });
});
