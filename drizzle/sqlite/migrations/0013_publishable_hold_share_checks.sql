PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_brands` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text,
	`name` text NOT NULL,
	`brand_email` text NOT NULL,
	`country_code` text NOT NULL,
	`currency` text NOT NULL,
	`language` text NOT NULL,
	`default_locale` text,
	`is_limited` integer DEFAULT false NOT NULL,
	`design_element` text NOT NULL,
	`template_element` text NOT NULL,
	`features_active` text NOT NULL,
	`features_updated_at` text NOT NULL,
	`hosts_limit` integer NOT NULL,
	`promotion_exclusive_tag` text NOT NULL,
	`custom_style` text NOT NULL,
	`payment_platform` text NOT NULL,
	`validate_room_charge` integer DEFAULT false NOT NULL,
	`validate_member_charge` integer DEFAULT false NOT NULL,
	`service_version` text NOT NULL,
	`products` text NOT NULL,
	`payment_methods` text NOT NULL,
	`cancellation_policy_id` text,
	`reschedule_policy_id` text,
	`publishable_hold_share_percent` integer DEFAULT 50 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "brands_publishable_hold_share_percent" CHECK("__new_brands"."publishable_hold_share_percent" BETWEEN 0 AND 100)
);
--> statement-breakpoint
INSERT INTO `__new_brands`("id", "organization_id", "name", "brand_email", "country_code", "currency", "language", "default_locale", "is_limited", "design_element", "template_element", "features_active", "features_updated_at", "hosts_limit", "promotion_exclusive_tag", "custom_style", "payment_platform", "validate_room_charge", "validate_member_charge", "service_version", "products", "payment_methods", "cancellation_policy_id", "reschedule_policy_id", "publishable_hold_share_percent", "created_at") SELECT "id", "organization_id", "name", "brand_email", "country_code", "currency", "language", "default_locale", "is_limited", "design_element", "template_element", "features_active", "features_updated_at", "hosts_limit", "promotion_exclusive_tag", "custom_style", "payment_platform", "validate_room_charge", "validate_member_charge", "service_version", "products", "payment_methods", "cancellation_policy_id", "reschedule_policy_id", "publishable_hold_share_percent", "created_at" FROM `brands`;--> statement-breakpoint
DROP TABLE `brands`;--> statement-breakpoint
ALTER TABLE `__new_brands` RENAME TO `brands`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE TABLE `__new_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`experience_id` text NOT NULL,
	`start_local` text NOT NULL,
	`starts_at` text NOT NULL,
	`duration_minutes` integer NOT NULL,
	`capacity` integer NOT NULL,
	`reserved` integer DEFAULT 0 NOT NULL,
	`held_for_offers` integer DEFAULT 0 NOT NULL,
	`publishable_held` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "sessions_reserved_within_capacity" CHECK("__new_sessions"."reserved" >= 0 AND "__new_sessions"."held_for_offers" >= 0 AND "__new_sessions"."reserved" + "__new_sessions"."held_for_offers" <= "__new_sessions"."capacity"),
	CONSTRAINT "sessions_publishable_held_within_reserved" CHECK("__new_sessions"."publishable_held" >= 0 AND "__new_sessions"."publishable_held" <= "__new_sessions"."reserved")
);
--> statement-breakpoint
INSERT INTO `__new_sessions`("id", "experience_id", "start_local", "starts_at", "duration_minutes", "capacity", "reserved", "held_for_offers", "publishable_held") SELECT "id", "experience_id", "start_local", "starts_at", "duration_minutes", "capacity", "reserved", "held_for_offers", "publishable_held" FROM `sessions`;--> statement-breakpoint
DROP TABLE `sessions`;--> statement-breakpoint
ALTER TABLE `__new_sessions` RENAME TO `sessions`;--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_experience_start_idx` ON `sessions` (`experience_id`,`start_local`);