ALTER TABLE "brands" ADD COLUMN "processor_account" text;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "processor_check_at" timestamp(3) with time zone;--> statement-breakpoint
CREATE INDEX "payment_intents_processor_check_idx" ON "payment_intents" USING btree ("processor","processor_check_at");