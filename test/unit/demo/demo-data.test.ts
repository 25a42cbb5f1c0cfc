import { is } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../../src/auth/authenticate.ts';
import { hashSecret } from '../../../src/domain/access/secrets.ts';
import { demoIds } from '../../../src/db/demo/ids.ts';
import { demoKeys, seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import * as schema from '../../../src/db/sqlite/schema/index.ts';
import type { TableName } from '../../../src/db/tables.ts';
import { validateAnswers } from '../../../src/domain/questions/answers.ts';
import { customQuestionsByExperience } from '../../../src/domain/questions/questions.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';
import { freshDb, type TestDb } from '../../support/db.ts';

/** The seeder's "today": the sessions start on 28 March 2026, the eve of Lisbon's spring-forward night. */
const NOW = new Date('2026-03-28T10:00:00.000Z');
const db = await freshDb();
const loaded = await seedDemoDataIfEmpty(db, NOW);
/** A database holding someone else's brand, and one the demo is loaded into again: each test file's own. */
const other = await freshDb();
const again = await freshDb();

const rows = <T = Record<string, unknown>>(sql: string, ...params: unknown[]) => db.all<T>(sql, ...params);
const one = async <T = Record<string, unknown>>(sql: string, ...params: unknown[]) => (await db.one<T>(sql, ...params))!;
/** Orders text by its bytes, as SQLite does, whatever the PostgreSQL database's collation. */
const bytes = db.engine === 'postgresql' ? ' COLLATE "C"' : '';

const { brands, experiences: exp, listings: lst } = demoIds;

/** Every table, by the name the seeders know it by (both engines have the same ones). */
const tableNames = Object.entries(schema)
  .filter(([, value]) => is(value, SQLiteTable))
  .map(([name]) => name as TableName);

/** Every row of every table, each table's by its primary key. */
async function dump(database: TestDb): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const name of tableNames) tables[name] = await database.rows(name);
  return tables;
}

const counts = async (database: TestDb) => Object.fromEntries(Object.entries(await dump(database)).map(([name, r]) => [name, r.length]));

describe('loading', () => {
  it('loads into an empty database once; a second call changes nothing', async () => {
    expect(loaded).toBe(true);
    const before = await counts(db);
    expect(before.brands).toBe(3);
    expect(await seedDemoDataIfEmpty(db, NOW)).toBe(false);
    expect(await counts(db)).toEqual(before);
  });

  it('leaves a database that already has a brand alone', async () => {
    await createBrand(other, { name: 'Someone Else' });
    expect(await seedDemoDataIfEmpty(other)).toBe(false);
    expect(await other.all('SELECT name FROM brands')).toEqual([{ name: 'Someone Else' }]);
    expect(await other.all('SELECT id FROM listings')).toEqual([]);
  });

  it('produces identical rows, ids included, on every run', async () => {
    expect(await seedDemoDataIfEmpty(again, NOW)).toBe(true);
    expect(await dump(again)).toEqual(await dump(db));
  });
});

