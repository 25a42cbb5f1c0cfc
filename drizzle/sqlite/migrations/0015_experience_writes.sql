ALTER TABLE `experiences` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `experiences` ADD `archived_at` text;