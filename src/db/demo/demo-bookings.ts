/**
 * Confirmed demo bookings, dated from the seeder's "today": they sell out tomorrow evening's sunset
 * sail (so its waitlist has a reason to exist) and take a couple of places on tomorrow's tram walk.
 * Each booking comes from a paid cart with a succeeded sandbox payment intent, as checkout leaves it,
 * and has the events a card checkout and its payment confirmation record (see recordCheckoutEvents).
 */
import { createHash } from 'node:crypto';
import { recordBookingEvent } from '../../domain/bookings/booking-events.ts';
import { confirmationCodeFromBytes } from '../../domain/checkout/confirmation-codes.ts';
import type { Stores } from '../../domain/shared/database.ts';
import type { PricingBreakdown } from '../../domain/shared/json-types.ts';
import { toQuestionSnapshot } from '../../domain/questions/questions.ts';
import type { Seeder } from '../tables.ts';
import { sailAnswers, type SailGuest } from './sail-answers.ts';
import type { BrandCatalog, ExperienceSpec } from './catalog-types.ts';
import { demoEventIds, demoId, demoIds, type DemoBrandKey } from './ids.ts';
import { lisbonCatalog } from './lisbon.ts';
import { localDate, sessionId } from './sessions.ts';

/** A confirmation code in checkout's alphabet, derived from `name`, so every run gives the same codes. */
export function demoConfirmationCode(name: string): string {
  return confirmationCodeFromBytes(createHash('sha256').update(`tessera-demo/code/${name}`).digest());
}

interface Guest extends Omit<SailGuest, 'canSwim'> {
  tier: string;
  /** The sail asks each guest; other experiences do not. */
  canSwim?: SailGuest['canSwim'];
}

interface DemoBooking {
  key: string;
  experience: string;
  /** Local start time (HH:MM) tomorrow, in the experience's zone. */
  time: string;
  /** The first guest is the purchaser. */
  guests: Guest[];
  email: string;
  phone: string;
  /** The purchaser's answer to the sail's occasion question. */
  occasion?: string;
  /** How long before the seeder's "now" the guest booked. */
  bookedHoursAgo: number;
}

const SOLD_OUT = { experience: 'tagus-sunset-sail', time: '18:00' };

/** 4 + 2 + 4 guests: exactly the sail's ten places. */
const demoBookings: DemoBooking[] = [
  {
    key: 'laurent-family',
    occasion: 'Birthday',
    ...SOLD_OUT,
    guests: [
      { firstName: 'Sophie', lastName: 'Laurent', tier: 'Adult', canSwim: 'Yes' },
      { firstName: 'Antoine', lastName: 'Laurent', tier: 'Adult', canSwim: 'Yes' },
      { firstName: 'Camille', lastName: 'Laurent', tier: 'Child', canSwim: 'No' },
      { firstName: 'Jules', lastName: 'Laurent', tier: 'Child', canSwim: 'No' },
    ],
    email: 'sophie.laurent@example.com',
    phone: '+33 6 12 48 73 90',
    bookedHoursAgo: 240,
  },
  {
    key: 'whitaker-couple',
    occasion: 'Anniversary',
    ...SOLD_OUT,
    guests: [
      { firstName: 'James', lastName: 'Whitaker', tier: 'Adult', canSwim: 'Yes' },
      { firstName: 'Olivia', lastName: 'Whitaker', tier: 'Adult', canSwim: 'Yes' },
    ],
    email: 'james.whitaker@example.co.uk',
    phone: '+44 7700 900481',
    bookedHoursAgo: 96,
  },
  {
    key: 'ferreira-friends',
    occasion: 'No special occasion',
    ...SOLD_OUT,
    guests: [
      { firstName: 'Ana', lastName: 'Ferreira', tier: 'Adult', canSwim: 'Yes' },
      { firstName: 'Miguel', lastName: 'Ferreira', tier: 'Senior', canSwim: 'Yes' },
      { firstName: 'Beatriz', lastName: 'Lopes', tier: 'Adult', canSwim: 'Yes' },
      { firstName: 'Tiago', lastName: 'Lopes', tier: 'Adult', canSwim: 'Yes' },
    ],
    email: 'ana.ferreira@example.pt',
    phone: '+351 917 334 208',
    bookedHoursAgo: 30,
  },
  {
    key: 'becker-tram',
    experience: 'tram-28-photo-walk',
    time: '09:30',
    guests: [
      { firstName: 'Hannah', lastName: 'Becker', tier: 'Adult' },
      { firstName: 'Jonas', lastName: 'Becker', tier: 'Adult' },
    ],
    email: 'hannah.becker@example.de',
    phone: '+49 151 2345 6789',
    bookedHoursAgo: 52,
  },
];

