ALTER TABLE `idempotency_keys` ADD `lease_expires_at` text;--> statement-breakpoint
ALTER TABLE `refunds` ADD `effect` text DEFAULT '{"cancel":false,"participantIds":null,"also":null}' NOT NULL;--> statement-breakpoint
ALTER TABLE `refunds` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `refunds` ADD `next_attempt_at` text;--> statement-breakpoint
ALTER TABLE `refunds` ADD `last_error` text;--> statement-breakpoint
CREATE INDEX `refunds_due_idx` ON `refunds` (`status`,`next_attempt_at`);--> statement-breakpoint
-- Refunds left pending before this migration are due for reconciliation from their creation on.
UPDATE `refunds` SET `next_attempt_at` = `created_at` WHERE `status` = 'pending';