import { asc, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
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
} from '../schema.ts';

export type ExperienceRow = typeof experiences.$inferSelect;
export type ExperienceTranslationRow = typeof experienceTranslations.$inferSelect;

export interface NamedRow {
  id: string;
  name: string;
}

export function findExperienceRow(db: Db, id: string): ExperienceRow | undefined {
  return db.select().from(experiences).where(eq(experiences.id, id)).get();
}

export function translationsOfExperience(db: Db, experienceId: string): ExperienceTranslationRow[] {
  return db.select().from(experienceTranslations).where(eq(experienceTranslations.experienceId, experienceId)).all();
}

export function findCategory(db: Db, id: string): NamedRow | undefined {
  return db.select({ id: categories.id, name: categories.name }).from(categories).where(eq(categories.id, id)).get();
}

/** The experience's vibes in their configured order. */
export function vibesOfExperience(db: Db, experienceId: string): NamedRow[] {
  return db
    .select({ id: vibes.id, name: vibes.name })
    .from(experienceVibes)
    .innerJoin(vibes, eq(vibes.id, experienceVibes.vibeId))
    .where(eq(experienceVibes.experienceId, experienceId))
    .orderBy(asc(experienceVibes.position))
    .all();
}

export interface ExperienceMediaRow {
  id: string;
  role: 'cover' | 'picture';
  renditions: (typeof media.$inferSelect)['renditions'];
}

/** The experience's cover and pictures, cover first, then pictures by position. */
export function mediaOfExperience(db: Db, experienceId: string): ExperienceMediaRow[] {
  return db
    .select({ id: media.id, role: experienceMedia.role, renditions: media.renditions })
    .from(experienceMedia)
    .innerJoin(media, eq(media.id, experienceMedia.mediaId))
    .where(eq(experienceMedia.experienceId, experienceId))
    // 'cover' sorts before 'picture'.
    .orderBy(asc(experienceMedia.role), asc(experienceMedia.position))
    .all();
}

export function priceTiersOfExperience(db: Db, experienceId: string): Array<{ name: string; priceMinor: number }> {
  return db
    .select({ name: priceTiers.name, priceMinor: priceTiers.priceMinor })
    .from(priceTiers)
    .where(eq(priceTiers.experienceId, experienceId))
    .orderBy(asc(priceTiers.position))
    .all();
}

export function taxesOfExperience(db: Db, experienceId: string): Array<{ name: string; rateBasisPoints: number }> {
  return db
    .select({ name: taxes.name, rateBasisPoints: taxes.rateBasisPoints })
    .from(taxes)
    .where(eq(taxes.experienceId, experienceId))
    .orderBy(asc(taxes.position))
    .all();
}
