-- Writes to the tables no cached answer reads (src/db/unversioned-tables.ts: bookings and what they
-- write, idempotency records, webhook bookkeeping) no longer notify tessera_data: a booking, a claimed
-- webhook delivery or a recorded attempt left the data version of every gateway moved and their response
-- caches empty. Every other table keeps its trigger (0011); a gateway does not count its own writes to
-- these tables either (src/db/postgres/own-writes.ts). readiness_heartbeat lost its trigger in 0013.
DROP TRIGGER IF EXISTS tessera_data_changed ON answers;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON booking_reschedules;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON bookings;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON carts;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON coupons;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON credit_codes;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON credit_redemptions;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON events;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON idempotency_keys;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON participants;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON payment_intents;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON refunds;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON sessions;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON waitlist_entries;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON waitlists;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON webhook_deliveries;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tessera_data_changed ON webhook_endpoints;
