/** A unit of work's stores bound on first use (src/db/store-binding.ts), as both adapters bind them. */
import { describe, expect, it } from 'vitest';
import { lazyStoreBinder } from '../../../src/db/store-binding.ts';

type Stores = { bookings: { find(id: string): string }; sessions: { find(id: string): string } };

describe('lazyStoreBinder', () => {
  const binder = lazyStoreBinder<Stores>(['bookings', 'sessions']);
  const unitOf = (unit: string, bound: string[]) =>
    binder((name) => {
      bound.push(`${unit}:${name}`);
      return { find: (id: string) => `${unit} ${name} ${id}` };
    });

  it('binds a store when the unit first reads it, once, and each unit its own', () => {
    const bound: string[] = [];
    const a = unitOf('a', bound);
    const b = unitOf('b', bound);
    expect(bound).toStrictEqual([]);
    expect(a.bookings.find('1')).toBe('a bookings 1');
    expect(a.bookings.find('2')).toBe('a bookings 2');
    expect(a.bookings).toBe(a.bookings);
    expect(b.bookings.find('1')).toBe('b bookings 1');
    expect(bound).toStrictEqual(['a:bookings', 'b:bookings']);
  });

  it('lists every store among the unit’s keys, bound or not, and takes other members beside them', () => {
    const unit = Object.assign(unitOf('a', []), { savepoint: () => 'kept' });
    expect(unit.sessions.find('9')).toBe('a sessions 9');
    expect(unit.savepoint()).toBe('kept');
    const keys: string[] = [];
    for (const key in unit) keys.push(key);
    expect(keys.sort()).toStrictEqual(['bookings', 'savepoint', 'sessions']);
  });
});