describe('organization, brands and keys', () => {
  it('has the contract ids, names, currencies and membership', async () => {
    expect(await rows('SELECT id, name FROM organizations')).toEqual([{ id: demoIds.organization, name: 'Harbor Collection' }]);
    expect(await rows(`SELECT id, name, currency, language, organization_id AS org FROM brands ORDER BY id${bytes}`)).toEqual([
      { id: brands.lisbon, name: 'Harbor Lisbon', currency: 'EUR', language: 'en', org: demoIds.organization },
      { id: brands.tokyo, name: 'Harbor Tokyo', currency: 'JPY', language: 'en', org: demoIds.organization },
      { id: brands.kayak, name: 'Sunset Kayak Co', currency: 'USD', language: 'en', org: null },
    ]);
    expect(brands).toEqual({
      lisbon: '6f1c0a52-3d4e-4c1a-9b7e-0b0000000001',
      tokyo: '6f1c0a52-3d4e-4c1a-9b7e-0b0000000002',
      kayak: '6f1c0a52-3d4e-4c1a-9b7e-0b0000000003',
    });
  });

  it.each([
    ['sk_test_harbor_org_demo', 'organization', [brands.lisbon, brands.tokyo]],
    ['sk_test_lisbon_demo', 'brand', [brands.lisbon]],
    ['sk_test_tokyo_demo', 'brand', [brands.tokyo]],
    ['sk_test_kayak_demo', 'brand', [brands.kayak]],
    ['pk_test_lisbon_demo', 'publishable', [brands.lisbon]],
  ])('%s authenticates as a %s key for its brands', async (secret, kind, brandIds) => {
    const principal = (await authenticate(db.database, { authorization: `Bearer ${secret}` }))!;
    expect(principal.kind).toBe(kind);
    expect([...principal.brandIds].sort()).toEqual(brandIds);
    expect(principal.organizationId).toBe(kind === 'organization' ? demoIds.organization : null);
  });

  it('lists the keys start-up prints and stores only their hashes and prefixes', async () => {
    expect(demoKeys.map((k) => k.secret)).toEqual([
      'sk_test_harbor_org_demo',
      'sk_test_lisbon_demo',
      'sk_test_tokyo_demo',
      'sk_test_kayak_demo',
      'pk_test_lisbon_demo',
    ]);
    // The keys share one creation time and have hashed ids: no column keeps the order they were written
    // in, so both sides are compared in the order of their (distinct) prefixes.
    const byPrefix = (keys: Array<{ secret_hash: string; prefix: string }>) =>
      [...keys].sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0));
    const stored = await rows<{ secret_hash: string; prefix: string }>('SELECT secret_hash, prefix FROM api_keys');
    expect(byPrefix(stored)).toEqual(byPrefix(demoKeys.map((k) => ({ secret_hash: hashSecret(k.secret), prefix: k.secret.slice(0, 12) }))));
  });
});

const specFlags = new Set(
  (
    'reviews exclusiveExperiences experienceComments customBookingEmailMessage smsNotifications enhancedHostCommission ' +
    'priceTiers shoppingCart customQuestions enhancedNotifications emailCustomization conditionalPricing unlistedExperience ' +
    'check-in inAppMessaging backendBooking emailDnsSettings aiCuration flexibleDuration newSessionUi creditCard ' +
    'guestMicroSurvey enableWalletsPayment roomMemberCharge unlimitedHost experienceListingType ticketScanning seatChart ' +
    'apiAccess enablePromoter bypassCTABlock enableTranslations payUponArrival enableBookingSurcharge enableRescheduleBookings ' +
    'enableHideAddToCartButton enableNewLandingPage autoUnpublishListingsWithoutAvailability enableCompoundTaxCalculation'
  ).split(' '),
);

