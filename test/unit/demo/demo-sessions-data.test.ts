import { is } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { demoIds, demoSoldOutSession, seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import * as schema from '../../../src/db/sqlite/schema/index.ts';
import type { TableName } from '../../../src/db/tables.ts';
import { freshDb } from '../../support/db.ts';

/** 28 March 2026: tomorrow is Lisbon's spring-forward day (clocks go from 01:00 to 02:00 UTC+1). */
const NOW = new Date('2026-03-28T10:00:00.000Z');
const db = await freshDb();
await seedDemoDataIfEmpty(db, NOW);
/** The demo loaded on another day, for the seeder clock's test. */
const LATER = new Date('2026-11-22T12:00:00.000Z');
const later = await freshDb();

const rows = <T = Record<string, unknown>>(sql: string, ...params: unknown[]) => db.all<T>(sql, ...params);
const one = async <T = Record<string, unknown>>(sql: string, ...params: unknown[]) => (await db.one<T>(sql, ...params))!;
/** Orders text by its bytes, as SQLite does, whatever the PostgreSQL database's collation. */
const bytes = db.engine === 'postgresql' ? ' COLLATE "C"' : '';

const { brands, experiences: exp } = demoIds;

describe('demo sessions', () => {
  it('gives every experience 60 days of sessions from the local today, at its daily times', async () => {
    // A comparison is 1/0 on SQLite and a boolean (which MIN does not take) on PostgreSQL: spelled as a number on both.
    const perExperience = await rows<{ slug: string; n: number; first: string; last: string; capacity_ok: number; duration_ok: number }>(
      `SELECT e.slug, COUNT(*) AS n, MIN(s.start_local${bytes}) AS first, MAX(s.start_local${bytes}) AS last,
         MIN(CASE WHEN s.capacity = e.max_participants_count THEN 1 ELSE 0 END) AS capacity_ok,
         MIN(CASE WHEN s.duration_minutes = e.session_duration_minutes THEN 1 ELSE 0 END) AS duration_ok
       FROM sessions s JOIN experiences e ON e.id = s.experience_id GROUP BY e.id ORDER BY e.slug${bytes}`,
    );
    expect(perExperience.map((e) => [e.slug, e.n])).toEqual([
      ['alfama-fado-night', 60],
      ['asakusa-tea-ceremony', 120],
      ['azulejo-studio-visit', 120],
      ['golden-gai-izakaya-night', 60],
      ['la-jolla-sea-cave-kayak-tour', 120],
      ['leopard-shark-kayak-snorkel', 120],
      ['lx-factory-street-art', 120],
      ['mission-bay-sunrise-paddle', 60],
      ['pastel-de-nata-workshop', 120],
      ['santos-populares-street-party', 60],
      ['sintra-day-trip', 60],
      ['sumida-fireworks-cruise', 60],
      ['tagus-sunset-sail', 120],
      ['tram-28-photo-walk', 120],
      ['tsukiji-breakfast-walk', 120],
    ]);
    for (const e of perExperience) expect([e.capacity_ok, e.duration_ok]).toEqual([1, 1]);
    const sail = perExperience.find((e) => e.slug === 'tagus-sunset-sail')!;
    expect([sail.first, sail.last]).toEqual(['2026-03-28T15:30:00', '2026-05-26T18:00:00']);
  });

  it('stores the UTC instant of each local start, across the DST change', async () => {
    const at = (startLocal: string) =>
      one('SELECT starts_at FROM sessions WHERE experience_id = ? AND start_local = ?', exp.tagusSunsetSail, startLocal);
    expect(await at('2026-03-28T18:00:00')).toEqual({ starts_at: '2026-03-28T18:00:00.000Z' });
    expect(await at('2026-03-29T18:00:00')).toEqual({ starts_at: '2026-03-29T17:00:00.000Z' });
    const tokyo = await one(
      'SELECT starts_at FROM sessions WHERE experience_id = ? AND start_local = ?',
      exp.tsukijiBreakfastWalk,
      '2026-03-29T07:00:00',
    );
    expect(tokyo).toEqual({ starts_at: '2026-03-28T22:00:00.000Z' });
  });

  it("keeps every session's reserved places equal to the active participants of its live bookings", async () => {
    // The count is compared outside the select that names it: PostgreSQL's WHERE does not see select aliases.
    const mismatches = await rows(
      `SELECT * FROM (SELECT s.id, s.reserved, (SELECT COUNT(*) FROM participants p JOIN bookings b ON b.id = p.booking_id
         WHERE b.session_id = s.id AND b.status IN ('processing', 'confirmed') AND p.cancelled_at IS NULL) AS active
       FROM sessions s) counted WHERE reserved <> active`,
    );
    expect(mismatches).toEqual([]);
    expect(await one('SELECT SUM(reserved) AS n FROM sessions')).toEqual({ n: 12 });
  });
});

describe('the sold-out sail', () => {
  const soldOut = demoSoldOutSession(NOW);

  it('is tomorrow evening in Lisbon, with no place left', async () => {
    expect(soldOut).toEqual({
      brandId: brands.lisbon,
      experienceId: exp.tagusSunsetSail,
      sessionId: expect.any(String),
      startDateTime: '2026-03-29T18:00:00',
      timezone: 'Europe/Lisbon',
    });
    const session = await one('SELECT experience_id, start_local, capacity, reserved FROM sessions WHERE id = ?', soldOut.sessionId);
    expect(session).toEqual({ experience_id: exp.tagusSunsetSail, start_local: '2026-03-29T18:00:00', capacity: 10, reserved: 10 });
  });

  it('is filled by three confirmed, paid card bookings priced from the tiers plus 6 % IVA', async () => {
    const bookings = await rows<{ confirmation_code: string; cart_confirmation_code: string }>(
      `SELECT b.purchaser_first_name || ' ' || b.purchaser_last_name AS purchaser, b.status, b.payment_method, b.currency,
         b.amount_minor, b.session_start_local, c.status AS cart, i.status AS intent, i.amount_minor AS charged,
         (SELECT COUNT(*) FROM participants p WHERE p.booking_id = b.id AND p.cancelled_at IS NULL) AS guests,
         b.confirmation_code, b.cart_confirmation_code
       FROM bookings b JOIN carts c ON c.id = b.cart_id JOIN payment_intents i ON i.id = b.payment_intent_id
       WHERE b.session_id = ? ORDER BY b.created_at`,
      soldOut.sessionId,
    );
    const common = {
      status: 'confirmed',
      payment_method: 'credit-card',
      currency: 'EUR',
      session_start_local: '2026-03-29T18:00:00',
      cart: 'paid',
      intent: 'succeeded',
    };
    // 2 adults + 2 children: 2 x 65 + 2 x 35 = 200.00 + 12.00; 2 adults: 130.00 + 7.80; 3 adults + 1 senior: 250.00 + 15.00.
    expect(bookings.map(({ confirmation_code: _, cart_confirmation_code: __, ...b }) => b)).toEqual([
      { ...common, purchaser: 'Sophie Laurent', amount_minor: 21200, charged: 21200, guests: 4 },
      { ...common, purchaser: 'James Whitaker', amount_minor: 13780, charged: 13780, guests: 2 },
      { ...common, purchaser: 'Ana Ferreira', amount_minor: 26500, charged: 26500, guests: 4 },
    ]);
    const codes = await rows<{ code: string }>(
      'SELECT confirmation_code AS code FROM bookings UNION ALL SELECT confirmation_code FROM carts',
    );
    for (const { code } of codes) expect(code).toMatch(/^[2-9A-HJKMNP-TV-Z]{8}$/);
    expect(new Set(codes.map((c) => c.code)).size).toBe(codes.length);
  });

  it('keeps the pricing breakdown of each booking', async () => {
    const pricing = await one<{ pricing: string }>(
      "SELECT pricing FROM bookings WHERE session_id = ? AND purchaser_last_name = 'Whitaker'",
      soldOut.sessionId,
    );
    expect(JSON.parse(pricing.pricing)).toEqual({
      tiersMinor: 13000,
      addOns: [],
      subtotalMinor: 13000,
      discounts: [],
      netMinor: 13000,
      taxes: [{ name: 'IVA (passenger transport)', rateBasisPoints: 600, amountMinor: 780 }],
      totalMinor: 13780,
    });
  });
});

describe("the sold-out sail's waitlist", () => {
  const soldOut = demoSoldOutSession(NOW);

  it('has a couple, then a family of three, waiting in line', async () => {
    const entries = await rows<{ purchaser: string; participants: string }>(
      `SELECT status, position, party_size, purchaser_email_key AS email, created_at, purchaser, participants
       FROM waitlist_entries WHERE session_id = ? ORDER BY position`,
      soldOut.sessionId,
    );
    expect(entries.map(({ purchaser: _, participants: __, ...e }) => e)).toEqual([
      { status: 'waiting', position: 1, party_size: 2, email: 'yuki.nakamura@example.jp', created_at: '2026-03-27T14:00:00.000Z' },
      { status: 'waiting', position: 2, party_size: 3, email: 'carla.oliveira@example.com.br', created_at: '2026-03-28T04:00:00.000Z' },
    ]);
    const [couple, family] = entries.map((e) => ({ purchaser: JSON.parse(e.purchaser), participants: JSON.parse(e.participants) }));
    expect(family!.participants.map((p: { firstName: string; priceTierName: string }) => `${p.firstName} ${p.priceTierName}`)).toEqual([
      'Carla Adult',
      'Pedro Adult',
      'Lucas Child',
    ]);
    // Answers as joining stores them: every shown question of the sail, required ones answered.
    const prompts = (answers: Array<{ question: { prompt: string }; answer: unknown }>) =>
      answers.map((a) => [a.question.prompt, a.answer]);
    expect(prompts(couple!.purchaser.answers)).toEqual([
      ['Mobile number the skipper can reach you on during the day', [{ value: '+81 90 3412 7788' }]],
      ['Are you celebrating anything on board?', [{ value: 'Anniversary', key: expect.any(String) }]],
      ['Please accept the sailing safety rules', [{ value: true }]],
    ]);
    expect(prompts(family!.participants[2].answers)).toEqual([
      ['Full name as on the passport or ID card (for the harbour master’s passenger list)', [{ value: 'Lucas Oliveira' }]],
      ['Can this guest swim?', [{ value: 'No', key: expect.any(String) }]],
      ['Dietary requirements for the onboard snacks', [{ value: null }]],
    ]);
    expect(await one('SELECT held_for_offers AS held FROM sessions WHERE id = ?', soldOut.sessionId)).toEqual({ held: 0 });
  });
});

describe('waitlists, add-ons, coupons and credit codes', () => {
  it('gives each Lisbon and Tokyo experience a waitlist, and Sunset Kayak none', async () => {
    const perBrand = await rows(
      `SELECT e.brand_id AS brand, COUNT(e.id) AS experiences, COUNT(w.id) AS waitlists
       FROM experiences e LEFT JOIN waitlists w ON w.experience_id = e.id GROUP BY e.brand_id ORDER BY e.brand_id${bytes}`,
    );
    expect(perBrand).toEqual([
      { brand: brands.lisbon, experiences: 8, waitlists: 8 },
      { brand: brands.tokyo, experiences: 4, waitlists: 4 },
      { brand: brands.kayak, experiences: 3, waitlists: 0 },
    ]);
  });

  it('sells a photo package and an espumante upgrade with the sail', async () => {
    expect(
      await rows('SELECT name, price_minor AS price FROM add_ons WHERE experience_id = ? ORDER BY position', exp.tagusSunsetSail),
    ).toEqual([
      { name: 'Photo package', price: 2500 },
      { name: 'Espumante upgrade', price: 1200 },
    ]);
  });

  it('has percentage and fixed-amount coupons per brand, and credit codes with balances', async () => {
    // Through the typed rows (ordered by bytes on both engines): `active` is a boolean there on both.
    const coupons = (await db.rows('coupons', {}, ['brandId', 'code'])).map((c) => ({
      brand: c.brandId,
      code: c.code,
      percent: c.percentOffBasisPoints,
      amount: c.amountOffMinor,
      active: c.active,
    }));
    expect(coupons).toEqual([
      { brand: brands.lisbon, code: 'LISBON10', percent: 1000, amount: null, active: true },
      { brand: brands.lisbon, code: 'SUMMER25', percent: 2500, amount: null, active: false },
      { brand: brands.lisbon, code: 'WELCOME5', percent: null, amount: 500, active: true },
      { brand: brands.tokyo, code: 'SAKURA15', percent: 1500, amount: null, active: true },
      { brand: brands.tokyo, code: 'TOKYO1000', percent: null, amount: 1000, active: true },
      { brand: brands.kayak, code: 'PADDLE20', percent: 2000, amount: null, active: true },
    ]);
    const credit = `SELECT brand_id AS brand, code, balance_minor AS balance FROM credit_codes ORDER BY brand_id${bytes}, code${bytes}`;
    expect(await rows(credit)).toEqual([
      { brand: brands.lisbon, code: 'GIFT-LISBON-50', balance: 5000 },
      { brand: brands.lisbon, code: 'GOODWILL-LX-20', balance: 2000 },
      { brand: brands.tokyo, code: 'GIFT-TOKYO-10000', balance: 10000 },
    ]);
  });
});

describe('the seeder clock', () => {
  it('moves only sessions, the demo bookings and waitlist entries and their events; every other row is the same on another day', async () => {
    await seedDemoDataIfEmpty(later, LATER);
    const clocked = new Set(['sessions', 'bookings', 'participants', 'carts', 'paymentIntents', 'waitlistEntries', 'events']);
    const tables = Object.entries(schema)
      .filter(([, value]) => is(value, SQLiteTable))
      .map(([name]) => name as TableName);
    // Each table's rows in the order of its primary key.
    for (const name of tables.filter((t) => !clocked.has(t))) {
      expect(await later.rows(name), name).toEqual(await db.rows(name));
    }
    const soldOut = demoSoldOutSession(LATER);
    expect(soldOut.startDateTime).toBe('2026-11-23T18:00:00');
    expect(await later.all('SELECT reserved, starts_at FROM sessions WHERE id = ?', soldOut.sessionId)).toEqual([
      { reserved: 10, starts_at: '2026-11-23T18:00:00.000Z' },
    ]);
  });
});
