/** The host writes of both engines, written once (see kit.ts); the locking read is each engine's own. */
import { eq, sql } from 'drizzle-orm';
import type { HostFields, HostRow, HostWritesStore } from '../../domain/catalog/store.ts';
import { assignments, count, insertValues, select, type StepsOf, type TableOf } from './kit.ts';

type HostColumn = keyof HostRow;

export interface HostTables {
  hosts: TableOf<HostColumn>;
}

const columns: HostColumn[] = [
  'id',
  'brandId',
  'firstName',
  'lastName',
  'emailAddress',
  'phoneNumber',
  'description',
  'profilePicture',
  'allowOverlappingBookings',
];

export type HostWrites = StepsOf<HostWritesStore>;

export function hostWrites(t: HostTables): HostWrites {
  return {
    *findHostToWrite(hostId) {
      const [row] = yield* select(t.hosts, columns, eq(t.hosts.id, hostId));
      return row as HostRow | undefined;
    },

    *insertHost(row) {
      yield* count(sql`insert into ${t.hosts} ${insertValues(t.hosts, row)}`);
    },

    *updateHost(hostId, fields: Partial<HostFields>) {
      if (Object.values(fields).every((value) => value === undefined)) return;
      yield* count(sql`update ${t.hosts} set ${assignments(t.hosts, fields)} where ${eq(t.hosts.id, hostId)}`);
    },
  };
}
