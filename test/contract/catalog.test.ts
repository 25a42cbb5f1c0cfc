/**
 * The brands, experiences, hosts and listings stores (src/domain/catalog/store.ts) as a contract: what
 * they read, with exact values (JSON, booleans, instants, null where absent) and in their orders, text
 * compared by its bytes. The world and the reads are catalog-world.ts's, which test/postgres/collation
 * runs again on a database of another collation.
 */
import { describe } from 'vitest';
import { freshDb } from '../support/db.ts';
import { catalogReads, catalogWorld } from './catalog-world.ts';

const db = await freshDb();
const w = await catalogWorld(db);

describe('store contract: catalog', () => {
  catalogReads(() => ({ database: db.database, w }));
});
