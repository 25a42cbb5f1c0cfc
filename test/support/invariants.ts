/**
 * Every invariant of places, money and events, checked with SQL over a whole database, in the SQL both
 * engines share. Each check returns the rows that break it, described, so a failure shows all of them at
 * once; a database in good order gives `[]`.
 */
import type { TestDb } from './db.ts';

type Check = string | ((db: TestDb) => Promise<unknown[]>);

const checks: Array<[string, Check]> = [
  [
    'session reserved places differ from the active participants of its processing and confirmed bookings',
    `SELECT * FROM (SELECT s.id, s.reserved, (SELECT count(*) FROM participants p JOIN bookings b ON b.id = p.booking_id
       WHERE b.session_id = s.id AND b.status IN ('processing', 'confirmed') AND p.cancelled_at IS NULL) AS active
     FROM sessions s) AS counted WHERE reserved <> active`,
  ],
  [
    'session places held for offers differ from the party sizes of its offered waitlist entries',
    `SELECT * FROM (SELECT s.id, s.held_for_offers, (SELECT coalesce(sum(e.party_size), 0) FROM waitlist_entries e
       WHERE e.session_id = s.id AND e.status = 'offered') AS offered
     FROM sessions s) AS counted WHERE held_for_offers <> offered`,
  ],
  [
    'participant still active in a cancelled or refunded booking (its place went back without it)',
    `SELECT p.id, p.booking_id, b.status FROM participants p JOIN bookings b ON b.id = p.booking_id
     WHERE b.status IN ('cancelled', 'refunded') AND p.cancelled_at IS NULL`,
  ],
  [
    'session places held by publishable keys differ from the active participants of its unpaid publishable holds',
    // Unpaid: processing (a card hold), or confirmed with a method the brand collects (src/domain/checkout/holds.ts, countsInShare).
    `SELECT * FROM (SELECT s.id, s.publishable_held, (SELECT count(*) FROM participants p JOIN bookings b ON b.id = p.booking_id
       WHERE b.session_id = s.id AND (b.status = 'processing' OR (b.status = 'confirmed' AND b.payment_method <> 'credit-card'))
         AND b.publishable_hold AND p.cancelled_at IS NULL) AS held
     FROM sessions s) AS counted WHERE publishable_held <> held`,
  ],
  [
    'session oversold',
    'SELECT id, capacity, reserved, held_for_offers FROM sessions WHERE reserved < 0 OR held_for_offers < 0 OR reserved + held_for_offers > capacity',
  ],
  [
    'booking amountRefunded differs from the sum of its refund ledger (pending and succeeded rows)',
    `SELECT * FROM (SELECT b.id, b.amount_refunded_minor, (SELECT coalesce(sum(r.amount_minor), 0) FROM refunds r
       WHERE r.booking_id = b.id AND r.status <> 'failed') AS ledger
     FROM bookings b) AS summed WHERE amount_refunded_minor <> ledger`,
  ],
  [
    'booking refunded above its amount',
    'SELECT id, amount_minor, amount_refunded_minor FROM bookings WHERE amount_refunded_minor > amount_minor',
  ],
  [
    "booking 'refunded' without its whole amount refunded",
    "SELECT id FROM bookings WHERE status = 'refunded' AND amount_refunded_minor <> amount_minor",
  ],
  ['booking without participants', 'SELECT b.id FROM bookings b WHERE NOT EXISTS (SELECT 1 FROM participants p WHERE p.booking_id = b.id)'],
  [
    'booking without exactly one booking.created event',
    `SELECT * FROM (SELECT b.id, (SELECT count(*) FROM events e WHERE e.resource_id = b.id AND e.type = 'booking.created') AS n
     FROM bookings b) AS counted WHERE n <> 1`,
  ],
  [
    'booking with a one-time event recorded twice',
    `SELECT resource_id, type, count(*) AS n FROM events
     WHERE type IN ('booking.created', 'booking.confirmed', 'booking.failed', 'booking.cancelled') GROUP BY resource_id, type HAVING count(*) > 1`,
  ],
  [
    'booking whose latest event does not show its status (a change without its event, or an event without its change)',
    (db) => statusesUnshown(db),
  ],
  [
    'event without the booking or waitlist entry it is about',
    `SELECT e.id, e.type FROM events e WHERE NOT EXISTS (SELECT 1 FROM bookings b WHERE b.id = e.resource_id)
       AND NOT EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.id = e.resource_id)`,
  ],
  ['event id recorded twice', 'SELECT id, count(*) AS n FROM events GROUP BY id HAVING count(*) > 1'],
  [
    'webhook delivery of a missing event',
    'SELECT d.id FROM webhook_deliveries d WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.sequence = d.event_sequence)',
  ],
  ['event without its delivery to a live endpoint of its brand subscribed to it', (db) => eventsUndelivered(db)],
  ['credit code balance below zero', 'SELECT id FROM credit_codes WHERE balance_minor < 0'],
];

// Two checks look inside JSON, which the engines do differently: they read the rows and look in code.

async function statusesUnshown(db: TestDb): Promise<unknown[]> {
  const latest = await db.all<{ id: string; status: string; payload: string }>(
    `SELECT b.id, b.status, e.payload FROM bookings b
     JOIN events e ON e.sequence = (SELECT max(sequence) FROM events WHERE resource_id = b.id AND type LIKE 'booking.%')`,
  );
  return latest
    .map((row) => ({ id: row.id, status: row.status, shown: (JSON.parse(row.payload) as { status?: string }).status }))
    .filter((row) => row.shown !== row.status);
}

async function eventsUndelivered(db: TestDb): Promise<unknown[]> {
  const missing = await db.all<{ id: string; type: string; endpoint: string; eventTypes: string }>(
    `SELECT e.id, e.type, w.id AS endpoint, w.event_types AS "eventTypes" FROM events e
     JOIN webhook_endpoints w ON w.brand_id = e.brand_id AND w.deleted_at IS NULL AND w.created_at <= e.created_at
     WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_sequence = e.sequence AND d.endpoint_id = w.id)`,
  );
  return missing.filter((row) => (JSON.parse(row.eventTypes) as string[]).includes(row.type)).map(({ id, endpoint }) => ({ id, endpoint }));
}

/** Descriptions of every broken invariant (with the offending rows); empty when all hold. */
export async function invariantViolations(db: TestDb): Promise<string[]> {
  const problems: string[] = [];
  if (db.engine === 'sqlite') {
    // PostgreSQL checks every foreign key as it writes; SQLite can be asked afterwards.
    const integrity = await db.values('PRAGMA integrity_check');
    if (integrity.join() !== 'ok') problems.push(`integrity_check: ${integrity.join('; ')}`);
    const foreignKeys = await db.all('PRAGMA foreign_key_check');
    if (foreignKeys.length > 0) problems.push(`foreign_key_check: ${JSON.stringify(foreignKeys.slice(0, 5))}`);
  }
  for (const [what, check] of checks) {
    const rows = typeof check === 'string' ? await db.all(check) : await check(db);
    if (rows.length > 0) problems.push(`${what}: ${rows.length} row(s), e.g. ${JSON.stringify(rows.slice(0, 3))}`);
  }
  return problems;
}
