ALTER TABLE `bookings` ADD `amount_due_minor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `charged_to` text;