-- The readiness check writes the one row of readiness_heartbeat (at most once a READINESS_CACHE_MS per
-- gateway, as often as load balancers probe /readyz); no answer reads that table. Its data-change trigger
-- (0011) made every such write move the data version of every gateway on the database, emptying their
-- response caches as often as any of them was probed. The table no longer notifies, and a gateway does not
-- count its own heartbeat as a write either (src/db/postgres/own-writes.ts).
DROP TRIGGER IF EXISTS tessera_data_changed ON readiness_heartbeat;
