import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { readTogether, type Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb } from '../../prepared.ts';
import {
  categories,
  experienceMedia,
  experienceTranslations,
  experienceVibes,
  experiences,
  media,
  priceTiers,
  taxes,
  vibes,
} from '../../schema/index.ts';
import { reviewStatsOf } from './review-stats.ts';
import type {
  ExperienceMediaRow,
  ExperiencePageRecord,
  ExperienceRecord,
  ExperienceRow,
  ExperienceTranslationRow,
  ExperiencesStore,
  NamedRow,
} from '../../../../domain/catalog/store.ts';
import type { SqliteStore } from '../../store-binding.ts';
import { findHostsByIds } from './hosts.ts';

// The experience page and every checkout item read these: each is prepared once per connection.

const experienceById = preparedPerDb((db) =>
  db
    .select()
    .from(experiences)
    .where(eq(experiences.id, sql.placeholder('id')))
    .prepare(),
);

export function findExperienceRow(db: Db, id: string): ExperienceRow | undefined {
  return experienceById(db).get({ id });
}

const translationsOf = preparedPerDb((db) =>
  db
    .select()
    .from(experienceTranslations)
    .where(eq(experienceTranslations.experienceId, sql.placeholder('experienceId')))
    .orderBy(asc(experienceTranslations.locale))
    .prepare(),
);

export function translationsOfExperience(db: Db, experienceId: string): ExperienceTranslationRow[] {
  return translationsOf(db).all({ experienceId });
}

const categoryById = preparedPerDb((db) =>
  db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(eq(categories.id, sql.placeholder('id')))
    .prepare(),
);

export function findCategory(db: Db, id: string): NamedRow | undefined {
  return categoryById(db).get({ id });
}

const vibesOf = preparedPerDb((db) =>
  db
    .select({ id: vibes.id, name: vibes.name })
    .from(experienceVibes)
    .innerJoin(vibes, eq(vibes.id, experienceVibes.vibeId))
    .where(eq(experienceVibes.experienceId, sql.placeholder('experienceId')))
    .orderBy(asc(experienceVibes.position))
    .prepare(),
);

export function vibesOfExperience(db: Db, experienceId: string): NamedRow[] {
  return vibesOf(db).all({ experienceId });
}

const mediaOf = preparedPerDb((db) =>
  db
    .select({ id: media.id, role: experienceMedia.role, altText: media.altText, renditions: media.renditions })
    .from(experienceMedia)
    .innerJoin(media, eq(media.id, experienceMedia.mediaId))
    .where(eq(experienceMedia.experienceId, sql.placeholder('experienceId')))
    // 'cover' sorts before 'picture'.
    .orderBy(asc(experienceMedia.role), asc(experienceMedia.position))
    .prepare(),
);

export function mediaOfExperience(db: Db, experienceId: string): ExperienceMediaRow[] {
  return mediaOf(db).all({ experienceId });
}

const priceTiersOf = preparedPerDb((db) =>
  db
    .select({ name: priceTiers.name, priceMinor: priceTiers.priceMinor })
    .from(priceTiers)
    .where(eq(priceTiers.experienceId, sql.placeholder('experienceId')))
    .orderBy(asc(priceTiers.position))
    .prepare(),
);

export function priceTiersOfExperience(db: Db, experienceId: string): Array<{ name: string; priceMinor: number }> {
  return priceTiersOf(db).all({ experienceId });
}

const taxesOf = preparedPerDb((db) =>
  db
    .select({ name: taxes.name, rateBasisPoints: taxes.rateBasisPoints })
    .from(taxes)
    .where(eq(taxes.experienceId, sql.placeholder('experienceId')))
    .orderBy(asc(taxes.position))
    .prepare(),
);

export function taxesOfExperience(db: Db, experienceId: string): Array<{ name: string; rateBasisPoints: number }> {
  return taxesOf(db).all({ experienceId });
}

/** The row, then seven prepared reads of its parts (SQLite answers each in microseconds, in process), in one snapshot. */
export function findExperienceRecord(db: Db, id: string): ExperienceRecord | undefined {
  return readTogether(db, () => {
    const row = findExperienceRow(db, id);
    if (!row) return undefined;
    return {
      row,
      translations: translationsOfExperience(db, id),
      media: mediaOfExperience(db, id),
      category: findCategory(db, row.categoryId) ?? null,
      host: findHostsByIds(db, [row.hostId])[0] ?? null,
      vibes: vibesOfExperience(db, id),
      priceTiers: priceTiersOfExperience(db, id),
      taxes: taxesOfExperience(db, id),
    };
  });
}

/** The record and its review stats: each of its reads prepared once, all in one snapshot. */
export function findExperiencePage(db: Db, id: string): ExperiencePageRecord | undefined {
  return readTogether(db, () => {
    const record = findExperienceRecord(db, id);
    return record && { ...record, reviewStats: reviewStatsOf(db, [id])[0] ?? null };
  });
}

