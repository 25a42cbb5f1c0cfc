ALTER TABLE "carts" ADD COLUMN "hold_key_kind" text;--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "hold_client" text;--> statement-breakpoint
CREATE INDEX "carts_hold_client_idx" ON "carts" USING btree ("brand_id","hold_client");