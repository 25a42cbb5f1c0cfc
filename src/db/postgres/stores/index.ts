import type { Stores } from '../../port/index.ts';
import type { PostgresStores } from '../store-binding.ts';
import { capacityStore } from './availability/capacity.ts';
import { sessionsStore } from './availability/sessions.ts';

/**
 * The stores of the port built on PostgreSQL so far. The server does not run on PostgreSQL until every
 * store of `Stores` is here (DATABASE_URL still refuses postgres:// URLs); each one is tested against a
 * real server as it lands.
 */
export type AvailabilityStores = Pick<Stores, 'capacity' | 'sessions'>;

export const availabilityStores: PostgresStores<AvailabilityStores> = {
  capacity: capacityStore,
  sessions: sessionsStore,
};
