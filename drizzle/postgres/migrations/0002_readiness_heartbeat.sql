CREATE TABLE "readiness_heartbeat" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"written_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "readiness_heartbeat_one_row" CHECK ("readiness_heartbeat"."id" = 1)
);
