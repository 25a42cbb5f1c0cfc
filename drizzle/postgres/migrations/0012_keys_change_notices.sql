-- What identifies an API key (the key itself, and an organization key's brands) changes far less often
-- than the data: a write to api_keys, brands or organizations, by anyone, also queues a notification on
-- the channel tessera_keys, delivered on commit like tessera_data's. A gateway's keys version moves with
-- it (src/db/postgres/data-version.ts), so a key found once is not looked up again after every booking.
-- A table the key lookup (src/db/postgres/stores/access/api-keys.ts) comes to read needs the same trigger
-- (test/postgres/keys-version.test.ts lists them):
--   CREATE TRIGGER tessera_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON <table>
--     FOR EACH STATEMENT EXECUTE FUNCTION tessera_keys_changed();
CREATE OR REPLACE FUNCTION tessera_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tessera_keys', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tessera_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION tessera_keys_changed();
--> statement-breakpoint
CREATE TRIGGER tessera_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON brands FOR EACH STATEMENT EXECUTE FUNCTION tessera_keys_changed();
--> statement-breakpoint
CREATE TRIGGER tessera_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organizations FOR EACH STATEMENT EXECUTE FUNCTION tessera_keys_changed();
