import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { reviews } from '../schema.ts';

export type ReviewInsert = Omit<typeof reviews.$inferInsert, 'rank'>;

/**
 * Inserts reviews and renumbers `rank` (1 = newest) for the experiences touched, in one transaction,
 * so every page of reviews stays one indexed seek. Every review write must go through here.
 */
export function insertReviews(db: Db, rows: readonly ReviewInsert[]): void {
  if (rows.length === 0) return;
  const experienceIds = [...new Set(rows.map((r) => r.experienceId))];
  db.transaction((tx) => {
    // Temporary negative ranks keep the unique (experience, rank) index satisfied until renumbering.
    const base = tx.get<{ low: number | null }>(sql`SELECT MIN(rank) AS low FROM reviews`)?.low ?? 0;
    let next = Math.min(base, 0) - 1;
    for (const row of rows) tx.insert(reviews).values({ ...row, rank: next-- }).run();
    renumber(tx as unknown as Db, experienceIds);
  });
}

function renumber(db: Db, experienceIds: readonly string[]): void {
  const ids = [...experienceIds];
  // Two passes through negative numbers: the unique index is checked row by row in SQLite.
  db.update(reviews).set({ rank: sql`-1000000000 - ${reviews.rank}` }).where(inArray(reviews.experienceId, ids)).run();
  db.run(sql`
    UPDATE reviews SET rank = ordered.position
    FROM (
      SELECT id, ROW_NUMBER() OVER (PARTITION BY experience_id ORDER BY reviewed_at DESC, id DESC) AS position
      FROM reviews WHERE experience_id IN ${ids}
    ) AS ordered
    WHERE reviews.id = ordered.id`);
}
