ALTER TABLE `brands` ADD `processor_account` text;--> statement-breakpoint
ALTER TABLE `payment_intents` ADD `processor_check_at` text;--> statement-breakpoint
CREATE INDEX `payment_intents_processor_check_idx` ON `payment_intents` (`processor`,`processor_check_at`);