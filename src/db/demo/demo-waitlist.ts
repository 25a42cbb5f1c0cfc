/**
 * Two parties waiting for the sold-out sunset sail (see demo-bookings.ts), so freeing places there
 * shows an offer at once. Their answers satisfy the sail's questions and are validated exactly as
 * joining validates them; each entry has the `waitlist.entry_created` event joining records.
 */
import { toQuestionSnapshot, type QuestionSnapshot } from '../../domain/questions/questions.ts';
import { recordEntryEvent } from '../../domain/waitlists/offers.ts';
import type { Stores } from '../../domain/shared/database.ts';
import type { NewRow, Seeder } from '../tables.ts';
import { waitlistId } from './commerce.ts';
import { demoSoldOutSession } from './demo-bookings.ts';
import { demoEventIds, demoId } from './ids.ts';
import { sailAnswers, type SailGuest } from './sail-answers.ts';

interface WaitingGuest extends SailGuest {
  tier: string;
}

interface DemoEntry {
  key: string;
  email: string;
  phone: string;
  occasion: string;
  guests: WaitingGuest[];
  joinedHoursAgo: number;
}

/** In line order: a couple, then a family of three. */
const demoEntries: DemoEntry[] = [
  {
    key: 'nakamura-couple',
    email: 'yuki.nakamura@example.jp',
    phone: '+81 90 3412 7788',
    occasion: 'Anniversary',
    guests: [
      { firstName: 'Yuki', lastName: 'Nakamura', tier: 'Adult', canSwim: 'Yes' },
      { firstName: 'Kenji', lastName: 'Nakamura', tier: 'Adult', canSwim: 'Yes' },
    ],
    joinedHoursAgo: 20,
  },
  {
    key: 'oliveira-family',
    email: 'carla.oliveira@example.com.br',
    phone: '+55 11 98765 4321',
    occasion: 'No special occasion',
    guests: [
      { firstName: 'Carla', lastName: 'Oliveira', tier: 'Adult', canSwim: 'Yes' },
      { firstName: 'Pedro', lastName: 'Oliveira', tier: 'Adult', canSwim: 'Yes' },
      { firstName: 'Lucas', lastName: 'Oliveira', tier: 'Child', canSwim: 'No' },
    ],
    joinedHoursAgo: 6,
  },
];

/** The entry as joining stores it, its answers validated exactly as joining validates them. */
function entryRow(entry: DemoEntry, position: number, questions: readonly QuestionSnapshot[], now: Date): NewRow<'waitlistEntries'> {
  const soldOut = demoSoldOutSession(now);
  const answers = sailAnswers(questions, { phone: entry.phone, occasion: entry.occasion, guests: entry.guests });
  const [purchaser] = entry.guests;
  const at = new Date(now.getTime() - entry.joinedHoursAgo * 3_600_000).toISOString();
  return {
    id: demoId('lisbon', 'waitlist-entry', entry.key),
    waitlistId: waitlistId('lisbon', 'tagus-sunset-sail'),
    sessionId: soldOut.sessionId,
    brandId: soldOut.brandId,
    status: 'waiting',
    position,
    partySize: entry.guests.length,
    purchaser: {
      firstName: purchaser!.firstName,
      lastName: purchaser!.lastName,
      emailAddress: entry.email,
      phoneNumber: entry.phone,
      answers: answers.purchaser,
    },
    purchaserEmailKey: entry.email.toLowerCase(),
    participants: entry.guests.map((g, j) => ({
      firstName: g.firstName,
      lastName: g.lastName,
      emailAddress: null,
      phoneNumber: null,
      priceTierName: g.tier,
      answers: answers.participants[j] ?? [],
    })),
    createdAt: at,
    updatedAt: at,
  };
}

export async function seedDemoWaitlist(seed: Seeder, tx: Stores, now: Date): Promise<void> {
  const { experienceId } = demoSoldOutSession(now);
  const questions = (await tx.questions.activeQuestionsOfExperiences([experienceId])).map(({ question, assignment }) =>
    toQuestionSnapshot(question, assignment),
  );
  for (const [index, entry] of demoEntries.entries()) {
    const row = entryRow(entry, index + 1, questions, now);
    await seed.insert('waitlistEntries', row);
    // As joining records it, after the bookings' events: the entries joined once the sail sold out.
    await recordEntryEvent(tx, 'waitlist.entry_created', row.id, row.createdAt, demoEventIds('lisbon', entry.key));
  }
}