/** The sunset sail tomorrow at 18:00 (Lisbon): sold out by the demo bookings. */
export function demoSoldOutSession(now: Date = new Date()) {
  const timezone = 'Europe/Lisbon';
  const startDateTime = `${localDate(now, timezone, 1)}T${SOLD_OUT.time}:00`;
  return {
    brandId: demoIds.brands.lisbon,
    experienceId: demoIds.experiences.tagusSunsetSail,
    sessionId: sessionId('lisbon', SOLD_OUT.experience, startDateTime),
    startDateTime,
    timezone,
  };
}

/** Tiers, then each tax on the net amount rounded half up to a minor unit (as checkout computes it). */
function pricingOf(spec: ExperienceSpec, guests: Guest[]): PricingBreakdown {
  const prices = new Map(spec.priceTiers);
  const tiersMinor = guests.reduce((sum, g) => sum + prices.get(g.tier)!, 0);
  const taxes = spec.taxes.map(([name, rateBasisPoints]) => ({
    name,
    rateBasisPoints,
    amountMinor: Math.floor((tiersMinor * rateBasisPoints + 5000) / 10000),
  }));
  const totalMinor = tiersMinor + taxes.reduce((sum, t) => sum + t.amountMinor, 0);
  return { tiersMinor, addOns: [], subtotalMinor: tiersMinor, discounts: [], netMinor: tiersMinor, taxes, totalMinor };
}

/** What the rows of one demo booking share: its session, price, instant and ids. */
interface PlannedBooking {
  demo: DemoBooking;
  brand: DemoBrandKey;
  brandId: string;
  currency: string;
  spec: ExperienceSpec;
  startLocal: string;
  sessionId: string;
  pricing: PricingBreakdown;
  /** When the guest booked (and paid). */
  at: string;
  id: (table: string) => string;
  participantId: (index: number) => string;
  cartCode: string;
}

function planBooking(catalog: BrandCatalog, currency: string, demo: DemoBooking, now: Date): PlannedBooking {
  const brand: DemoBrandKey = catalog.brand;
  const spec = catalog.experiences.find((e) => e.slug === demo.experience)!;
  const startLocal = `${localDate(now, spec.location.timezoneId, 1)}T${demo.time}:00`;
  return {
    demo,
    brand,
    brandId: catalog.brandId,
    currency,
    spec,
    startLocal,
    sessionId: sessionId(brand, demo.experience, startLocal),
    pricing: pricingOf(spec, demo.guests),
    at: new Date(now.getTime() - demo.bookedHoursAgo * 3_600_000).toISOString(),
    id: (table) => demoId(brand, table, demo.key),
    participantId: (index) => demoId(brand, 'participant', `${demo.key}/${index + 1}`),
    cartCode: demoConfirmationCode(`cart/${demo.key}`),
  };
}

/** The paid cart and its succeeded sandbox payment intent. */
async function insertPayment(seed: Seeder, plan: PlannedBooking): Promise<void> {
  const { demo, id, at } = plan;
  await seed.insert('carts', {
    id: id('cart'),
    brandId: plan.brandId,
    confirmationCode: plan.cartCode,
    status: 'paid',
    createdAt: at,
    updatedAt: at,
  });
  const reference = `pi_sbx_demo_${createHash('sha256').update(demo.key).digest('hex').slice(0, 24)}`;
  await seed.insert('paymentIntents', {
    id: id('payment-intent'),
    attempt: 1,
    brandId: plan.brandId,
    cartId: id('cart'),
    processor: 'sandbox',
    processorReference: reference,
    // The intent is already paid: its client secret is never handed out, only a hash is kept.
    secretHash: createHash('sha256').update(`${reference}_secret_demo`).digest('hex'),
    amountMinor: plan.pricing.totalMinor,
    currency: plan.currency,
    status: 'succeeded',
    createdAt: at,
    updatedAt: at,
  });
}

async function insertBookingRow(seed: Seeder, plan: PlannedBooking): Promise<void> {
  const { demo, id, at } = plan;
  const [purchaser] = demo.guests;
  await seed.insert('bookings', {
    id: id('booking'),
    brandId: plan.brandId,
    cartId: id('cart'),
    experienceId: demoId(plan.brand, 'experience', demo.experience),
    sessionId: plan.sessionId,
    sessionStartLocal: plan.startLocal,
    paymentIntentId: id('payment-intent'),
    confirmationCode: demoConfirmationCode(`booking/${demo.key}`),
    cartConfirmationCode: plan.cartCode,
    // Processing until recordCheckoutEvents confirms it, so booking.created shows it as checkout wrote it.
    status: 'processing',
    currency: plan.currency,
    amountMinor: plan.pricing.totalMinor,
    pricing: plan.pricing,
    paymentMethod: 'credit-card',
    purchaserId: id('purchaser'),
    purchaserFirstName: purchaser!.firstName,
    purchaserLastName: purchaser!.lastName,
    purchaserEmail: demo.email,
    purchaserPhone: demo.phone,
    createdAt: at,
    updatedAt: at,
  });
}

