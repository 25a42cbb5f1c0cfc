/**
 * The questions store (src/domain/questions/store.ts) as a contract: the active questions of several
 * experiences, in their order, with their JSON. The world and the reads are catalog-world.ts's, which
 * test/postgres/collation runs again on a database of another collation.
 */
import { describe } from 'vitest';
import { freshDb } from '../support/db.ts';
import { catalogWorld, questionReads } from './catalog-world.ts';

const db = await freshDb();
const w = await catalogWorld(db);

describe('store contract: questions', () => {
  questionReads(() => ({ database: db.database, w }));
});
