CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`brand_id` text,
	`organization_id` text,
	`secret_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_secret_hash_idx` ON `api_keys` (`secret_hash`);--> statement-breakpoint
CREATE TABLE `brands` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text,
	`name` text NOT NULL,
	`brand_email` text NOT NULL,
	`country_code` text NOT NULL,
	`currency` text NOT NULL,
	`language` text NOT NULL,
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
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `cancellation_policies` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`full_refund_hours_before` integer,
	`late_refund_percent` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `categories` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`name` text NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `experience_media` (
	`experience_id` text NOT NULL,
	`media_id` text NOT NULL,
	`role` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`experience_id`, `media_id`),
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `experience_questions` (
	`id` text PRIMARY KEY NOT NULL,
	`experience_id` text NOT NULL,
	`question_id` text NOT NULL,
	`is_required` integer NOT NULL,
	`is_active` integer NOT NULL,
	`order` integer NOT NULL,
	`scope` text NOT NULL,
	`conditions` text,
	`conditions_match_type` text,
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`question_id`) REFERENCES `questions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `experience_questions_experience_idx` ON `experience_questions` (`experience_id`,`order`);--> statement-breakpoint
CREATE TABLE `experience_translations` (
	`experience_id` text NOT NULL,
	`locale` text NOT NULL,
	`title` text NOT NULL,
	`headline` text NOT NULL,
	`description` text NOT NULL,
	`health_and_safety` text NOT NULL,
	PRIMARY KEY(`experience_id`, `locale`),
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `experience_vibes` (
	`experience_id` text NOT NULL,
	`vibe_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`experience_id`, `vibe_id`),
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`vibe_id`) REFERENCES `vibes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `experiences` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`host_id` text NOT NULL,
	`category_id` text NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`headline` text NOT NULL,
	`description` text NOT NULL,
	`health_and_safety` text NOT NULL,
	`provided_items` text NOT NULL,
	`location_name` text NOT NULL,
	`longitude` text NOT NULL,
	`latitude` text NOT NULL,
	`timezone_id` text NOT NULL,
	`location_additional_info` text DEFAULT '' NOT NULL,
	`max_participants_count` integer NOT NULL,
	`session_duration_minutes` integer NOT NULL,
	`booking_availability_mode` text NOT NULL,
	`is_exclusive` integer DEFAULT false NOT NULL,
	`is_bookable` integer DEFAULT true NOT NULL,
	`is_unlisted` integer DEFAULT false NOT NULL,
	`type` text NOT NULL,
	`payment_methods` text NOT NULL,
	`integration_meta` text NOT NULL,
	`external_field_type` text,
	`external_field_value` text,
	`minimum_required_to_book` integer,
	`maximum_allowed_to_book` integer,
	`displayed_capacity` integer,
	`cancellation_policy_id` text,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`host_id`) REFERENCES `hosts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `experiences_brand_slug_idx` ON `experiences` (`brand_id`,`slug`);--> statement-breakpoint
CREATE TABLE `hosts` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email_address` text NOT NULL,
	`phone_number` text DEFAULT '' NOT NULL,
	`description` text NOT NULL,
	`profile_picture` text NOT NULL,
	`allow_overlapping_bookings` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `hosts_brand_idx` ON `hosts` (`brand_id`);--> statement-breakpoint
CREATE TABLE `listing_content_translations` (
	`content_id` text NOT NULL,
	`locale` text NOT NULL,
	`title` text NOT NULL,
	`summary` text NOT NULL,
	PRIMARY KEY(`content_id`, `locale`),
	FOREIGN KEY (`content_id`) REFERENCES `listing_contents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `listing_contents` (
	`id` text PRIMARY KEY NOT NULL,
	`listing_id` text NOT NULL,
	`version` text NOT NULL,
	`title` text NOT NULL,
	`summary` text NOT NULL,
	`slug` text,
	`advertised_price_minor` integer NOT NULL,
	`starting_price_minor` integer NOT NULL,
	`hide_price` integer DEFAULT false NOT NULL,
	`price_per_type` text NOT NULL,
	`max_participants` integer NOT NULL,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `listing_contents_listing_version_idx` ON `listing_contents` (`listing_id`,`version`);--> statement-breakpoint
CREATE TABLE `listing_media` (
	`listing_id` text NOT NULL,
	`media_id` text NOT NULL,
	`kind` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`listing_id`, `media_id`),
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `listing_vibes` (
	`listing_id` text NOT NULL,
	`vibe_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`listing_id`, `vibe_id`),
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`vibe_id`) REFERENCES `vibes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `listings` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`kind` text NOT NULL,
	`product_line` text NOT NULL,
	`experience_id` text,
	`resource_group_collection_id` text NOT NULL,
	`is_featured` integer DEFAULT true NOT NULL,
	`is_unlisted` integer DEFAULT false NOT NULL,
	`is_exclusive` integer DEFAULT false NOT NULL,
	`display_order` integer NOT NULL,
	`booking_availability_mode` text,
	`category_id` text,
	`host_id` text,
	`points_eligible` integer,
	`event_start_date` text,
	`event_end_date` text,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`host_id`) REFERENCES `hosts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `listings_brand_order_idx` ON `listings` (`brand_id`,`is_featured`,`is_unlisted`,`display_order`);--> statement-breakpoint
CREATE TABLE `media` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`type` text DEFAULT 'image' NOT NULL,
	`alt_text` text,
	`renditions` text NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `price_tiers` (
	`id` text PRIMARY KEY NOT NULL,
	`experience_id` text NOT NULL,
	`name` text NOT NULL,
	`price_minor` integer NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `price_tiers_experience_name_idx` ON `price_tiers` (`experience_id`,`name`);--> statement-breakpoint
CREATE TABLE `questions` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`prompt` text NOT NULL,
	`field_type` text NOT NULL,
	`options` text,
	`terms_and_conditions` text,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `reschedule_policies` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`allowed_hours_before` integer NOT NULL,
	`max_reschedules` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `reviewers` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email_address` text NOT NULL,
	`phone_number` text DEFAULT '' NOT NULL,
	`profile_picture` text NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`experience_id` text NOT NULL,
	`reviewer_id` text NOT NULL,
	`host_id` text NOT NULL,
	`rating` integer NOT NULL,
	`recommendability` integer NOT NULL,
	`text` text NOT NULL,
	`reviewed_at` text NOT NULL,
	`experienced_date` text NOT NULL,
	`rank` integer NOT NULL,
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reviewer_id`) REFERENCES `reviewers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`host_id`) REFERENCES `hosts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_experience_rank_idx` ON `reviews` (`experience_id`,`rank`);--> statement-breakpoint
CREATE INDEX `reviews_experience_reviewed_idx` ON `reviews` (`experience_id`,`reviewed_at`,`id`);--> statement-breakpoint
CREATE TABLE `taxes` (
	`id` text PRIMARY KEY NOT NULL,
	`experience_id` text NOT NULL,
	`name` text NOT NULL,
	`rate_basis_points` integer NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`experience_id`) REFERENCES `experiences`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `vibes` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` text NOT NULL,
	`name` text NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
