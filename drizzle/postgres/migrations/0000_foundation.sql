CREATE TABLE "brands" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text,
	"name" text NOT NULL,
	"brand_email" text NOT NULL,
	"country_code" text NOT NULL,
	"currency" text NOT NULL,
	"language" text NOT NULL,
	"is_limited" boolean DEFAULT false NOT NULL,
	"design_element" json NOT NULL,
	"template_element" json NOT NULL,
	"features_active" json NOT NULL,
	"features_updated_at" timestamp(3) with time zone NOT NULL,
	"hosts_limit" integer NOT NULL,
	"promotion_exclusive_tag" text NOT NULL,
	"custom_style" text NOT NULL,
	"payment_platform" text NOT NULL,
	"validate_room_charge" boolean DEFAULT false NOT NULL,
	"validate_member_charge" boolean DEFAULT false NOT NULL,
	"service_version" text NOT NULL,
	"products" json NOT NULL,
	"payment_methods" json NOT NULL,
	"cancellation_policy_id" text,
	"reschedule_policy_id" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cancellation_policies" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"full_refund_hours_before" integer,
	"late_refund_percent" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "experience_media" (
	"experience_id" text NOT NULL,
	"media_id" text NOT NULL,
	"role" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "experience_media_experience_id_media_id_pk" PRIMARY KEY("experience_id","media_id")
);
--> statement-breakpoint
CREATE TABLE "experience_translations" (
	"experience_id" text NOT NULL,
	"locale" text NOT NULL,
	"title" text NOT NULL,
	"headline" text NOT NULL,
	"description" text NOT NULL,
	"health_and_safety" text NOT NULL,
	CONSTRAINT "experience_translations_experience_id_locale_pk" PRIMARY KEY("experience_id","locale")
);
--> statement-breakpoint
CREATE TABLE "experience_vibes" (
	"experience_id" text NOT NULL,
	"vibe_id" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "experience_vibes_experience_id_vibe_id_pk" PRIMARY KEY("experience_id","vibe_id")
);
--> statement-breakpoint
CREATE TABLE "experiences" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"host_id" text NOT NULL,
	"category_id" text NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"headline" text NOT NULL,
	"description" text NOT NULL,
	"health_and_safety" text NOT NULL,
	"provided_items" json NOT NULL,
	"location_name" text NOT NULL,
	"longitude" text NOT NULL,
	"latitude" text NOT NULL,
	"timezone_id" text NOT NULL,
	"location_additional_info" text DEFAULT '' NOT NULL,
	"max_participants_count" integer NOT NULL,
	"session_duration_minutes" integer NOT NULL,
	"booking_availability_mode" text NOT NULL,
	"is_exclusive" boolean DEFAULT false NOT NULL,
	"is_bookable" boolean DEFAULT true NOT NULL,
	"is_unlisted" boolean DEFAULT false NOT NULL,
	"type" text NOT NULL,
	"payment_methods" json NOT NULL,
	"integration_meta" json NOT NULL,
	"external_field_type" text,
	"external_field_value" text,
	"minimum_required_to_book" integer,
	"maximum_allowed_to_book" integer,
	"displayed_capacity" integer,
	"cancellation_policy_id" text
);
--> statement-breakpoint
CREATE TABLE "hosts" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email_address" text NOT NULL,
	"phone_number" text DEFAULT '' NOT NULL,
	"description" text NOT NULL,
	"profile_picture" json NOT NULL,
	"allow_overlapping_bookings" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_content_translations" (
	"content_id" text NOT NULL,
	"locale" text NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	CONSTRAINT "listing_content_translations_content_id_locale_pk" PRIMARY KEY("content_id","locale")
);
--> statement-breakpoint
CREATE TABLE "listing_contents" (
	"id" text PRIMARY KEY NOT NULL,
	"listing_id" text NOT NULL,
	"version" text NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"slug" text,
	"advertised_price_minor" integer NOT NULL,
	"starting_price_minor" integer NOT NULL,
	"hide_price" boolean DEFAULT false NOT NULL,
	"price_per_type" text NOT NULL,
	"max_participants" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_media" (
	"listing_id" text NOT NULL,
	"media_id" text NOT NULL,
	"kind" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "listing_media_listing_id_media_id_pk" PRIMARY KEY("listing_id","media_id")
);
--> statement-breakpoint
CREATE TABLE "listing_vibes" (
	"listing_id" text NOT NULL,
	"vibe_id" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "listing_vibes_listing_id_vibe_id_pk" PRIMARY KEY("listing_id","vibe_id")
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"kind" text NOT NULL,
	"product_line" text NOT NULL,
	"experience_id" text,
	"resource_group_collection_id" text NOT NULL,
	"is_featured" boolean DEFAULT true NOT NULL,
	"is_unlisted" boolean DEFAULT false NOT NULL,
	"is_exclusive" boolean DEFAULT false NOT NULL,
	"display_order" integer NOT NULL,
	"booking_availability_mode" text,
	"category_id" text,
	"host_id" text,
	"points_eligible" boolean,
	"event_start_date" text,
	"event_end_date" text
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"type" text DEFAULT 'image' NOT NULL,
	"alt_text" text,
	"renditions" json NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_tiers" (
	"id" text PRIMARY KEY NOT NULL,
	"experience_id" text NOT NULL,
	"name" text NOT NULL,
	"price_minor" integer NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reschedule_policies" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"allowed_hours_before" integer NOT NULL,
	"max_reschedules" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviewers" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email_address" text NOT NULL,
	"phone_number" text DEFAULT '' NOT NULL,
	"profile_picture" json NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"experience_id" text NOT NULL,
	"reviewer_id" text NOT NULL,
	"host_id" text NOT NULL,
	"rating" integer NOT NULL,
	"recommendability" integer NOT NULL,
	"text" text NOT NULL,
	"reviewed_at" timestamp(3) with time zone NOT NULL,
	"experienced_date" timestamp(3) with time zone NOT NULL,
	"rank" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "taxes" (
	"id" text PRIMARY KEY NOT NULL,
	"experience_id" text NOT NULL,
	"name" text NOT NULL,
	"rate_basis_points" integer NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vibes" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"brand_id" text,
	"organization_id" text,
	"secret_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"allowed_origins" json,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp(3) with time zone
);
--> statement-breakpoint
CREATE TABLE "experience_questions" (
	"id" text PRIMARY KEY NOT NULL,
	"experience_id" text NOT NULL,
	"question_id" text NOT NULL,
	"is_required" boolean NOT NULL,
	"is_active" boolean NOT NULL,
	"order" integer NOT NULL,
	"scope" text NOT NULL,
	"conditions" json,
	"conditions_match_type" text
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"prompt" text NOT NULL,
	"field_type" text NOT NULL,
	"options" json,
	"terms_and_conditions" json
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"experience_id" text NOT NULL,
	"start_local" text NOT NULL,
	"starts_at" timestamp(3) with time zone NOT NULL,
	"duration_minutes" integer NOT NULL,
	"capacity" integer NOT NULL,
	"reserved" integer DEFAULT 0 NOT NULL,
	"held_for_offers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sessions_reserved_within_capacity" CHECK ("sessions"."reserved" >= 0 AND "sessions"."held_for_offers" >= 0 AND "sessions"."reserved" + "sessions"."held_for_offers" <= "sessions"."capacity")
);
--> statement-breakpoint
CREATE TABLE "add_ons" (
	"id" text PRIMARY KEY NOT NULL,
	"experience_id" text NOT NULL,
	"name" text NOT NULL,
	"price_minor" integer NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carts" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"confirmation_code" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"code" text NOT NULL,
	"percent_off_basis_points" integer,
	"amount_off_minor" integer,
	"valid_from" text,
	"valid_until" text,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "coupons_one_kind" CHECK (("coupons"."percent_off_basis_points" IS NULL) <> ("coupons"."amount_off_minor" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "credit_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"code" text NOT NULL,
	"balance_minor" integer NOT NULL,
	CONSTRAINT "credit_codes_balance" CHECK ("credit_codes"."balance_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payment_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"cart_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"processor" text NOT NULL,
	"processor_reference" text NOT NULL,
	"secret_hash" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "answers" (
	"id" text PRIMARY KEY NOT NULL,
	"booking_id" text NOT NULL,
	"participant_id" text,
	"question" json NOT NULL,
	"answer" json NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_reschedules" (
	"id" text PRIMARY KEY NOT NULL,
	"booking_id" text NOT NULL,
	"sequence" integer NOT NULL,
	"from_session_id" text NOT NULL,
	"from_start_local" text NOT NULL,
	"to_session_id" text NOT NULL,
	"to_start_local" text NOT NULL,
	"api_key_id" text NOT NULL,
	"at" timestamp(3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"cart_id" text,
	"experience_id" text NOT NULL,
	"session_id" text NOT NULL,
	"session_start_local" text NOT NULL,
	"payment_intent_id" text,
	"confirmation_code" text NOT NULL,
	"cart_confirmation_code" text,
	"cart_position" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"amount_refunded_minor" integer DEFAULT 0 NOT NULL,
	"pricing" json NOT NULL,
	"payment_method" text NOT NULL,
	"amount_due_minor" integer DEFAULT 0 NOT NULL,
	"charged_to" text,
	"purchaser_id" text NOT NULL,
	"purchaser_first_name" text NOT NULL,
	"purchaser_last_name" text NOT NULL,
	"purchaser_email" text,
	"purchaser_phone" text,
	"notes" text,
	"internal_notes" text,
	"metadata" json,
	"hold_expires_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "bookings_refund_within_amount" CHECK ("bookings"."amount_refunded_minor" >= 0 AND "bookings"."amount_refunded_minor" <= "bookings"."amount_minor")
);
--> statement-breakpoint
CREATE TABLE "credit_redemptions" (
	"id" text PRIMARY KEY NOT NULL,
	"booking_id" text NOT NULL,
	"credit_code_id" text NOT NULL,
	"amount_minor" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "participants" (
	"id" text PRIMARY KEY NOT NULL,
	"booking_id" text NOT NULL,
	"position" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email_address" text,
	"phone_number" text,
	"price_tier_name" text NOT NULL,
	"price_minor" integer NOT NULL,
	"cancelled_at" timestamp(3) with time zone
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"booking_id" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"status" text NOT NULL,
	"processor_reference" text,
	"effect" json DEFAULT '{"cancel":false,"participantIds":null,"also":null}'::json NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp(3) with time zone,
	"last_error" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "refunds_positive" CHECK ("refunds"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"api_key_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"lease_expires_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_api_key_id_key_pk" PRIMARY KEY("api_key_id","key")
);
--> statement-breakpoint
CREATE TABLE "waitlist_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"waitlist_id" text NOT NULL,
	"session_id" text NOT NULL,
	"brand_id" text NOT NULL,
	"status" text NOT NULL,
	"position" integer NOT NULL,
	"party_size" integer NOT NULL,
	"purchaser" json NOT NULL,
	"purchaser_email_key" text NOT NULL,
	"participants" json NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone NOT NULL,
	"offered_at" timestamp(3) with time zone,
	"offer_expires_at" timestamp(3) with time zone,
	"converted_booking_id" text
);
--> statement-breakpoint
CREATE TABLE "waitlists" (
	"id" text PRIMARY KEY NOT NULL,
	"experience_id" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlists_experience_id_unique" UNIQUE("experience_id")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"sequence" bigint PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY (sequence name "events_sequence_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text NOT NULL,
	"brand_id" text NOT NULL,
	"type" text NOT NULL,
	"resource_id" text NOT NULL,
	"payload" json NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"event_sequence" bigint NOT NULL,
	"resource_id" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp(3) with time zone NOT NULL,
	"last_attempt_at" timestamp(3) with time zone,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp(3) with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"url" text NOT NULL,
	"event_types" json NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp(3) with time zone
);
--> statement-breakpoint
ALTER TABLE "brands" ADD CONSTRAINT "brands_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experience_media" ADD CONSTRAINT "experience_media_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experience_media" ADD CONSTRAINT "experience_media_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experience_translations" ADD CONSTRAINT "experience_translations_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experience_vibes" ADD CONSTRAINT "experience_vibes_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experience_vibes" ADD CONSTRAINT "experience_vibes_vibe_id_vibes_id_fk" FOREIGN KEY ("vibe_id") REFERENCES "public"."vibes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiences" ADD CONSTRAINT "experiences_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiences" ADD CONSTRAINT "experiences_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiences" ADD CONSTRAINT "experiences_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosts" ADD CONSTRAINT "hosts_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_content_translations" ADD CONSTRAINT "listing_content_translations_content_id_listing_contents_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."listing_contents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_contents" ADD CONSTRAINT "listing_contents_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_media" ADD CONSTRAINT "listing_media_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_media" ADD CONSTRAINT "listing_media_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_vibes" ADD CONSTRAINT "listing_vibes_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_vibes" ADD CONSTRAINT "listing_vibes_vibe_id_vibes_id_fk" FOREIGN KEY ("vibe_id") REFERENCES "public"."vibes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_tiers" ADD CONSTRAINT "price_tiers_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviewers" ADD CONSTRAINT "reviewers_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_reviewer_id_reviewers_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."reviewers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "taxes" ADD CONSTRAINT "taxes_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vibes" ADD CONSTRAINT "vibes_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experience_questions" ADD CONSTRAINT "experience_questions_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experience_questions" ADD CONSTRAINT "experience_questions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "add_ons" ADD CONSTRAINT "add_ons_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_codes" ADD CONSTRAINT "credit_codes_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_reschedules" ADD CONSTRAINT "booking_reschedules_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_reschedules" ADD CONSTRAINT "booking_reschedules_from_session_id_sessions_id_fk" FOREIGN KEY ("from_session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_reschedules" ADD CONSTRAINT "booking_reschedules_to_session_id_sessions_id_fk" FOREIGN KEY ("to_session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_payment_intent_id_payment_intents_id_fk" FOREIGN KEY ("payment_intent_id") REFERENCES "public"."payment_intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_redemptions" ADD CONSTRAINT "credit_redemptions_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_redemptions" ADD CONSTRAINT "credit_redemptions_credit_code_id_credit_codes_id_fk" FOREIGN KEY ("credit_code_id") REFERENCES "public"."credit_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_waitlist_id_waitlists_id_fk" FOREIGN KEY ("waitlist_id") REFERENCES "public"."waitlists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_converted_booking_id_bookings_id_fk" FOREIGN KEY ("converted_booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlists" ADD CONSTRAINT "waitlists_experience_id_experiences_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_sequence_events_sequence_fk" FOREIGN KEY ("event_sequence") REFERENCES "public"."events"("sequence") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "experiences_brand_slug_idx" ON "experiences" USING btree ("brand_id","slug");--> statement-breakpoint
CREATE INDEX "hosts_brand_idx" ON "hosts" USING btree ("brand_id");--> statement-breakpoint
CREATE UNIQUE INDEX "listing_contents_listing_version_idx" ON "listing_contents" USING btree ("listing_id","version");--> statement-breakpoint
CREATE INDEX "listings_brand_order_idx" ON "listings" USING btree ("brand_id","is_featured","is_unlisted","display_order");--> statement-breakpoint
CREATE UNIQUE INDEX "price_tiers_experience_name_idx" ON "price_tiers" USING btree ("experience_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_experience_rank_idx" ON "reviews" USING btree ("experience_id","rank");--> statement-breakpoint
CREATE INDEX "reviews_experience_reviewed_idx" ON "reviews" USING btree ("experience_id","reviewed_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_hash_idx" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "experience_questions_experience_idx" ON "experience_questions" USING btree ("experience_id","order");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_experience_start_idx" ON "sessions" USING btree ("experience_id","start_local");--> statement-breakpoint
CREATE UNIQUE INDEX "carts_brand_code_idx" ON "carts" USING btree ("brand_id","confirmation_code");--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_brand_code_idx" ON "coupons" USING btree ("brand_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_codes_brand_code_idx" ON "credit_codes" USING btree ("brand_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_secret_idx" ON "payment_intents" USING btree ("secret_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_processor_ref_idx" ON "payment_intents" USING btree ("processor","processor_reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_cart_attempt_idx" ON "payment_intents" USING btree ("cart_id","attempt");--> statement-breakpoint
CREATE INDEX "answers_booking_idx" ON "answers" USING btree ("booking_id");--> statement-breakpoint
CREATE UNIQUE INDEX "booking_reschedules_booking_sequence_idx" ON "booking_reschedules" USING btree ("booking_id","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_brand_code_idx" ON "bookings" USING btree ("brand_id","confirmation_code");--> statement-breakpoint
CREATE INDEX "bookings_cart_idx" ON "bookings" USING btree ("cart_id");--> statement-breakpoint
CREATE INDEX "bookings_payment_intent_idx" ON "bookings" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE INDEX "bookings_brand_created_idx" ON "bookings" USING btree ("brand_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bookings_brand_session_start_idx" ON "bookings" USING btree ("brand_id","session_start_local");--> statement-breakpoint
CREATE INDEX "bookings_hold_idx" ON "bookings" USING btree ("status","hold_expires_at");--> statement-breakpoint
CREATE INDEX "participants_booking_idx" ON "participants" USING btree ("booking_id","position");--> statement-breakpoint
CREATE INDEX "refunds_booking_idx" ON "refunds" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "refunds_due_idx" ON "refunds" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_session_position_idx" ON "waitlist_entries" USING btree ("session_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_live_email_idx" ON "waitlist_entries" USING btree ("session_id","purchaser_email_key") WHERE status IN ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "waitlist_entries_waitlist_idx" ON "waitlist_entries" USING btree ("waitlist_id","position");--> statement-breakpoint
CREATE INDEX "waitlist_entries_offer_expiry_idx" ON "waitlist_entries" USING btree ("status","offer_expires_at");--> statement-breakpoint
CREATE INDEX "events_brand_sequence_idx" ON "events" USING btree ("brand_id","sequence");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_order_idx" ON "webhook_deliveries" USING btree ("endpoint_id","resource_id","event_sequence");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_brand_idx" ON "webhook_endpoints" USING btree ("brand_id");