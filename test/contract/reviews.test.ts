/**
 * The reviews and review stats stores (src/domain/catalog/store.ts) as a contract: stats, pages by rank
 * and after a key (the reads are catalog-world.ts's, which test/postgres/collation runs again on a
 * database of another collation); then writing reviews, which keeps every experience's ranks dense
 * (1 = newest) in one step, alone, in a unit of work, and with writers racing on two gateways of one
 * database (SQLite: two connections on one file; PostgreSQL: two pools). The racers write outside any
 * unit of work, one call each: two SQLite connections in one process can take turns at that, never at
 * units of work (test/contract/guards.ts says why).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { reviewRow } from '../../fixtures/factories/reviews.ts';
import { connect } from '../../src/db/connect.ts';
import type { ReviewInsert } from '../../src/domain/catalog/store.ts';
import { freshSharedDb, testDbOf } from '../support/db.ts';
import { catalogWorld, minute, newestFirst, reviewReads, reviewTies } from './catalog-world.ts';

const { db, url } = await freshSharedDb();
const second = await connect(url);
afterAll(() => second.database.close());
const { database } = db;
const w = await catalogWorld(db);

/** `[rank, id]` of one experience's reviews, by rank, as stored. */
const ranked = async (experienceId: string, through = db): Promise<Array<[number, string]>> =>
  (await through.all<{ rank: number; id: string }>('SELECT rank, id FROM reviews WHERE experience_id = ? ORDER BY rank', experienceId)).map(
    (r) => [r.rank, r.id],
  );
const dense = (ids: string[]) => ids.map((id, i) => [i + 1, id]);
const at = (day: number) => `2026-03-${String(day).padStart(2, '0')}T10:00:00.000Z`;
const review = (experienceId: string, id: string, day: number, reviewerId = 'writer-0') =>
  reviewRow({ id, experienceId, hostId: 'host-1', reviewerId, reviewedAt: at(day) });

