ALTER TABLE "experiences" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "experiences" ADD COLUMN "archived_at" timestamp(3) with time zone;