ALTER TABLE "waitlist_entries" ADD COLUMN "hold_client" text;--> statement-breakpoint
CREATE INDEX "waitlist_entries_hold_client_idx" ON "waitlist_entries" USING btree ("brand_id","hold_client");