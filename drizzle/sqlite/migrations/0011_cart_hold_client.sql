ALTER TABLE `carts` ADD `hold_key_kind` text;--> statement-breakpoint
ALTER TABLE `carts` ADD `hold_client` text;--> statement-breakpoint
CREATE INDEX `carts_hold_client_idx` ON `carts` (`brand_id`,`hold_client`);