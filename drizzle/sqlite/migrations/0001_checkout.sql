CREATE TABLE `add_ons` (
	`id` text PRIMARY KEY NOT NULL,
	`experience_id` text NOT NULL,
	`name` text NOT NULL,
	`price_minor` integer NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `answers` (
	`id` text PRIMARY KEY NOT NULL,
	`booking_id` text NOT NULL,
	`participant_id` text,
	`question` text NOT NULL,
	`answer` text NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`participant_id`) REFERENCES `participants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `answers_booking_idx` ON `answers` (`booking_id`);--> statement-breakpoint
CREATE TABLE `bookings` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`cart_id` text,
	`experience_id` text NOT NULL,
	`session_id` text NOT NULL,
	`session_start_local` text NOT NULL,
	`payment_intent_id` text,
	`confirmation_code` text NOT NULL,
	`cart_confirmation_code` text,
	`cart_position` integer DEFAULT 0 NOT NULL,
	`status` text NOT NULL,
	`currency` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`amount_refunded_minor` integer DEFAULT 0 NOT NULL,
	`pricing` text NOT NULL,
	`payment_method` text NOT NULL,
	`purchaser_id` text NOT NULL,
	`purchaser_first_name` text NOT NULL,
	`purchaser_last_name` text NOT NULL,
	`purchaser_email` text,
	`purchaser_phone` text,
	`notes` text,
	`internal_notes` text,
	`metadata` text,
	`hold_expires_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`cart_id`) REFERENCES `carts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_intent_id`) REFERENCES `payment_intents`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "bookings_refund_within_amount" CHECK("bookings"."amount_refunded_minor" >= 0 AND "bookings"."amount_refunded_minor" <= "bookings"."amount_minor")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_brand_code_idx` ON `bookings` (`brand_id`,`confirmation_code`);--> statement-breakpoint
CREATE INDEX `bookings_cart_idx` ON `bookings` (`cart_id`);--> statement-breakpoint
CREATE INDEX `bookings_brand_created_idx` ON `bookings` (`brand_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `bookings_brand_session_start_idx` ON `bookings` (`brand_id`,`session_start_local`);--> statement-breakpoint
CREATE INDEX `bookings_hold_idx` ON `bookings` (`status`,`hold_expires_at`);--> statement-breakpoint
CREATE TABLE `carts` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`confirmation_code` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `carts_brand_code_idx` ON `carts` (`brand_id`,`confirmation_code`);--> statement-breakpoint
CREATE TABLE `coupons` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`code` text NOT NULL,
	`percent_off_basis_points` integer,
	`amount_off_minor` integer,
	`valid_from` text,
	`valid_until` text,
	`active` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "coupons_one_kind" CHECK(("coupons"."percent_off_basis_points" IS NULL) <> ("coupons"."amount_off_minor" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coupons_brand_code_idx` ON `coupons` (`brand_id`,`code`);--> statement-breakpoint
CREATE TABLE `credit_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`code` text NOT NULL,
	`balance_minor` integer NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "credit_codes_balance" CHECK("credit_codes"."balance_minor" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credit_codes_brand_code_idx` ON `credit_codes` (`brand_id`,`code`);--> statement-breakpoint
CREATE TABLE `credit_redemptions` (
	`id` text PRIMARY KEY NOT NULL,
	`booking_id` text NOT NULL,
	`credit_code_id` text NOT NULL,
	`amount_minor` integer NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`credit_code_id`) REFERENCES `credit_codes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`api_key_id` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`api_key_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `participants` (
	`id` text PRIMARY KEY NOT NULL,
	`booking_id` text NOT NULL,
	`position` integer NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email_address` text,
	`phone_number` text,
	`price_tier_name` text NOT NULL,
	`price_minor` integer NOT NULL,
	`cancelled_at` text,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `participants_booking_idx` ON `participants` (`booking_id`,`position`);--> statement-breakpoint
CREATE TABLE `payment_intents` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`cart_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`processor` text NOT NULL,
	`processor_reference` text NOT NULL,
	`secret_hash` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`cart_id`) REFERENCES `carts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_intents_secret_idx` ON `payment_intents` (`secret_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `payment_intents_processor_ref_idx` ON `payment_intents` (`processor`,`processor_reference`);--> statement-breakpoint
CREATE UNIQUE INDEX `payment_intents_cart_attempt_idx` ON `payment_intents` (`cart_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`booking_id` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`status` text NOT NULL,
	`processor_reference` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "refunds_positive" CHECK("refunds"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE INDEX `refunds_booking_idx` ON `refunds` (`booking_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`experience_id` text NOT NULL,
	`start_local` text NOT NULL,
	`starts_at` text NOT NULL,
	`duration_minutes` integer NOT NULL,
	`capacity` integer NOT NULL,
	`reserved` integer DEFAULT 0 NOT NULL,
	`held_for_offers` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "sessions_reserved_within_capacity" CHECK("sessions"."reserved" >= 0 AND "sessions"."held_for_offers" >= 0 AND "sessions"."reserved" + "sessions"."held_for_offers" <= "sessions"."capacity")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_experience_start_idx` ON `sessions` (`experience_id`,`start_local`);--> statement-breakpoint
CREATE TABLE `waitlists` (
	`id` text PRIMARY KEY NOT NULL,
	`experience_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `waitlists_experience_id_unique` ON `waitlists` (`experience_id`);