/**
 * Every invariant of places, money and events, checked with SQL over a whole database. Each check
 * returns the rows that break it, described, so a failure shows all of them at once; a database in good
 * order gives `[]`.
 */
import type Database from 'better-sqlite3';

const checks: Array<[string, string]> = [
  [
    'session reserved places differ from the active participants of its processing and confirmed bookings',
    `SELECT s.id, s.reserved, (SELECT count(*) FROM participants p JOIN bookings b ON b.id = p.booking_id
       WHERE b.session_id = s.id AND b.status IN ('processing', 'confirmed') AND p.cancelled_at IS NULL) AS active
     FROM sessions s WHERE s.reserved <> active`,
  ],
  [
    'session places held for offers differ from the party sizes of its offered waitlist entries',
    `SELECT s.id, s.held_for_offers, (SELECT coalesce(sum(e.party_size), 0) FROM waitlist_entries e
       WHERE e.session_id = s.id AND e.status = 'offered') AS offered
     FROM sessions s WHERE s.held_for_offers <> offered`,
  ],
  [
    'session oversold',
    'SELECT id, capacity, reserved, held_for_offers FROM sessions WHERE reserved < 0 OR held_for_offers < 0 OR reserved + held_for_offers > capacity',
  ],
  [
    'booking amountRefunded differs from the sum of its refund ledger (pending and succeeded rows)',
    `SELECT b.id, b.amount_refunded_minor, (SELECT coalesce(sum(r.amount_minor), 0) FROM refunds r
       WHERE r.booking_id = b.id AND r.status <> 'failed') AS ledger
     FROM bookings b WHERE b.amount_refunded_minor <> ledger`,
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
    `SELECT b.id, (SELECT count(*) FROM events e WHERE e.resource_id = b.id AND e.type = 'booking.created') AS n FROM bookings b WHERE n <> 1`,
  ],
  [
    'booking with a one-time event recorded twice',
    `SELECT resource_id, type, count(*) AS n FROM events
     WHERE type IN ('booking.created', 'booking.confirmed', 'booking.failed', 'booking.cancelled') GROUP BY resource_id, type HAVING n > 1`,
  ],
  [
    'booking whose latest event does not show its status (a change without its event, or an event without its change)',
    `SELECT b.id, b.status, json_extract(e.payload, '$.status') AS shown FROM bookings b
     JOIN events e ON e.sequence = (SELECT max(sequence) FROM events WHERE resource_id = b.id AND type LIKE 'booking.%')
     WHERE shown IS NOT b.status`,
  ],
  [
    'event without the booking or waitlist entry it is about',
    `SELECT e.id, e.type FROM events e WHERE NOT EXISTS (SELECT 1 FROM bookings b WHERE b.id = e.resource_id)
       AND NOT EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.id = e.resource_id)`,
  ],
  ['event id recorded twice', 'SELECT id, count(*) AS n FROM events GROUP BY id HAVING n > 1'],
  [
    'webhook delivery of a missing event',
    'SELECT d.id FROM webhook_deliveries d WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.sequence = d.event_sequence)',
  ],
  [
    'event without its delivery to a live endpoint of its brand subscribed to it',
    `SELECT e.id, w.id AS endpoint FROM events e JOIN webhook_endpoints w ON w.brand_id = e.brand_id AND w.deleted_at IS NULL
       AND w.created_at <= e.created_at AND EXISTS (SELECT 1 FROM json_each(w.event_types) t WHERE t.value = e.type)
     WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_sequence = e.sequence AND d.endpoint_id = w.id)`,
  ],
  ['credit code balance below zero', 'SELECT id FROM credit_codes WHERE balance_minor < 0'],
];

/** Descriptions of every broken invariant (with the offending rows); empty when all hold. */
export function invariantViolations(sqlite: Database.Database): string[] {
  const problems: string[] = [];
  const integrity = sqlite.prepare('PRAGMA integrity_check').pluck().all();
  if (integrity.join() !== 'ok') problems.push(`integrity_check: ${integrity.join('; ')}`);
  const foreignKeys = sqlite.prepare('PRAGMA foreign_key_check').all();
  if (foreignKeys.length > 0) problems.push(`foreign_key_check: ${JSON.stringify(foreignKeys.slice(0, 5))}`);
  for (const [what, sql] of checks) {
    const rows = sqlite.prepare(sql).all();
    if (rows.length > 0) problems.push(`${what}: ${rows.length} row(s), e.g. ${JSON.stringify(rows.slice(0, 3))}`);
  }
  return problems;
}
