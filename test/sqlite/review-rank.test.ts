import { describe, expect, it } from 'vitest';
import { insertReviews } from '../../src/db/sqlite/stores/catalog/reviews-write.ts';
import { freshSqliteDb } from '../support/db.ts';
import { createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createReviewer, reviewRow } from '../../fixtures/factories/reviews.ts';

const db = freshSqliteDb();
const brand = await createBrand(db);
const a = await createExperience(db, brand.id);
const b = await createExperience(db, brand.id);
const reviewer = await createReviewer(db, brand.id);

const at = (day: number) => `2026-03-${String(day).padStart(2, '0')}T10:00:00.000Z`;
const review = (target: typeof a, id: string, day: number) =>
  reviewRow({ id, experienceId: target.experience.id, hostId: target.host.id, reviewerId: reviewer.id, reviewedAt: at(day) });

/** `id` by rank for one experience, as stored. */
function ranked(experienceId: string): Array<[number, string]> {
  return db.connection.$client
    .prepare('SELECT rank, id FROM reviews WHERE experience_id = ? ORDER BY rank')
    .raw()
    .all(experienceId) as Array<[number, string]>;
}

const dense = (ids: string[]) => ids.map((id, i) => [i + 1, id]);

describe('insertReviews keeps rank dense, 1 = newest, per experience', () => {
  it('numbers a first batch spanning two experiences separately', () => {
    insertReviews(db.connection, [review(a, 'a-05', 5), review(b, 'b-10', 10), review(a, 'a-07', 7), review(b, 'b-02', 2)]);
    expect(ranked(a.experience.id)).toEqual(dense(['a-07', 'a-05']));
    expect(ranked(b.experience.id)).toEqual(dense(['b-10', 'b-02']));
  });

  it('puts a newer review first and shifts the others down', () => {
    insertReviews(db.connection, [review(a, 'a-09', 9)]);
    expect(ranked(a.experience.id)).toEqual(dense(['a-09', 'a-07', 'a-05']));
    expect(ranked(b.experience.id)).toEqual(dense(['b-10', 'b-02']));
  });

  it('puts an older review in the middle', () => {
    insertReviews(db.connection, [review(a, 'a-06', 6)]);
    expect(ranked(a.experience.id)).toEqual(dense(['a-09', 'a-07', 'a-06', 'a-05']));
  });

  it('puts the oldest review last', () => {
    insertReviews(db.connection, [review(a, 'a-01', 1)]);
    expect(ranked(a.experience.id)).toEqual(dense(['a-09', 'a-07', 'a-06', 'a-05', 'a-01']));
  });

  it('orders equal instants by id, descending', () => {
    insertReviews(db.connection, [review(b, 'b-05x', 5), review(b, 'b-05z', 5), review(b, 'b-05y', 5)]);
    expect(ranked(b.experience.id)).toEqual(dense(['b-10', 'b-05z', 'b-05y', 'b-05x', 'b-02']));
  });

  it('renumbers both experiences when one batch lands in the middle of each', () => {
    insertReviews(db.connection, [review(a, 'a-08', 8), review(b, 'b-03', 3)]);
    expect(ranked(a.experience.id)).toEqual(dense(['a-09', 'a-08', 'a-07', 'a-06', 'a-05', 'a-01']));
    expect(ranked(b.experience.id)).toEqual(dense(['b-10', 'b-05z', 'b-05y', 'b-05x', 'b-03', 'b-02']));
  });

  it('writes nothing when a row fails, leaving ranks as they were', () => {
    const duplicate = review(a, 'a-09', 4);
    expect(() => insertReviews(db.connection, [review(a, 'a-04', 4), duplicate])).toThrow();
    expect(ranked(a.experience.id)).toEqual(dense(['a-09', 'a-08', 'a-07', 'a-06', 'a-05', 'a-01']));
  });

  it('orders instants written in other ISO 8601 shapes chronologically, stored canonical', async () => {
    const c = await createExperience(db, brand.id);
    const row = (id: string, reviewedAt: string) =>
      reviewRow({ id, experienceId: c.experience.id, hostId: c.host.id, reviewerId: reviewer.id, reviewedAt });
    insertReviews(db.connection, [row('c-1000', '2026-03-01T10:00:00Z'), row('c-0930', '2026-03-01T10:30:00+01:00')]);
    insertReviews(db.connection, [row('c-1000.5', '2026-03-01T10:00:00.500Z')]);
    expect(ranked(c.experience.id)).toEqual(dense(['c-1000.5', 'c-1000', 'c-0930']));
    const stored = db.connection.$client.prepare('SELECT reviewed_at FROM reviews WHERE id = ?').pluck().get('c-0930');
    expect(stored).toBe('2026-03-01T09:30:00.000Z');
  });

  it('rejects a reviewedAt that is not a date-time and writes nothing', () => {
    expect(() => insertReviews(db.connection, [review(a, 'a-bad', 4), { ...review(a, 'a-bad2', 4), reviewedAt: 'yesterday' }])).toThrow(
      /reviewedAt/,
    );
    expect(ranked(a.experience.id)).toHaveLength(6);
  });

  it('accepts an empty batch', () => {
    insertReviews(db.connection, []);
    expect(ranked(b.experience.id)).toHaveLength(6);
  });
});
