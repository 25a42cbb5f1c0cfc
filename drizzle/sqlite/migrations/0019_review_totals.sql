-- Each reviewed experience's review count and rating sums (src/db/sqlite/schema/catalog.ts), kept by
-- insertReviews in the transaction that writes the reviews: ratings read one row instead of averaging every
-- review of the experience. Filled here from the reviews already written; moves the data version as the
-- catalogue's tables do (0018).
CREATE TABLE `review_totals` (
	`experience_id` text PRIMARY KEY NOT NULL,
	`reviews` integer NOT NULL,
	`rating_sum` integer NOT NULL,
	`recommendability_sum` integer NOT NULL,
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `review_totals` (`experience_id`, `reviews`, `rating_sum`, `recommendability_sum`)
  SELECT `experience_id`, count(*), sum(`rating`), sum(`recommendability`) FROM `reviews` GROUP BY `experience_id`;
--> statement-breakpoint
CREATE TRIGGER data_changed_review_totals_insert AFTER INSERT ON review_totals BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_review_totals_update AFTER UPDATE ON review_totals BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER data_changed_review_totals_delete AFTER DELETE ON review_totals BEGIN
  INSERT INTO data_generation (id, version) VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) ON CONFLICT (id) DO UPDATE SET version = version + 1;
END;
