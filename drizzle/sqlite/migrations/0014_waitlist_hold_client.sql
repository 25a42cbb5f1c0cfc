ALTER TABLE `waitlist_entries` ADD `hold_client` text;--> statement-breakpoint
CREATE INDEX `waitlist_entries_hold_client_idx` ON `waitlist_entries` (`brand_id`,`hold_client`);