/**
 * The publishable share's guard (CapacityStore.takePublishablePlaces) raced on two gateways of one PostgreSQL
 * database, two pools in one process, half the units on each: the share and the capacity hold together, and
 * the session's counters end as the winners left them.
 */
import { afterAll, expect, it } from 'vitest';
import { connect, type Connection } from '../../src/db/connect.ts';
import { contractFixtures } from '../contract/world.ts';
import { freshPostgresDb, type TestDb } from '../support/db.ts';
import { adminUrl, describePostgres } from '../support/postgres.ts';

let db: TestDb | undefined;
let second: Connection | undefined;
if (adminUrl) {
  const opened = await freshPostgresDb();
  db = opened;
  second = await connect(opened.url);
  afterAll(() => second!.database.close());
}

describePostgres('the publishable share raced on two PostgreSQL gateways', () => {
  it('lets 4 of 20 racing publishable holds of one place pass on 8 places at 50 %, while secret takes fill the rest', async () => {
    const session = await contractFixtures(db!).session(8);
    const gateways = [db!.database, second!.database];
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        gateways[i % 2]!.transaction(async (tx) =>
          i % 3 === 2
            ? (await tx.capacity.takePlaces(session.id, 1))
              ? 'taken'
              : 'sold-out'
            : tx.capacity.takePublishablePlaces(session.id, 1, 50),
        ),
      ),
    );
    const publishableTaken = outcomes.filter((outcome, i) => i % 3 !== 2 && outcome === 'taken').length;
    const secretTaken = outcomes.filter((outcome, i) => i % 3 === 2 && outcome === 'taken').length;
    expect(publishableTaken).toBeLessThanOrEqual(4);
    expect(publishableTaken + secretTaken).toBe(8);
    expect(await db!.row('sessions', { id: session.id })).toMatchObject({ reserved: 8, publishableHeld: publishableTaken });
  });

  it('lets exactly 4 of 20 racing publishable holds pass when nothing else takes places', async () => {
    const session = await contractFixtures(db!).session(8);
    const gateways = [db!.database, second!.database];
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => gateways[i % 2]!.transaction((tx) => tx.capacity.takePublishablePlaces(session.id, 1, 50))),
    );
    expect(outcomes.filter((outcome) => outcome === 'taken')).toHaveLength(4);
    expect(outcomes.filter((outcome) => outcome === 'share-exhausted')).toHaveLength(16);
    expect(await db!.row('sessions', { id: session.id })).toMatchObject({ reserved: 4, publishableHeld: 4 });
  });
});
