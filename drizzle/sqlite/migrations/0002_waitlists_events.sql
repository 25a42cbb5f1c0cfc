CREATE TABLE `events` (
	`sequence` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`brand_id` text NOT NULL,
	`type` text NOT NULL,
	`resource_id` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_id_unique` ON `events` (`id`);--> statement-breakpoint
CREATE INDEX `events_brand_sequence_idx` ON `events` (`brand_id`,`sequence`);--> statement-breakpoint
CREATE TABLE `waitlist_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`waitlist_id` text NOT NULL,
	`session_id` text NOT NULL,
	`brand_id` text NOT NULL,
	`status` text NOT NULL,
	`position` integer NOT NULL,
	`party_size` integer NOT NULL,
	`purchaser` text NOT NULL,
	`purchaser_email_key` text NOT NULL,
	`participants` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`offered_at` text,
	`offer_expires_at` text,
	`converted_booking_id` text,
	FOREIGN KEY (`waitlist_id`) REFERENCES `waitlists`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`converted_booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_entries_session_position_idx` ON `waitlist_entries` (`session_id`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_entries_live_email_idx` ON `waitlist_entries` (`session_id`,`purchaser_email_key`) WHERE status IN ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX `waitlist_entries_waitlist_idx` ON `waitlist_entries` (`waitlist_id`,`position`);--> statement-breakpoint
CREATE INDEX `waitlist_entries_offer_expiry_idx` ON `waitlist_entries` (`status`,`offer_expires_at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint_id` text NOT NULL,
	`event_sequence` integer NOT NULL,
	`resource_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`last_attempt_at` text,
	`last_status_code` integer,
	`last_error` text,
	`created_at` text NOT NULL,
	`delivered_at` text,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`event_sequence`) REFERENCES `events`(`sequence`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_order_idx` ON `webhook_deliveries` (`endpoint_id`,`resource_id`,`event_sequence`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`url` text NOT NULL,
	`event_types` text NOT NULL,
	`secret_ciphertext` text NOT NULL,
	`created_at` text NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_brand_idx` ON `webhook_endpoints` (`brand_id`);