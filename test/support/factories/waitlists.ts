import { randomUUID } from 'node:crypto';
import type { Db } from '../../../src/db/client.ts';
import { sessions, waitlistEntries } from '../../../src/db/schema.ts';
import { eq, sql } from 'drizzle-orm';

type EntryInsert = typeof waitlistEntries.$inferInsert;

export interface EntrySpec {
  waitlist: { id: string };
  session: { id: string };
  brandId: string;
  position: number;
  partySize?: number;
  email?: string;
  status?: EntryInsert['status'];
  offerExpiresAt?: string | null;
}

/**
 * A waitlist entry as joining leaves it (no answers); an `offered` one also holds its places on the
 * session, as offers do.
 */
export function createWaitlistEntry(db: Db, spec: EntrySpec) {
  const partySize = spec.partySize ?? 1;
  const email = spec.email ?? `guest-${randomUUID().slice(0, 8)}@example.test`;
  const status = spec.status ?? 'waiting';
  const at = '2026-11-20T10:00:00.000Z';
  const row: EntryInsert = {
    id: randomUUID(),
    waitlistId: spec.waitlist.id,
    sessionId: spec.session.id,
    brandId: spec.brandId,
    status,
    position: spec.position,
    partySize,
    purchaser: { firstName: 'Rita', lastName: 'Lobo', emailAddress: email, phoneNumber: null, answers: [] },
    purchaserEmailKey: email.toLowerCase(),
    participants: Array.from({ length: partySize }, (_, i) => ({
      firstName: `Guest${i + 1}`,
      lastName: 'Lobo',
      emailAddress: null,
      phoneNumber: null,
      priceTierName: 'Adult',
      answers: [],
    })),
    createdAt: at,
    updatedAt: at,
    offeredAt: status === 'offered' ? at : null,
    offerExpiresAt: spec.offerExpiresAt ?? null,
  };
  db.transaction((tx) => {
    tx.insert(waitlistEntries).values(row).run();
    if (status === 'offered') {
      tx.update(sessions).set({ heldForOffers: sql`${sessions.heldForOffers} + ${partySize}` }).where(eq(sessions.id, spec.session.id)).run();
    }
  });
  return row;
}