// A batch of experiences (a router's references): each part read once for all of them, by experience.
const experiencesWithIds = preparedPerDb((db) => db.select().from(experiences).where(inIdList(experiences.id, 'ids')).prepare());
const translationsWithIds = preparedPerDb((db) =>
  db
    .select()
    .from(experienceTranslations)
    .where(inIdList(experienceTranslations.experienceId, 'ids'))
    .orderBy(asc(experienceTranslations.locale))
    .prepare(),
);
const mediaWithIds = preparedPerDb((db) =>
  db
    .select({
      experienceId: experienceMedia.experienceId,
      id: media.id,
      role: experienceMedia.role,
      altText: media.altText,
      renditions: media.renditions,
    })
    .from(experienceMedia)
    .innerJoin(media, eq(media.id, experienceMedia.mediaId))
    .where(inIdList(experienceMedia.experienceId, 'ids'))
    .orderBy(asc(experienceMedia.role), asc(experienceMedia.position))
    .prepare(),
);
const categoriesWithIds = preparedPerDb((db) =>
  db.select({ id: categories.id, name: categories.name }).from(categories).where(inIdList(categories.id, 'ids')).prepare(),
);
const vibesWithIds = preparedPerDb((db) =>
  db
    .select({ experienceId: experienceVibes.experienceId, id: vibes.id, name: vibes.name })
    .from(experienceVibes)
    .innerJoin(vibes, eq(vibes.id, experienceVibes.vibeId))
    .where(inIdList(experienceVibes.experienceId, 'ids'))
    .orderBy(asc(experienceVibes.position))
    .prepare(),
);
const priceTiersWithIds = preparedPerDb((db) =>
  db
    .select({ experienceId: priceTiers.experienceId, name: priceTiers.name, priceMinor: priceTiers.priceMinor })
    .from(priceTiers)
    .where(inIdList(priceTiers.experienceId, 'ids'))
    .orderBy(asc(priceTiers.position))
    .prepare(),
);
const taxesWithIds = preparedPerDb((db) =>
  db
    .select({ experienceId: taxes.experienceId, name: taxes.name, rateBasisPoints: taxes.rateBasisPoints })
    .from(taxes)
    .where(inIdList(taxes.experienceId, 'ids'))
    .orderBy(asc(taxes.position))
    .prepare(),
);

/** Rows grouped by their experience, each group in the order read; without the grouping column. */
function byExperience<T extends { experienceId: string }>(rows: T[]): Map<string, Array<Omit<T, 'experienceId'>>> {
  const groups = new Map<string, Array<Omit<T, 'experienceId'>>>();
  for (const { experienceId, ...rest } of rows) {
    const group = groups.get(experienceId);
    if (group) group.push(rest);
    else groups.set(experienceId, [rest]);
  }
  return groups;
}

/** Eight statements for any number of experiences: the rows, then each part of all of them at once, in one snapshot. */
export function findExperienceRecords(db: Db, ids: readonly string[]): ExperienceRecord[] {
  return ids.length === 0 ? [] : readTogether(db, () => experienceRecords(db, ids));
}

function experienceRecords(db: Db, ids: readonly string[]): ExperienceRecord[] {
  const rows = experiencesWithIds(db).all({ ids: idList(ids) });
  if (rows.length === 0) return [];
  const found = idList(rows.map((row) => row.id));
  const translations = new Map<string, ExperienceTranslationRow[]>();
  for (const t of translationsWithIds(db).all({ ids: found }))
    translations.set(t.experienceId, [...(translations.get(t.experienceId) ?? []), t]);
  const mediaOf = byExperience(mediaWithIds(db).all({ ids: found }));
  const vibesOf = byExperience(vibesWithIds(db).all({ ids: found }));
  const tiersOf = byExperience(priceTiersWithIds(db).all({ ids: found }));
  const taxesOf = byExperience(taxesWithIds(db).all({ ids: found }));
  const categoryOf = new Map(
    categoriesWithIds(db)
      .all({ ids: idList([...new Set(rows.map((r) => r.categoryId))]) })
      .map((c) => [c.id, c]),
  );
  const hostOf = new Map(findHostsByIds(db, [...new Set(rows.map((r) => r.hostId))]).map((h) => [h.id, h]));
  return rows.map((row) => ({
    row,
    translations: translations.get(row.id) ?? [],
    media: (mediaOf.get(row.id) ?? []) as ExperienceMediaRow[],
    category: categoryOf.get(row.categoryId) ?? null,
    host: hostOf.get(row.hostId) ?? null,
    vibes: vibesOf.get(row.id) ?? [],
    priceTiers: tiersOf.get(row.id) ?? [],
    taxes: taxesOf.get(row.id) ?? [],
  }));
}

const listedIds = preparedPerDb((db) =>
  db
    .select({ id: experiences.id })
    .from(experiences)
    .where(
      and(
        eq(experiences.brandId, sql.placeholder('brandId')),
        eq(experiences.isUnlisted, false),
        gt(experiences.id, sql.placeholder('afterId')),
      ),
    )
    .orderBy(asc(experiences.id))
    .limit(sql.placeholder('limit'))
    .prepare(),
);

export function listedExperienceIds(db: Db, brandId: string, afterId: string | null, limit: number): string[] {
  // '' sorts before every id: the first page.
  return listedIds(db)
    .all({ brandId, afterId: afterId ?? '', limit })
    .map((row) => row.id);
}

export const experiencesStore = {
  findExperienceRow,
  findExperienceRecord,
  findExperienceRecords,
  findExperiencePage,
  priceTiersOfExperience,
  listedExperienceIds,
} satisfies SqliteStore<ExperiencesStore>;
