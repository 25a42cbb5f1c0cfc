-- Every write to a table of the schema, by anyone (a gateway, psql, a later migration), queues a
-- notification on the channel tessera_data, which the server delivers when the writing transaction commits
-- (identical ones of one transaction once) to every gateway's listening connection: their data version
-- moves with it (src/db/postgres/data-version.ts). A statement-level trigger costs one call a statement,
-- whatever the rows; a table added later needs the same trigger (test/postgres/data-change-notices.test.ts
-- fails without it):
--   CREATE TRIGGER tessera_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON <table>
--     FOR EACH STATEMENT EXECUTE FUNCTION tessera_data_changed();
CREATE OR REPLACE FUNCTION tessera_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tessera_data', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  watched text;
BEGIN
  FOR watched IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename LOOP
    EXECUTE format(
      'CREATE TRIGGER tessera_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION tessera_data_changed()',
      watched
    );
  END LOOP;
END
$$;
