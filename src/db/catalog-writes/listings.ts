/** The listing writes of both engines, written once (see kit.ts). */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { BrandOwnedTable, ListingContentFields, ListingFields, ListingRow, ListingWritesStore } from '../../domain/catalog/store.ts';
import { assignments, count, insertValues, rows, type StepsOf, type TableOf } from './kit.ts';

type ListingColumn = keyof ListingRow;
type ContentColumn = keyof ListingContentFields | 'listingId' | 'version';

/** The tables listing writes touch, as each engine's schema declares them. */
export interface ListingTables {
  listings: TableOf<ListingColumn>;
  listingContents: TableOf<ContentColumn>;
  listingContentTranslations: TableOf<'contentId' | 'locale' | 'title' | 'summary'>;
  listingVibes: TableOf<'listingId' | 'vibeId' | 'position'>;
  categories: TableOf<'id' | 'brandId'>;
  hosts: TableOf<'id' | 'brandId'>;
  vibes: TableOf<'id' | 'brandId'>;
  experiences: TableOf<'id' | 'brandId'>;
}

export type ListingWrites = StepsOf<Omit<ListingWritesStore, 'findListingToWrite'>>;

export function listingWrites(t: ListingTables): ListingWrites {
  const { listings, listingContents: contents, listingContentTranslations: translations, listingVibes } = t;

  function* insertVibes(listingId: string, vibeIds: readonly string[]) {
    for (const [position, vibeId] of vibeIds.entries()) {
      yield* count(sql`insert into ${listingVibes} ${insertValues(listingVibes, { listingId, vibeId, position })}`);
    }
  }

  return {
    *nextDisplayOrder(brandId) {
      const [row] = yield* rows<{ next: number | string }>(
        sql`select coalesce(max(${listings.displayOrder}), -1) + 1 as ${sql.identifier('next')} from ${listings} where ${eq(listings.brandId, brandId)}`,
      );
      return Number(row!.next);
    },

    *idsOfBrand(table: BrandOwnedTable, brandId, ids) {
      if (ids.length === 0) return [];
      const owned = t[table];
      const found = yield* rows<{ id: string }>(
        sql`select ${owned.id} as ${sql.identifier('id')} from ${owned} where ${and(eq(owned.brandId, brandId), inArray(owned.id, [...ids]))}`,
      );
      return found.map((row) => row.id);
    },

    *insertListing(listing, draft, vibeIds) {
      yield* count(sql`insert into ${listings} ${insertValues(listings, listing)}`);
      yield* count(sql`insert into ${contents} ${insertValues(contents, { ...draft, listingId: listing.id, version: 'draft' })}`);
      yield* insertVibes(listing.id, vibeIds);
    },

    *updateListing(listingId, fields: Partial<ListingFields>) {
      if (Object.values(fields).every((value) => value === undefined)) return;
      yield* count(sql`update ${listings} set ${assignments(listings, fields)} where ${eq(listings.id, listingId)}`);
    },

    *saveDraft(listingId, draft, translationsOf) {
      const { id, ...fields } = draft;
      const ofDraft = and(eq(contents.listingId, listingId), eq(contents.version, 'draft'));
      const updated = yield* count(sql`update ${contents} set ${assignments(contents, fields)} where ${ofDraft}`);
      if (updated > 0) return;
      yield* count(sql`insert into ${contents} ${insertValues(contents, { ...draft, listingId, version: 'draft' })}`);
      if (translationsOf === null) return;
      yield* count(sql`insert into ${translations} (${sql.identifier(translations.contentId.name)}, ${sql.identifier(translations.locale.name)},
        ${sql.identifier(translations.title.name)}, ${sql.identifier(translations.summary.name)})
        select ${sql.param(id, translations.contentId)}, ${translations.locale}, ${translations.title}, ${translations.summary}
        from ${translations} where ${eq(translations.contentId, translationsOf)}`);
    },

    *replaceListingVibes(listingId, vibeIds) {
      yield* count(sql`delete from ${listingVibes} where ${eq(listingVibes.listingId, listingId)}`);
      yield* insertVibes(listingId, vibeIds);
    },

    *publishDraft(listingId) {
      const ofVersion = (version: 'draft' | 'published') => and(eq(contents.listingId, listingId), eq(contents.version, version));
      const [draft] = yield* rows<{ id: string }>(
        sql`select ${contents.id} as ${sql.identifier('id')} from ${contents} where ${ofVersion('draft')}`,
      );
      if (!draft) return false;
      yield* count(
        sql`delete from ${translations} where ${translations.contentId} in (select ${contents.id} from ${contents} where ${ofVersion('published')})`,
      );
      yield* count(sql`delete from ${contents} where ${ofVersion('published')}`);
      yield* count(sql`update ${contents} set ${assignments(contents, { version: 'published' })} where ${eq(contents.id, draft.id)}`);
      return true;
    },
  };
}
