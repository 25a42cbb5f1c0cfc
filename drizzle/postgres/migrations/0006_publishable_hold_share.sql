ALTER TABLE "brands" ADD COLUMN "publishable_hold_share_percent" integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "publishable_held" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "publishable_hold" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "brands" ADD CONSTRAINT "brands_publishable_hold_share_percent" CHECK ("brands"."publishable_hold_share_percent" BETWEEN 0 AND 100);--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_publishable_held_within_reserved" CHECK ("sessions"."publishable_held" >= 0 AND "sessions"."publishable_held" <= "sessions"."reserved");