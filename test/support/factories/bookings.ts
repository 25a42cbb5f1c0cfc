import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../src/db/client.ts';
import { bookings, participants, sessions } from '../../../src/db/schema.ts';
import { localToUtc } from '../../../src/domain/local-time.ts';

type SessionInsert = typeof sessions.$inferInsert;
type BookingInsert = typeof bookings.$inferInsert;

export function createSession(
  db: Db,
  experience: { id: string; timezoneId: string },
  overrides: Partial<Omit<SessionInsert, 'experienceId'>> = {},
) {
  const startLocal = overrides.startLocal ?? '2026-12-01T09:00:00';
  const row = {
    id: randomUUID(),
    experienceId: experience.id,
    startLocal,
    startsAt: localToUtc(startLocal, experience.timezoneId),
    durationMinutes: 120,
    capacity: 10,
    reserved: 0,
    ...overrides,
  };
  db.insert(sessions).values(row).run();
  return row;
}

export interface BookingSpec {
  brandId: string;
  session: { id: string; experienceId: string; startLocal: string };
  status?: BookingInsert['status'];
  currency?: string;
  /** Price per participant in minor units; the booking amount is their sum unless `amountMinor` is given. */
  participants?: Array<{ firstName?: string; lastName?: string; priceTierName?: string; priceMinor?: number; cancelledAt?: string | null }>;
  amountMinor?: number;
  amountRefundedMinor?: number;
  overrides?: Partial<BookingInsert>;
}

let codeCounter = 0;

/**
 * A booking with participants, holding its places on the session as the domain would: active
 * participants of processing and confirmed bookings count in `sessions.reserved`.
 */
export function createBooking(db: Db, spec: BookingSpec) {
  const status = spec.status ?? 'confirmed';
  const people = (spec.participants ?? [{}]).map((p, i) => ({
    id: randomUUID(),
    position: i,
    firstName: p.firstName ?? `Guest${i + 1}`,
    lastName: p.lastName ?? 'Silva',
    emailAddress: null,
    phoneNumber: null,
    priceTierName: p.priceTierName ?? 'Adult',
    priceMinor: p.priceMinor ?? 4500,
    cancelledAt: p.cancelledAt ?? null,
  }));
  const amountMinor = spec.amountMinor ?? people.reduce((sum, p) => sum + p.priceMinor, 0);
  const id = randomUUID();
  const now = '2026-11-20T10:00:00.000Z';
  const row: BookingInsert = {
    id,
    brandId: spec.brandId,
    experienceId: spec.session.experienceId,
    sessionId: spec.session.id,
    sessionStartLocal: spec.session.startLocal,
    confirmationCode: `TST${String(++codeCounter).padStart(5, '0')}`,
    status,
    currency: spec.currency ?? 'EUR',
    amountMinor,
    amountRefundedMinor: spec.amountRefundedMinor ?? 0,
    pricing: {
      tiersMinor: amountMinor,
      addOns: [],
      subtotalMinor: amountMinor,
      discounts: [],
      netMinor: amountMinor,
      taxes: [],
      totalMinor: amountMinor,
    },
    paymentMethod: 'credit-card',
    purchaserId: randomUUID(),
    purchaserFirstName: people[0]?.firstName ?? 'Ana',
    purchaserLastName: people[0]?.lastName ?? 'Silva',
    purchaserEmail: 'guest@example.test',
    purchaserPhone: null,
    createdAt: now,
    updatedAt: now,
    ...spec.overrides,
  };
  db.transaction((tx) => {
    tx.insert(bookings).values(row).run();
    for (const p of people) tx.insert(participants).values({ ...p, bookingId: id }).run();
    const active = people.filter((p) => p.cancelledAt === null).length;
    if (status === 'processing' || status === 'confirmed') {
      tx.update(sessions).set({ reserved: sql`${sessions.reserved} + ${active}` }).where(eq(sessions.id, spec.session.id)).run();
    }
  });
  return { booking: row, participants: people };
}
