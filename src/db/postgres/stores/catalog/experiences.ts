import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type {
  ExperienceMediaRow,
  ExperiencePageRecord,
  ExperienceRecord,
  ExperienceRow,
  ExperiencesStore,
  ExperienceTranslationRow,
  NamedRow,
} from '../../../../domain/catalog/store.ts';
import { categories, experiences, hosts, priceTiers } from '../../schema/index.ts';
import { preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { inByteOrder, jsonRows } from '../sql-parts.ts';
import { reviewStatsJson } from './review-stats.ts';

// The experience page, waitlists and checkout read these: named statements (preparedPerExecutor).
const idParam = sql.placeholder('id');

const experienceById = preparedPerExecutor((db) =>
  db.select().from(experiences).where(eq(experiences.id, idParam)).prepare('find_experience'),
);

export async function findExperienceRow(db: PgExecutor, id: string): Promise<ExperienceRow | undefined> {
  const [row] = await experienceById(db).execute({ id });
  return row;
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

/**
 * The outer select's experience's price tiers and taxes, each a JSON array by position: the experience
 * page and checkout read them beside the experience. Its id is spelled out: Drizzle leaves columns
 * unqualified in a one-table select, where `id` would resolve to the subquery's own table.
 */
export const priceTiersJson = jsonRows<ExperienceRecord['priceTiers'][number]>(sql`
  SELECT json_agg(json_build_object('name', p.name, 'priceMinor', p.price_minor) ORDER BY p.position)
  FROM price_tiers p WHERE p.experience_id = "experiences"."id"`);
export const taxesJson = jsonRows<ExperienceRecord['taxes'][number]>(sql`
  SELECT json_agg(json_build_object('name', x.name, 'rateBasisPoints', x.rate_basis_points) ORDER BY x.position)
  FROM taxes x WHERE x.experience_id = "experiences"."id"`);

/** The row joined to its category and host, and its parts as JSON arrays. */
const recordColumns = {
  row: experiences,
  category: { id: categories.id, name: categories.name },
  host: hosts,
  translations: jsonRows<ExperienceTranslationRow>(sql`
        SELECT json_agg(json_build_object('experienceId', t.experience_id, 'locale', t.locale, 'title', t.title,
          'headline', t.headline, 'description', t.description, 'healthAndSafety', t.health_and_safety)
          ORDER BY t.locale COLLATE "C")
        FROM experience_translations t WHERE t.experience_id = "experiences"."id"`),
  // 'cover' sorts before 'picture'.
  media: jsonRows<ExperienceMediaRow>(sql`
        SELECT json_agg(json_build_object('id', m.id, 'role', em.role, 'altText', m.alt_text, 'renditions', m.renditions)
          ORDER BY em.role COLLATE "C", em.position)
        FROM experience_media em JOIN media m ON m.id = em.media_id WHERE em.experience_id = "experiences"."id"`),
  vibes: jsonRows<NamedRow>(sql`
        SELECT json_agg(json_build_object('id', v.id, 'name', v.name) ORDER BY ev.position)
        FROM experience_vibes ev JOIN vibes v ON v.id = ev.vibe_id WHERE ev.experience_id = "experiences"."id"`),
  priceTiers: priceTiersJson,
  taxes: taxesJson,
};

/** The records' select; the caller adds the WHERE. */
const selectRecords = (db: PgExecutor) =>
  db
    .select(recordColumns)
    .from(experiences)
    .leftJoin(categories, eq(categories.id, experiences.categoryId))
    .leftJoin(hosts, eq(hosts.id, experiences.hostId));

const experienceRecord = preparedPerExecutor((db) => selectRecords(db).where(eq(experiences.id, idParam)).prepare('experience_record'));

/**
 * One named statement: the row joined to its category and host, and one JSON array each of its
 * translations, media (renditions embedded as written), vibes, price tiers and taxes.
 */
export async function findExperienceRecord(db: PgExecutor, id: string): Promise<ExperienceRecord | undefined> {
  const [record] = await experienceRecord(db).execute({ id });
  return record;
}

const experiencePage = preparedPerExecutor((db) =>
  db
    .select({
      ...recordColumns,
      reviewStats: reviewStatsJson(experiences.id),
    })
    .from(experiences)
    .leftJoin(categories, eq(categories.id, experiences.categoryId))
    .leftJoin(hosts, eq(hosts.id, experiences.hostId))
    .where(eq(experiences.id, idParam))
    .prepare('experience_page'),
);

/**
 * `experience_record` with the experience's review stats (averages in double precision, as SQLite's AVG
 * takes them, as the featured listings read them) in the same named statement: an experience page's one read.
 */
export async function findExperiencePage(db: PgExecutor, id: string): Promise<ExperiencePageRecord | undefined> {
  const [record] = await experiencePage(db).execute({ id });
  return record;
}

/** The same statement for several experiences at once (a router's batch of references). */
export async function findExperienceRecords(db: PgExecutor, ids: readonly string[]): Promise<ExperienceRecord[]> {
  if (ids.length === 0) return [];
  return selectRecords(db).where(inArray(experiences.id, [...ids]));
}

/** By id in byte order, as SQLite compares text. */
export async function listedExperienceIds(db: PgExecutor, brandId: string, afterId: string | null, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: experiences.id })
    .from(experiences)
    .where(and(eq(experiences.brandId, brandId), eq(experiences.isUnlisted, false), gt(inByteOrder(experiences.id), afterId ?? '')))
    .orderBy(asc(inByteOrder(experiences.id)))
    .limit(limit);
  return rows.map((row) => row.id);
}

export const experiencesStore = {
  findExperienceRow,
  findExperienceRecord,
  findExperienceRecords,
  findExperiencePage,
  priceTiersOfExperience,
  listedExperienceIds,
} satisfies PostgresStore<ExperiencesStore>;
