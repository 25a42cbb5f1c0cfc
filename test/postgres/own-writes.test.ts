/**
 * What the PostgreSQL pool's connections take for a write (src/db/postgres/own-writes.ts): the data version
 * moves when such a statement's write becomes visible, so one missed would serve answers from before this
 * gateway's own write. Anything not known to only read counts as a write.
 */
import { describe, expect, it } from 'vitest';
import { statementKind, writesKeys } from '../../src/db/postgres/own-writes.ts';

describe('statementKind', () => {
  it.each([
    ['select "id" from "hosts" where "id" = $1', 'read'],
    ['  SELECT pg_current_snapshot()::text', 'read'],
    ['with "x" as (select 1) select * from "x"', 'read'],
    ['select "updated_at" from "carts"', 'read'],
    ['insert into "hosts" ("id") values ($1)', 'write'],
    ['update "hosts" set "description" = $1', 'write'],
    ['delete from "holds" where "id" = $1', 'write'],
    ['with "u" as (update "experiences" set "title" = $1 returning "id") select * from "u"', 'write'],
    ['-- a comment\nupdate "brands" set "name" = $1', 'write'],
    ['/* x */ select 1', 'read'],
    ['TRUNCATE "listings"', 'write'],
    ['CREATE TABLE "x" ("id" text)', 'write'],
    ['select set_config($1, $2, true)', 'read'],
    ['begin isolation level read committed', 'begin'],
    ['START TRANSACTION', 'begin'],
    ['commit', 'commit'],
    ['END', 'commit'],
    ['rollback', 'rollback'],
    ['rollback to savepoint sp1', 'read'],
    ['savepoint sp1', 'read'],
    ['release savepoint sp1', 'read'],
    ['SET statement_timeout = 0', 'read'],
    ['LISTEN tessera_data', 'read'],
    ['select 1; update "hosts" set "id" = "id"', 'write'],
    ['BEGIN; COMMIT', 'write'],
    ['', 'write'],
    // Writes of tables no cached answer reads (UNVERSIONED_TABLES), as the stores send them and as psql might,
    // and locking reads, which write no row: they move no data version, nor take a read lane.
    ['insert into "readiness_heartbeat" ("id", "written_at") values ($1, $2) on conflict ("id") do update set "written_at" = $3', 'unread'],
    ['INSERT INTO readiness_heartbeat (id, written_at) VALUES (1, now())', 'unread'],
    ['update "sessions" set "reserved" = "reserved" + $1', 'unread'],
    ['with "u" as (update "sessions" set "reserved" = 1 returning "id") select * from "u"', 'unread'],
    ['insert into "bookings" ("id", "price") select $1, "price" from "price_tiers" where "id" = $2', 'unread'],
    [
      'with written as (insert into "events" (id) select 1 returning id) insert into "webhook_deliveries" (id) select id from written',
      'unread',
    ],
    ['TRUNCATE events, hosts', 'write'],
    ['DELETE FROM ONLY "idempotency_keys" WHERE "expires_at" < now()', 'unread'],
    ['select 1 from "bookings" where "id" = $1 for no key update', 'unread'],
    ['select "id" from "webhook_deliveries" for update of "webhook_deliveries" skip locked', 'unread'],
    // A versioned table written beside them, an unknown one, a schema-qualified name, or several statements: a write.
    ['with w as (insert into "events" (id) values (1) returning id) update "hosts" set "id" = "id"', 'write'],
    ['insert into "readiness_heartbeat_log" ("id") values ($1)', 'write'],
    ['update "public"."sessions" set "reserved" = 0', 'write'],
    ['insert into "readiness_heartbeat" ("id") values (1); delete from "bookings"', 'write'],
  ] as const)('%j is a %s', (text, kind) => {
    expect(statementKind(text)).toBe(kind);
  });

  it('takes a statement without text (a submittable) for a write', () => {
    expect(statementKind(undefined)).toBe('write');
  });
});

describe('writesKeys', () => {
  it.each([
    ['update "api_keys" set "revoked_at" = $1 where "id" = $2', true],
    ['insert into "brands" ("id", "name") values ($1, $2)', true],
    ['delete from organizations where id = $1', true],
    ['TRUNCATE api_keys, hosts', true],
    ['update "sessions" set "reserved" = "reserved" + $1 where "brand_id" = $2', false],
    ['insert into "events" ("id", "brand_id", "type") values ($1, $2, $3)', false],
    ['with "b" as (insert into "bookings" ("id") values ($1) returning "id") insert into "participants" select * from "b"', false],
  ] as const)('%j: %s', (text, keys) => {
    expect(writesKeys(text)).toBe(keys);
  });

  it('takes a statement without text for one that may write them', () => {
    expect(writesKeys(undefined)).toBe(true);
  });
});
