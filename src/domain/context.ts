import type { Principal } from '../auth/principal.ts';
import type { Db } from '../db/client.ts';

/** What every domain function may depend on. Transports build one per request. */
export interface Deps {
  db: Db;
  /** The clock; tests pass a fixed one. */
  now: () => Date;
}

export interface CallerDeps extends Deps {
  principal: Principal;
}
