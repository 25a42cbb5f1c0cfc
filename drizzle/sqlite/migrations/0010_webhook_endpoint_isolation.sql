ALTER TABLE `webhook_deliveries` ADD `leased_until` text;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_lease_idx` ON `webhook_deliveries` (`leased_until`);--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `failing_since` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `disabled_at` text;