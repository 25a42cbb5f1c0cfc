/**
 * A booking's record as a unit's own writes leave it, so the unit can make its events' view (and its
 * answer) from the record it read, locked, before writing, instead of reading the booking again.
 */
import type { BookingStatus } from '../shared/values.ts';
import type { BookingRecord } from './store.ts';

/**
 * The record after cancelling the still-active participants of `cancelled` at `at` and setting `status`
 * (null: unchanged), as the stores write them (CancellationStore.cancelParticipants, setBookingStatus,
 * PaymentsStore.cancelActiveParticipants): a booking leaving `processing` has no hold left; its
 * `updatedAt` moves when anything was written.
 */
export function recordAsWritten(
  record: BookingRecord,
  { cancelled = [], status = null, at }: { cancelled?: readonly string[]; status?: BookingStatus | null; at: string },
): BookingRecord {
  if (cancelled.length === 0 && status === null) return record;
  const ids = new Set(cancelled);
  const statusSet = status === null ? {} : status === 'processing' ? { status } : { status, holdExpiresAt: null };
  return {
    ...record,
    booking: { ...record.booking, ...statusSet, updatedAt: at },
    participants: record.participants.map((p) => (ids.has(p.id) && p.cancelledAt === null ? { ...p, cancelledAt: at } : p)),
  };
}
