import { asc, eq } from 'drizzle-orm';
import type {
  ExperienceMediaRow,
  ExperienceRow,
  ExperiencesStore,
  ExperienceTranslationRow,
  NamedRow,
} from '../../../../domain/catalog/store.ts';
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
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';
import { inByteOrder } from './sql-parts.ts';

// The experience page and every checkout item read these.

export async function findExperienceRow(db: PgExecutor, id: string): Promise<ExperienceRow | undefined> {
  const [row] = await db.select().from(experiences).where(eq(experiences.id, id));
  return row;
}

/** By locale, as SQLite reads them (along its (experience_id, locale) primary key). */
export async function translationsOfExperience(db: PgExecutor, experienceId: string): Promise<ExperienceTranslationRow[]> {
  return db
    .select()
    .from(experienceTranslations)
    .where(eq(experienceTranslations.experienceId, experienceId))
    .orderBy(asc(inByteOrder(experienceTranslations.locale)));
}

export async function findCategory(db: PgExecutor, id: string): Promise<NamedRow | undefined> {
  const [row] = await db.select({ id: categories.id, name: categories.name }).from(categories).where(eq(categories.id, id));
  return row;
}

export async function vibesOfExperience(db: PgExecutor, experienceId: string): Promise<NamedRow[]> {
  return db
    .select({ id: vibes.id, name: vibes.name })
    .from(experienceVibes)
    .innerJoin(vibes, eq(vibes.id, experienceVibes.vibeId))
    .where(eq(experienceVibes.experienceId, experienceId))
    .orderBy(asc(experienceVibes.position));
}

export async function mediaOfExperience(db: PgExecutor, experienceId: string): Promise<ExperienceMediaRow[]> {
  return (
    db
      .select({ id: media.id, role: experienceMedia.role, renditions: media.renditions })
      .from(experienceMedia)
      .innerJoin(media, eq(media.id, experienceMedia.mediaId))
      .where(eq(experienceMedia.experienceId, experienceId))
      // 'cover' sorts before 'picture'.
      .orderBy(asc(inByteOrder(experienceMedia.role)), asc(experienceMedia.position))
  );
}

export async function priceTiersOfExperience(db: PgExecutor, experienceId: string): Promise<Array<{ name: string; priceMinor: number }>> {
  return db
    .select({ name: priceTiers.name, priceMinor: priceTiers.priceMinor })
    .from(priceTiers)
    .where(eq(priceTiers.experienceId, experienceId))
    .orderBy(asc(priceTiers.position));
}

export async function taxesOfExperience(db: PgExecutor, experienceId: string): Promise<Array<{ name: string; rateBasisPoints: number }>> {
  return db
    .select({ name: taxes.name, rateBasisPoints: taxes.rateBasisPoints })
    .from(taxes)
    .where(eq(taxes.experienceId, experienceId))
    .orderBy(asc(taxes.position));
}

export const experiencesStore = {
  findExperienceRow,
  translationsOfExperience,
  findCategory,
  vibesOfExperience,
  mediaOfExperience,
  priceTiersOfExperience,
  taxesOfExperience,
} satisfies PostgresStore<ExperiencesStore>;