describe.each([
  ['lisbon', brands.lisbon, 'integrations:google_analytics', 3, 'Europe/Lisbon'],
  ['tokyo', brands.tokyo, 'integrations:line_messaging', 2, 'Asia/Tokyo'],
  ['kayak', brands.kayak, 'integrations:mailchimp', 2, 'America/Los_Angeles'],
])('brand %s', (slug, brandId, integration, hostCount, zone) => {
  const brand = () =>
    one<{ features_active: string; design_element: string; cancellation_policy_id: string; reschedule_policy_id: string }>(
      'SELECT * FROM brands WHERE id = ?',
      brandId,
    );

  it('has spec feature flags, the core ones and one integration flag', async () => {
    const flags: string[] = JSON.parse((await brand()).features_active);
    expect(flags).toEqual(expect.arrayContaining(['reviews', 'customQuestions', 'priceTiers', 'shoppingCart']));
    expect(flags.filter((f) => f.startsWith('integrations:'))).toEqual([integration]);
    expect(flags.filter((f) => !f.startsWith('integrations:') && !specFlags.has(f))).toEqual([]);
  });

  it('references its own cancellation and reschedule policies, and brand images stored as media', async () => {
    const b = await brand();
    expect(await one('SELECT brand_id FROM cancellation_policies WHERE id = ?', b.cancellation_policy_id)).toEqual({ brand_id: brandId });
    expect(await one('SELECT brand_id FROM reschedule_policies WHERE id = ?', b.reschedule_policy_id)).toEqual({ brand_id: brandId });
    const design = JSON.parse(b.design_element);
    expect(design.logo.uri.original).toBe(`https://media.tessera-demo.com/${slug}/logo-original.png`);
    expect(await one('SELECT brand_id FROM media WHERE id = ?', design.logoId)).toEqual({ brand_id: brandId });
  });

  it('has hosts with profile pictures in both renditions', async () => {
    const hosts = await rows<{ profile_picture: string }>('SELECT profile_picture FROM hosts WHERE brand_id = ?', brandId);
    expect(hosts).toHaveLength(hostCount);
    for (const h of hosts) expect(Object.keys(JSON.parse(h.profile_picture).uri)).toEqual(['original', '480w']);
  });

  it('stores every picture with an original and a 480w rendition on the demo CDN', async () => {
    const images = await rows<{ renditions: string }>("SELECT renditions FROM media WHERE brand_id = ? AND type = 'image'", brandId);
    for (const m of images) {
      const r: Array<{ resolution: string; url: string }> = JSON.parse(m.renditions);
      expect(r.map((x) => x.resolution)).toEqual(['original', '480w']);
      expect(r[0]!.url).toMatch(new RegExp(`^https://media\\.tessera-demo\\.com/${slug}/[a-z0-9/-]+-original\\.(jpg|png)$`));
    }
  });

  it('gives every experience its zone, one cover, price tiers and a tax', async () => {
    const list = await rows<{ id: string; timezone_id: string }>('SELECT id, timezone_id FROM experiences WHERE brand_id = ?', brandId);
    for (const e of list) {
      expect(e.timezone_id).toBe(zone);
      expect(await one("SELECT COUNT(*) AS n FROM experience_media WHERE experience_id = ? AND role = 'cover'", e.id)).toEqual({ n: 1 });
      // A comparison is 1/0 on SQLite and a boolean on PostgreSQL: spelled as a number on both.
      expect(await one('SELECT CASE WHEN COUNT(*) > 0 THEN 1 ELSE 0 END AS ok FROM price_tiers WHERE experience_id = ?', e.id)).toEqual({
        ok: 1,
      });
      expect(await one('SELECT COUNT(*) AS n FROM taxes WHERE experience_id = ?', e.id)).toEqual({ n: 1 });
    }
  });

  it('points experience listings at their experience, with published content, media and a cover first', async () => {
    const list = await rows<{ id: string; kind: string; experience_id: string | null }>(
      'SELECT * FROM listings WHERE brand_id = ?',
      brandId,
    );
    for (const l of list) {
      if (l.kind === 'experience') expect(l.experience_id).not.toBeNull();
      const content = await one<{ slug: string; price_per_type: string }>(
        "SELECT * FROM listing_contents WHERE listing_id = ? AND version = 'published'",
        l.id,
      );
      expect(content.slug).toMatch(/^[a-z0-9-]+$/);
      expect(content.price_per_type).toMatch(/^per /);
      expect(await rows('SELECT kind FROM listing_media WHERE listing_id = ? ORDER BY position LIMIT 1', l.id)).toEqual([
        { kind: 'cover' },
      ]);
    }
  });
});