async function insertParticipants(seed: Seeder, plan: PlannedBooking): Promise<void> {
  const { demo } = plan;
  const prices = new Map(plan.spec.priceTiers);
  await seed.insert(
    'participants',
    demo.guests.map((g, i) => ({
      id: plan.participantId(i),
      bookingId: plan.id('booking'),
      position: i,
      firstName: g.firstName,
      lastName: g.lastName,
      emailAddress: i === 0 ? demo.email : null,
      phoneNumber: i === 0 ? demo.phone : null,
      priceTierName: g.tier,
      priceMinor: prices.get(g.tier)!,
    })),
  );
}

/** Active participants of confirmed bookings hold places: keep `reserved` in step, as checkout does. */
async function reservePlaces(seed: Seeder, sessionId: string, count: number): Promise<void> {
  const session = await seed.row('sessions', { id: sessionId });
  await seed.update('sessions', { id: sessionId }, { reserved: session.reserved + count });
}

async function insertBooking(seed: Seeder, tx: Stores, plan: PlannedBooking): Promise<void> {
  await insertPayment(seed, plan);
  await insertBookingRow(seed, plan);
  await insertParticipants(seed, plan);
  await insertAnswers(seed, tx, plan);
  await reservePlaces(seed, plan.sessionId, plan.demo.guests.length);
  await recordCheckoutEvents(seed, tx, plan);
}

/**
 * The booking's answers to its experience's questions, validated and stored as checkout stores them: the
 * purchaser's first, then each participant's, numbered in that order, each with its question's snapshot.
 */
async function insertAnswers(seed: Seeder, tx: Stores, plan: PlannedBooking): Promise<void> {
  const { demo } = plan;
  const experienceId = demoId('lisbon', 'experience', demo.experience);
  const questions = (await tx.questions.activeQuestionsOfExperiences([experienceId])).map(({ question, assignment }) =>
    toQuestionSnapshot(question, assignment),
  );
  if (questions.length === 0) return;
  const guests = demo.guests.map((g) => ({ ...g, canSwim: g.canSwim! }));
  const validated = sailAnswers(questions, { phone: demo.phone, occasion: demo.occasion!, guests });
  const groups = [
    { participantId: null, answers: validated.purchaser },
    ...validated.participants.map((list, i) => ({ participantId: plan.participantId(i), answers: list })),
  ];
  let position = 0;
  const rows = groups.flatMap((group) =>
    group.answers.map((stored) => ({
      id: demoId('lisbon', 'answer', `${demo.key}/${position}`),
      bookingId: plan.id('booking'),
      participantId: group.participantId,
      question: stored.question,
      answer: stored.answer,
      position: position++,
    })),
  );
  if (rows.length > 0) await seed.insert('answers', rows);
}

/**
 * What a card checkout and the confirmation of its payment record, with the domain's own function, so
 * each payload is the booking as the API showed it then: `booking.created` while it is processing, then
 * `booking.confirmed` once it is confirmed. Both at the booking's time (the demo's payment settles at once).
 */
async function recordCheckoutEvents(seed: Seeder, tx: Stores, plan: PlannedBooking): Promise<void> {
  const { at } = plan;
  const bookingId = plan.id('booking');
  const eventId = demoEventIds(plan.brand, plan.demo.key);
  await recordBookingEvent(tx, 'booking.created', bookingId, at, eventId);
  await seed.update('bookings', { id: bookingId }, { status: 'confirmed', updatedAt: at });
  await recordBookingEvent(tx, 'booking.confirmed', bookingId, at, eventId);
}

/** `seed` and `tx` belong to one unit of work: rows written by hand, events by the domain. */
export async function seedDemoBookings(seed: Seeder, tx: Stores, now: Date): Promise<void> {
  // In the order they were booked: the events feed (in recording order) then reads in time order.
  const byBookingTime = [...demoBookings].sort((a, b) => b.bookedHoursAgo - a.bookedHoursAgo);
  for (const demo of byBookingTime) await insertBooking(seed, tx, planBooking(lisbonCatalog, 'EUR', demo, now));
}
