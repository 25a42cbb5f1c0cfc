import { asc, eq, sql } from 'drizzle-orm';
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
import { preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { inByteOrder } from './sql-parts.ts';

// The experience page and every checkout item read these: named statements (preparedPerExecutor).
const idParam = sql.placeholder('id');

const experienceById = preparedPerExecutor((db) =>
  db.select().from(experiences).where(eq(experiences.id, idParam)).prepare('find_experience'),
);

export async function findExperienceRow(db: PgExecutor, id: string): Promise<ExperienceRow | undefined> {
  const [row] = await experienceById(db).execute({ id });
  return row;
}

/** By locale, as SQLite reads them (along its (experience_id, locale) primary key). */
const translationsOf = preparedPerExecutor((db) =>
  db
    .select()
    .from(experienceTranslations)
    .where(eq(experienceTranslations.experienceId, idParam))
    .orderBy(asc(inByteOrder(experienceTranslations.locale)))
    .prepare('experience_translations'),
);

export async function translationsOfExperience(db: PgExecutor, experienceId: string): Promise<ExperienceTranslationRow[]> {
  return translationsOf(db).execute({ id: experienceId });
}

const categoryById = preparedPerExecutor((db) =>
  db.select({ id: categories.id, name: categories.name }).from(categories).where(eq(categories.id, idParam)).prepare('find_category'),
);

export async function findCategory(db: PgExecutor, id: string): Promise<NamedRow | undefined> {
  const [row] = await categoryById(db).execute({ id });
  return row;
}

const vibesOf = preparedPerExecutor((db) =>
  db
    .select({ id: vibes.id, name: vibes.name })
    .from(experienceVibes)
    .innerJoin(vibes, eq(vibes.id, experienceVibes.vibeId))
    .where(eq(experienceVibes.experienceId, idParam))
    .orderBy(asc(experienceVibes.position))
    .prepare('experience_vibes'),
);

export async function vibesOfExperience(db: PgExecutor, experienceId: string): Promise<NamedRow[]> {
  return vibesOf(db).execute({ id: experienceId });
}

const mediaOf = preparedPerExecutor((db) =>
  db
    .select({ id: media.id, role: experienceMedia.role, renditions: media.renditions })
    .from(experienceMedia)
    .innerJoin(media, eq(media.id, experienceMedia.mediaId))
    .where(eq(experienceMedia.experienceId, idParam))
    // 'cover' sorts before 'picture'.
    .orderBy(asc(inByteOrder(experienceMedia.role)), asc(experienceMedia.position))
    .prepare('experience_media'),
);

export async function mediaOfExperience(db: PgExecutor, experienceId: string): Promise<ExperienceMediaRow[]> {
  return mediaOf(db).execute({ id: experienceId });
}

const priceTiersOf = preparedPerExecutor((db) =>
  db
    .select({ name: priceTiers.name, priceMinor: priceTiers.priceMinor })
    .from(priceTiers)
    .where(eq(priceTiers.experienceId, idParam))
    .orderBy(asc(priceTiers.position))
    .prepare('experience_price_tiers'),
);

export async function priceTiersOfExperience(db: PgExecutor, experienceId: string): Promise<Array<{ name: string; priceMinor: number }>> {
  return priceTiersOf(db).execute({ id: experienceId });
}

const taxesOf = preparedPerExecutor((db) =>
  db
    .select({ name: taxes.name, rateBasisPoints: taxes.rateBasisPoints })
    .from(taxes)
    .where(eq(taxes.experienceId, idParam))
    .orderBy(asc(taxes.position))
    .prepare('experience_taxes'),
);

export async function taxesOfExperience(db: PgExecutor, experienceId: string): Promise<Array<{ name: string; rateBasisPoints: number }>> {
  return taxesOf(db).execute({ id: experienceId });
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
