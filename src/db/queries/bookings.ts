import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { answers, bookings, experiences, participants, sessions } from '../schema.ts';

export type BookingRow = typeof bookings.$inferSelect;
export type ParticipantRow = typeof participants.$inferSelect;
export type AnswerRow = typeof answers.$inferSelect;

export interface BookingWithContext {
  booking: BookingRow;
  experienceTitle: string;
  timezone: string;
  startLocal: string;
}

/** Bookings with what their view needs from the session and experience, in one statement. */
export function findBookingsWithContext(db: Db, ids: readonly string[]): BookingWithContext[] {
  if (ids.length === 0) return [];
  return db
    .select({
      booking: bookings,
      experienceTitle: experiences.title,
      timezone: experiences.timezoneId,
      startLocal: sessions.startLocal,
    })
    .from(bookings)
    .innerJoin(experiences, eq(experiences.id, bookings.experienceId))
    .innerJoin(sessions, eq(sessions.id, bookings.sessionId))
    .where(inArray(bookings.id, [...ids]))
    .all();
}

export function participantsOfBookings(db: Db, bookingIds: readonly string[]): ParticipantRow[] {
  if (bookingIds.length === 0) return [];
  return db
    .select()
    .from(participants)
    .where(inArray(participants.bookingId, [...bookingIds]))
    .orderBy(asc(participants.bookingId), asc(participants.position))
    .all();
}

export function answersOfBookings(db: Db, bookingIds: readonly string[]): AnswerRow[] {
  if (bookingIds.length === 0) return [];
  return db
    .select()
    .from(answers)
    .where(inArray(answers.bookingId, [...bookingIds]))
    .orderBy(asc(answers.bookingId), asc(answers.position))
    .all();
}

export function findBookingRow(db: Db, id: string): BookingRow | undefined {
  return db.select().from(bookings).where(eq(bookings.id, id)).get();
}
