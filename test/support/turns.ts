import type { TestDb } from './db.ts';
import { unitsAtOnce } from './db.ts';

/**
 * Units of work that take every turn the database gives units at once, and keep them until released:
 * what a write burst looks like to the next unit, without the burst. (Only a test may await something
 * else inside a unit: this is how it holds one open.) Resolves once all of them hold their turn.
 */
export async function holdEveryTurn(db: TestDb): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let allHolding!: () => void;
  const holding = new Promise<void>((resolve) => (allHolding = resolve));
  let count = 0;
  const holders = Array.from({ length: unitsAtOnce }, () =>
    db.database.transaction(async () => {
      count += 1;
      if (count === unitsAtOnce) allHolding();
      await released;
    }),
  );
  await holding;
  return {
    release: async () => {
      release();
      await Promise.all(holders);
    },
  };
}
