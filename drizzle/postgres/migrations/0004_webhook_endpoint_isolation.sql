ALTER TABLE "webhook_deliveries" ADD COLUMN "leased_until" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "failing_since" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_at" timestamp(3) with time zone;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_lease_idx" ON "webhook_deliveries" USING btree ("leased_until");