describe('catalog content', () => {
  it('prices in minor units of each currency and taxes in basis points', async () => {
    const tiers = (id: string) => rows('SELECT name, price_minor AS price FROM price_tiers WHERE experience_id = ? ORDER BY position', id);
    expect(await tiers(exp.tram28PhotoWalk)).toEqual([
      { name: 'Adult', price: 4500 },
      { name: 'Child', price: 2500 },
      { name: 'Senior', price: 3800 },
    ]);
    expect(await tiers(exp.asakusaTeaCeremony)).toEqual([
      { name: 'Adult', price: 8000 },
      { name: 'Child', price: 4000 },
      { name: 'Senior', price: 7000 },
    ]);
    expect(await tiers(exp.seaCaveKayakTour)).toEqual([
      { name: 'Adult', price: 7900 },
      { name: 'Child (6-12)', price: 5900 },
    ]);
    const tax = (id: string) => one('SELECT name, rate_basis_points AS rate FROM taxes WHERE experience_id = ?', id);
    expect(await tax(exp.tram28PhotoWalk)).toEqual({ name: 'IVA', rate: 2300 });
    expect(await tax(exp.tagusSunsetSail)).toEqual({ name: 'IVA (passenger transport)', rate: 600 });
    expect(await tax(exp.tsukijiBreakfastWalk)).toEqual({ name: 'Consumption tax', rate: 1000 });
  });

  it('has experience, event and resource listings; events carry their dates', async () => {
    // GROUP BY, not DISTINCT: PostgreSQL orders a DISTINCT list only by the selected column itself, not by it collated.
    const kinds = await rows(`SELECT kind FROM listings GROUP BY kind ORDER BY kind${bytes}`);
    expect(kinds).toEqual([{ kind: 'event' }, { kind: 'experience' }, { kind: 'resource' }]);
    // `end` is a reserved word in PostgreSQL: quoted.
    const events = `SELECT id, event_start_date AS start, event_end_date AS "end" FROM listings WHERE kind = 'event' ORDER BY event_start_date${bytes}`;
    expect(await rows(events)).toEqual([
      { id: lst.santosPopularesStreetParty, start: '2026-06-12', end: '2026-06-13' },
      { id: lst.sumidaFireworksCruise, start: '2026-07-25', end: '2026-07-25' },
    ]);
    expect(await one('SELECT kind, experience_id FROM listings WHERE id = ?', lst.singleKayakRental)).toEqual({
      kind: 'resource',
      experience_id: null,
    });
  });

  it("orders Lisbon's featured listings by the dashboard order, the unlisted one apart", async () => {
    // The flags are booleans: read through the typed rows, which give them as such on both engines.
    const featured = async (isUnlisted: boolean) =>
      (await db.rows('listings', { brandId: brands.lisbon, isFeatured: true, isUnlisted }, ['displayOrder'])).map((r) => r.id);
    expect(await featured(false)).toEqual([
      lst.tagusSunsetSail,
      lst.tram28PhotoWalk,
      lst.alfamaFadoNight,
      lst.pastelDeNataWorkshop,
      lst.sintraDayTrip,
      lst.santosPopularesStreetParty,
    ]);
    expect(await featured(true)).toEqual([lst.azulejoStudioVisit]);
    expect((await db.row('listings', { id: lst.lxFactoryStreetArt })).isFeatured).toBe(false);
  });

  it('has a Sintra draft that differs from the published content', async () => {
    const content = await rows(
      `SELECT version, title, advertised_price_minor AS price FROM listing_contents WHERE listing_id = ? ORDER BY version${bytes} DESC`,
      lst.sintraDayTrip,
    );
    expect(content).toEqual([
      { version: 'published', title: 'Sintra Day Trip', price: 7900 },
      { version: 'draft', title: 'Sintra and Cascais Day Trip', price: 8900 },
    ]);
  });

  it('has Portuguese text for a listing and an experience', async () => {
    expect(
      await one(
        `SELECT t.title FROM listing_content_translations t JOIN listing_contents c ON c.id = t.content_id
         WHERE c.listing_id = ? AND c.version = 'published' AND t.locale = 'pt'`,
        lst.tram28PhotoWalk,
      ),
    ).toEqual({ title: 'Passeio fotográfico no elétrico 28' });
    expect(await one("SELECT title FROM experience_translations WHERE experience_id = ? AND locale = 'pt'", exp.tram28PhotoWalk)).toEqual({
      title: 'Passeio fotográfico no elétrico 28',
    });
  });
});