describe('store contract: reviews', () => {
  reviewReads(() => ({ database: db.database, w }));
  reviewTies(() => ({ database: db.database, w }));

  it('writes reviews to pages, ranks and stats, equal instants by id, descending (byte order)', async () => {
    const rows: ReviewInsert[] = [
      review('exp-written', 'w-05', 5, 'writer-1'),
      review('exp-a', 'w-a', 9, 'writer-2'),
      { ...review('exp-written', 'w-07', 7, 'writer-3'), reviewedAt: '2026-03-07T11:00:00+01:00', rating: 2 },
      review('exp-written', 'W-07', 7),
    ];
    await database.reviews.insertReviews(rows);
    const page = (await database.reviews.findReviewsByRank('exp-written', 0, 50))!;
    expect(page.experience).toStrictEqual({
      id: 'exp-written',
      title: 'Sunset Sail',
      brandId: w.brand.id,
      total: 3,
    });
    expect((await database.reviews.findReviewsByRank('exp-a', 0, 1))!.experience.total).toBe(27);
    const written = page.reviews;
    expect(written.map((r) => [r.rank, r.id, r.reviewedAt, r.rating, r.reviewer.id, r.host.id])).toEqual([
      [1, 'w-07', '2026-03-07T10:00:00.000Z', 2, 'writer-3', 'host-1'],
      [2, 'W-07', '2026-03-07T10:00:00.000Z', 5, 'writer-0', 'host-1'],
      [3, 'w-05', '2026-03-05T10:00:00.000Z', 5, 'writer-1', 'host-1'],
    ]);
    expect(await database.reviews.findReviewsAfterKey('exp-written', null, 50)).toStrictEqual(page);
    const sailing = (await database.reviews.findReviewsByRank('exp-a', 0, 50))!.reviews;
    expect(sailing.map((r) => r.id)).toEqual(['w-a', ...w.sailingReviews.map((r) => r.id)]);
    expect(sailing.map((r) => r.rank)).toEqual(Array.from({ length: 27 }, (_, i) => i + 1));
    expect((await database.reviews.findReviewsAfterKey('exp-a', null, 50))!.reviews).toStrictEqual(sailing);
    const sailingRatings = [...w.sailingReviews.map((r) => r.rating), 5];
    expect(await database.reviewStats.reviewStatsOf(['exp-written', 'exp-a'])).toStrictEqual([
      { experienceId: 'exp-a', averageRating: sailingRatings.reduce((a, b) => a + b) / 27, averageRecommendability: 9, total: 27 },
      { experienceId: 'exp-written', averageRating: 4, averageRecommendability: 9, total: 3 },
    ]);
  });

  describe('insertReviews keeps rank dense, 1 = newest, per experience', () => {
    const a = 'exp-rank-a';
    const b = 'exp-rank-b';
    it('numbers a first batch spanning two experiences separately', async () => {
      await database.reviews.insertReviews([review(a, 'a-05', 5), review(b, 'b-10', 10), review(a, 'a-07', 7), review(b, 'b-02', 2)]);
      expect(await ranked(a)).toEqual(dense(['a-07', 'a-05']));
      expect(await ranked(b)).toEqual(dense(['b-10', 'b-02']));
    });

    it('puts newer, middle and oldest reviews in place', async () => {
      await database.reviews.insertReviews([review(a, 'a-09', 9)]);
      await database.reviews.insertReviews([review(a, 'a-06', 6)]);
      await database.reviews.insertReviews([review(a, 'a-01', 1)]);
      expect(await ranked(a)).toEqual(dense(['a-09', 'a-07', 'a-06', 'a-05', 'a-01']));
      expect(await ranked(b)).toEqual(dense(['b-10', 'b-02']));
    });

    it('orders equal instants by id, descending, byte by byte', async () => {
      await database.reviews.insertReviews([review(b, 'b-05x', 5), review(b, 'b-05Z', 5), review(b, 'b-05y', 5)]);
      expect(await ranked(b)).toEqual(dense(['b-10', 'b-05y', 'b-05x', 'b-05Z', 'b-02']));
    });

    it('writes nothing when a row fails, leaving ranks as they were', async () => {
      await expect(database.reviews.insertReviews([review(a, 'a-04', 4), review(a, 'a-09', 4)])).rejects.toThrow();
      expect(await ranked(a)).toEqual(dense(['a-09', 'a-07', 'a-06', 'a-05', 'a-01']));
    });

    it('orders instants written in other ISO 8601 shapes chronologically, stored canonical', async () => {
      const row = (id: string, reviewedAt: string) => ({ ...review(b, id, 1), reviewedAt });
      await database.reviews.insertReviews([row('c-1000', '2026-03-01T10:00:00Z'), row('c-0930', '2026-03-01T10:30:00+01:00')]);
      await database.reviews.insertReviews([row('c-1000.5', '2026-03-01T10:00:00.500Z')]);
      expect((await ranked(b)).slice(-3)).toEqual([
        [6, 'c-1000.5'],
        [7, 'c-1000'],
        [8, 'c-0930'],
      ]);
      const [stored] = (await database.reviews.findReviewsAfterKey(b, { reviewedAt: '2026-03-01T10:00:00.000Z', id: 'c-1000' }, 1))!
        .reviews;
      expect(stored).toMatchObject({ id: 'c-0930', reviewedAt: '2026-03-01T09:30:00.000Z' });
      expect(await db.value('SELECT reviewed_at FROM reviews WHERE id = ?', 'c-1000')).toBe('2026-03-01T10:00:00.000Z');
    });

    it('refuses an instant that is no date-time (even one PostgreSQL would read) with a RangeError, and writes nothing', async () => {
      const refused = database.reviews.insertReviews([review(a, 'a-bad', 4), { ...review(a, 'a-bad2', 4), reviewedAt: 'yesterday' }]);
      await expect(refused).rejects.toThrow(RangeError);
      await expect(refused).rejects.toThrow(/reviewedAt/);
      await expect(database.reviews.insertReviews([{ ...review(a, 'a-bad3', 4), experiencedDate: 'epoch' }])).rejects.toThrow(
        /experiencedDate/,
      );
      expect(await ranked(a)).toHaveLength(5);
    });

    it('accepts an empty batch', async () => {
      await database.reviews.insertReviews([]);
      expect(await ranked(b)).toHaveLength(8);
    });

    it('writes in a unit of work as part of it: seen by nobody else before it commits, undone with it', async () => {
      const elsewhere = testDbOf(second);
      await expect(
        database.transaction(async (tx) => {
          await tx.reviews.insertReviews([review(a, 'a-02', 2)]);
          expect(await ranked(a, elsewhere)).toHaveLength(5);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await ranked(a)).toEqual(dense(['a-09', 'a-07', 'a-06', 'a-05', 'a-01']));
      await database.transaction((tx) => tx.reviews.insertReviews([review(a, 'a-08', 8)]));
      expect(await ranked(a, elsewhere)).toEqual(dense(['a-09', 'a-08', 'a-07', 'a-06', 'a-05', 'a-01']));
    });
  });

  it('keeps ranks dense when 8 batches of reviews of one experience race on two gateways', async () => {
    const batches = Array.from({ length: 8 }, (_, batch) =>
      Array.from({ length: 3 }, (_, i) => ({
        ...review('exp-race', `race-${batch}-${i}`, 1, `writer-${i}`),
        // Interleaved in time across batches, with some instants shared.
        reviewedAt: minute(((batch * 7 + i * 11) % 13) + 1000),
      })),
    );
    const gateways = [database, second.database];
    await Promise.all(batches.map((rows, i) => gateways[i % 2]!.reviews.insertReviews(rows)));
    const expected = batches.flat().sort(newestFirst);
    expect(await ranked('exp-race')).toEqual(dense(expected.map((r) => r.id)));
    expect((await second.database.reviews.findReviewsByRank('exp-race', 0, 1))!.experience.total).toBe(24);
  });
});
