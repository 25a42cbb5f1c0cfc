-- The data version on SQLite (src/db/sqlite/generation.ts): a counter in data_generation's one row, moved by
-- every row written to a table a cached answer may read, by any connection to the file, this process's or
-- another's. total_changes() and data_version moved with every write, so a booking, a readiness probe or
-- a webhook attempt emptied the response cache. The tables no cached answer reads
-- (src/db/unversioned-tables.ts) have no trigger; a table added later needs the three below
-- (test/sqlite/data-generation.test.ts fails without them). A row deleted by hand comes back with the next
-- write, counting from the time in milliseconds: above any count before, so no old version is seen again.
CREATE TABLE data_generation (
  id integer PRIMARY KEY NOT NULL CHECK (id = 1),
  version integer NOT NULL
);
--> statement-breakpoint
INSERT INTO data_generation (id, version) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER data_changed_add_ons_insert AFTER INSERT ON add_ons BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_add_ons_update AFTER UPDATE ON add_ons BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_add_ons_delete AFTER DELETE ON add_ons BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_api_keys_insert AFTER INSERT ON api_keys BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_api_keys_update AFTER UPDATE ON api_keys BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_api_keys_delete AFTER DELETE ON api_keys BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_brands_insert AFTER INSERT ON brands BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_brands_update AFTER UPDATE ON brands BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_brands_delete AFTER DELETE ON brands BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_cancellation_policies_insert AFTER INSERT ON cancellation_policies BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_cancellation_policies_update AFTER UPDATE ON cancellation_policies BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_cancellation_policies_delete AFTER DELETE ON cancellation_policies BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_categories_insert AFTER INSERT ON categories BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_categories_update AFTER UPDATE ON categories BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_categories_delete AFTER DELETE ON categories BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experience_media_insert AFTER INSERT ON experience_media BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experience_media_update AFTER UPDATE ON experience_media BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experience_media_delete AFTER DELETE ON experience_media BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experience_questions_insert AFTER INSERT ON experience_questions BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experience_questions_update AFTER UPDATE ON experience_questions BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experience_questions_delete AFTER DELETE ON experience_questions BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experience_translations_insert AFTER INSERT ON experience_translations BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experience_translations_update AFTER UPDATE ON experience_translations BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experience_translations_delete AFTER DELETE ON experience_translations BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experience_vibes_insert AFTER INSERT ON experience_vibes BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experience_vibes_update AFTER UPDATE ON experience_vibes BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experience_vibes_delete AFTER DELETE ON experience_vibes BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experiences_insert AFTER INSERT ON experiences BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experiences_update AFTER UPDATE ON experiences BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_experiences_delete AFTER DELETE ON experiences BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_hosts_insert AFTER INSERT ON hosts BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_hosts_update AFTER UPDATE ON hosts BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_hosts_delete AFTER DELETE ON hosts BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listing_content_translations_insert AFTER INSERT ON listing_content_translations BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listing_content_translations_update AFTER UPDATE ON listing_content_translations BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listing_content_translations_delete AFTER DELETE ON listing_content_translations BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listing_contents_insert AFTER INSERT ON listing_contents BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listing_contents_update AFTER UPDATE ON listing_contents BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listing_contents_delete AFTER DELETE ON listing_contents BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listing_media_insert AFTER INSERT ON listing_media BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listing_media_update AFTER UPDATE ON listing_media BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listing_media_delete AFTER DELETE ON listing_media BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listing_vibes_insert AFTER INSERT ON listing_vibes BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listing_vibes_update AFTER UPDATE ON listing_vibes BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listing_vibes_delete AFTER DELETE ON listing_vibes BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listings_insert AFTER INSERT ON listings BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listings_update AFTER UPDATE ON listings BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_listings_delete AFTER DELETE ON listings BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_media_insert AFTER INSERT ON media BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_media_update AFTER UPDATE ON media BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_media_delete AFTER DELETE ON media BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_organizations_insert AFTER INSERT ON organizations BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_organizations_update AFTER UPDATE ON organizations BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_organizations_delete AFTER DELETE ON organizations BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_price_tiers_insert AFTER INSERT ON price_tiers BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_price_tiers_update AFTER UPDATE ON price_tiers BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_price_tiers_delete AFTER DELETE ON price_tiers BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_questions_insert AFTER INSERT ON questions BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_questions_update AFTER UPDATE ON questions BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_questions_delete AFTER DELETE ON questions BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_reschedule_policies_insert AFTER INSERT ON reschedule_policies BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_reschedule_policies_update AFTER UPDATE ON reschedule_policies BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_reschedule_policies_delete AFTER DELETE ON reschedule_policies BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_reviewers_insert AFTER INSERT ON reviewers BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_reviewers_update AFTER UPDATE ON reviewers BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_reviewers_delete AFTER DELETE ON reviewers BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_reviews_insert AFTER INSERT ON reviews BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_reviews_update AFTER UPDATE ON reviews BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_reviews_delete AFTER DELETE ON reviews BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_taxes_insert AFTER INSERT ON taxes BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_taxes_update AFTER UPDATE ON taxes BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_taxes_delete AFTER DELETE ON taxes BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_vibes_insert AFTER INSERT ON vibes BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_vibes_update AFTER UPDATE ON vibes BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_vibes_delete AFTER DELETE ON vibes BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