describe('reviews', () => {
  it('gives each brand its own reviews', async () => {
    const perBrand = `SELECT e.brand_id AS brand, COUNT(*) AS n FROM reviews r JOIN experiences e ON e.id = r.experience_id
      GROUP BY e.brand_id ORDER BY e.brand_id${bytes}`;
    expect(await rows(perBrand)).toEqual([
      { brand: brands.lisbon, n: 86 },
      { brand: brands.tokyo, n: 24 },
      { brand: brands.kayak, n: 24 },
    ]);
  });

  it('has 60 reviews on the tram walk, ranked 1..60 newest first, by distinct guests of the brand, hosted by its host', async () => {
    type Review = { rank: number; reviewed_at: string; experienced_date: string; host_id: string; rating: number };
    const reviews = await rows<Review & { recommendability: number; reviewer_brand: string }>(
      `SELECT r.*, p.brand_id AS reviewer_brand FROM reviews r JOIN reviewers p ON p.id = r.reviewer_id
       WHERE r.experience_id = ? ORDER BY r.reviewed_at DESC`,
      exp.tram28PhotoWalk,
    );
    expect(reviews.map((r) => r.rank)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(new Set(reviews.map((r) => r.reviewed_at)).size).toBe(60);
    const host = (await one<{ host_id: string }>('SELECT host_id FROM experiences WHERE id = ?', exp.tram28PhotoWalk)).host_id;
    for (const r of reviews) {
      expect(r.host_id).toBe(host);
      expect(r.reviewer_brand).toBe(brands.lisbon);
      expect(r.reviewed_at >= '2025-01-01' && r.reviewed_at < '2027-01-01').toBe(true);
      expect(r.experienced_date < r.reviewed_at).toBe(true);
      expect([2, 3, 4, 5]).toContain(r.rating);
      expect(r.recommendability >= 0 && r.recommendability <= 10).toBe(true);
    }
    expect(await one('SELECT COUNT(DISTINCT reviewer_id) AS n FROM reviews WHERE experience_id = ?', exp.tram28PhotoWalk)).toEqual({
      n: 60,
    });
  });
});

describe('custom questions of the sunset sail', () => {
  // Read through the typed rows: the required and active flags are booleans on both engines there.
  const questions = async () => {
    const asked = await db.rows('experienceQuestions', { experienceId: exp.tagusSunsetSail }, ['order']);
    const byId = new Map((await db.rows('questions')).map((q) => [q.id, q]));
    return asked.map((eq) => ({ ...eq, fieldType: byId.get(eq.questionId)!.fieldType, options: byId.get(eq.questionId)!.options }));
  };

  it('covers every field type, both scopes, required and optional, and one inactive question', async () => {
    const list = await questions();
    const fieldTypes = ['input', 'textarea', 'multiple_select', 'single_select', 'terms_and_conditions'];
    expect(new Set(list.map((q) => q.fieldType))).toEqual(new Set(fieldTypes));
    expect(new Set(list.map((q) => q.scope))).toEqual(new Set(['purchaser', 'participant']));
    expect(new Set(list.map((q) => q.isRequired))).toEqual(new Set([false, true]));
    expect(list.filter((q) => q.isActive === false)).toHaveLength(1);
  });

  it('shows one question only when an option of a select question on the same experience is chosen', async () => {
    const list = await questions();
    const conditional = list.filter((q) => q.conditions !== null);
    expect(conditional).toHaveLength(1);
    const [condition] = conditional[0]!.conditions!;
    expect(conditional[0]!.conditionsMatchType).toBe('any');
    expect(condition!.rule).toBe('value_matches');
    const parent = list.find((q) => q.questionId === condition!.conditionKey)!;
    expect(parent.fieldType).toBe('single_select');
    expect(parent.options!).toContainEqual({ key: condition!.conditionValue, value: 'Marriage proposal' });
  });
});

describe('answers to custom questions', () => {
  /** A stored answer sent back as the client would: option keys for select questions, text otherwise (nothing when unanswered). */
  const answered = (stored: { answer: Array<{ value: unknown }> }) => stored.answer.some((a) => a.value !== null);
  const asResponse = (stored: { question: { customQuestionId: string }; answer: Array<{ value: unknown; key?: string | null }> }) => ({
    questionId: stored.question.customQuestionId,
    answer: stored.answer.map((a) => (a.key ? { key: a.key } : { value: String(a.value) })),
  });

  it('answers every question each demo booking should, as checkout would accept and store them', async () => {
    const bookings = await rows<{ id: string; experience_id: string; brand_id: string }>(
      `SELECT id, experience_id, brand_id FROM bookings ORDER BY id${bytes}`,
    );
    expect(bookings).toHaveLength(4);
    let total = 0;
    for (const booking of bookings) {
      const [questions = []] = await customQuestionsByExperience({ db: db.database }, [
        { id: booking.experience_id, brandId: booking.brand_id },
      ]);
      const stored = (
        await rows<{ participant_id: string | null; question: string; answer: string }>(
          'SELECT participant_id, question, answer FROM answers WHERE booking_id = ? ORDER BY position',
          booking.id,
        )
      ).map((r) => ({ participantId: r.participant_id, question: JSON.parse(r.question), answer: JSON.parse(r.answer) }));
      const people = await rows<{ id: string }>('SELECT id FROM participants WHERE booking_id = ? ORDER BY position', booking.id);
      // Throws (ANSWER_REQUIRED, INVALID_ANSWER...) when a real checkout would have refused these answers.
      const validated = validateAnswers({
        questions,
        purchaserResponses: stored.filter((s) => s.participantId === null && answered(s)).map(asResponse),
        participants: people.map((p) => ({ responses: stored.filter((s) => s.participantId === p.id && answered(s)).map(asResponse) })),
        fieldPrefix: '',
      });
      expect(validated.purchaser.map((a) => a.answer)).toEqual(stored.filter((s) => s.participantId === null).map((s) => s.answer));
      total += stored.length;
    }
    // The three sail bookings (ten guests): every active question stored, answered or not (as checkout does):
    // three purchaser questions each shown (the proposal plan only for a proposal), three per guest.
    expect(total).toBe(3 * 3 + 10 * 3);
  });
});
