/**
 * Every processor event finds the bookings its intent pays for: that lookup must be an index search,
 * not a scan of every booking ever made.
 */
import { describe, expect, it } from 'vitest';
import { freshSqliteDb } from '../support/db.ts';

const db = freshSqliteDb();

const plan = (sql: string) =>
  (db.connection.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('pi_1') as Array<{ detail: string }>).map((row) => row.detail);

describe("an intent's bookings", () => {
  it('are found through bookings_payment_intent_idx', () => {
    expect(plan('SELECT id FROM bookings WHERE payment_intent_id = ? ORDER BY cart_position, id')).toEqual([
      'SEARCH bookings USING INDEX bookings_payment_intent_idx (payment_intent_id=?)',
      'USE TEMP B-TREE FOR ORDER BY',
    ]);
  });
});
