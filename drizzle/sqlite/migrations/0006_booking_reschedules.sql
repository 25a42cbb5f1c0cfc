CREATE TABLE `booking_reschedules` (
	`id` text PRIMARY KEY NOT NULL,
	`booking_id` text NOT NULL,
	`sequence` integer NOT NULL,
	`from_session_id` text NOT NULL,
	`from_start_local` text NOT NULL,
	`to_session_id` text NOT NULL,
	`to_start_local` text NOT NULL,
	`api_key_id` text NOT NULL,
	`at` text NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`from_session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`to_session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `booking_reschedules_booking_sequence_idx` ON `booking_reschedules` (`booking_id`,`sequence`);