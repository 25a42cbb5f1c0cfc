ALTER TABLE `brands` ADD `publishable_hold_share_percent` integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `publishable_held` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `publishable_hold` integer DEFAULT false NOT NULL;