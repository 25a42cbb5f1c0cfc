import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { preparedPerDb } from '../../prepared.ts';
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
import type {
  ExperienceMediaRow,
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
    .select({ id: media.id, role: experienceMedia.role, renditions: media.renditions })
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

/** The row, then seven prepared reads of its parts (SQLite answers each in microseconds, in process). */
export function findExperienceRecord(db: Db, id: string): ExperienceRecord | undefined {
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
}

export const experiencesStore = {
  findExperienceRow,
  findExperienceRecord,
  priceTiersOfExperience,
} satisfies SqliteStore<ExperiencesStore>;
