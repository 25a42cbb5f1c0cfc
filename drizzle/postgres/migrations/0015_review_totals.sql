-- Each reviewed experience's review count and rating sums (src/db/postgres/schema/catalog.ts), kept by
-- insertReviews in the transaction that writes the reviews: ratings read one row instead of averaging every
-- review of the experience. Filled here from the reviews already written; notifies tessera_data as the
-- catalogue's tables do (0011).
CREATE TABLE "review_totals" (
	"experience_id" text PRIMARY KEY NOT NULL,
	"reviews" integer NOT NULL,
	"rating_sum" integer NOT NULL,
	"recommendability_sum" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "review_totals" ADD CONSTRAINT "review_totals_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
INSERT INTO "review_totals" ("experience_id", "reviews", "rating_sum", "recommendability_sum")
  SELECT "experience_id", count(*), sum("rating"), sum("recommendability") FROM "reviews" GROUP BY "experience_id";
--> statement-breakpoint
CREATE TRIGGER tessera_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "review_totals"
  FOR EACH STATEMENT EXECUTE FUNCTION tessera_data_changed();
