import { portOf } from '../../support/db.ts';
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../../src/auth/authenticate.ts';
import { hashSecret } from '../../../src/domain/access/secrets.ts';
import type { Db } from '../../../src/db/sqlite/client.ts';
import { demoIds } from '../../../src/db/demo/ids.ts';
import { demoKeys, seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { freshDb } from '../../support/db.ts';
import { validateAnswers } from '../../../src/domain/questions/answers.ts';
import { customQuestionsByExperience } from '../../../src/domain/questions/questions.ts';
import { createBrand } from '../../../fixtures/factories/brands.ts';

/** The seeder's "today": the sessions start on 28 March 2026, the eve of Lisbon's spring-forward night. */
const NOW = new Date('2026-03-28T10:00:00.000Z');
const db = freshDb();
const loaded = await seedDemoDataIfEmpty(portOf(db), db, NOW);

const all = <T = Record<string, unknown>>(database: Db, sql: string, ...params: unknown[]) =>
  database.$client.prepare(sql).all(...params) as T[];
const rows = <T = Record<string, unknown>>(sql: string, ...params: unknown[]) => all<T>(db, sql, ...params);
const one = <T = Record<string, unknown>>(sql: string, ...params: unknown[]) => rows<T>(sql, ...params)[0]!;

const { brands, experiences: exp, listings: lst } = demoIds;

function tableNames(database: Db): string[] {
  return all<{ name: string }>(
    database,
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name",
  ).map((t) => t.name);
}

function dump(database: Db): Record<string, unknown[]> {
  return Object.fromEntries(tableNames(database).map((name) => [name, all(database, `SELECT * FROM "${name}" ORDER BY rowid`)]));
}

const counts = (database: Db) => Object.fromEntries(Object.entries(dump(database)).map(([name, r]) => [name, r.length]));

describe('loading', () => {
  it('loads into an empty database once; a second call changes nothing', async () => {
    expect(loaded).toBe(true);
    const before = counts(db);
    expect(before.brands).toBe(3);
    expect(await seedDemoDataIfEmpty(portOf(db), db, NOW)).toBe(false);
    expect(counts(db)).toEqual(before);
  });

  it('leaves a database that already has a brand alone', async () => {
    const other = freshDb();
    createBrand(other, { name: 'Someone Else' });
    expect(await seedDemoDataIfEmpty(portOf(other), other)).toBe(false);
    expect(all(other, 'SELECT name FROM brands')).toEqual([{ name: 'Someone Else' }]);
    expect(all(other, 'SELECT id FROM listings')).toEqual([]);
  });

  it('produces identical rows, ids included, on every run', async () => {
    const again = freshDb();
    expect(await seedDemoDataIfEmpty(portOf(again), again, NOW)).toBe(true);
    expect(dump(again)).toEqual(dump(db));
  });
});

describe('organization, brands and keys', () => {
  it('has the contract ids, names, currencies and membership', () => {
    expect(rows('SELECT id, name FROM organizations')).toEqual([{ id: demoIds.organization, name: 'Harbor Collection' }]);
    expect(rows('SELECT id, name, currency, language, organization_id AS org FROM brands ORDER BY id')).toEqual([
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
    const principal = (await authenticate(portOf(db), { authorization: `Bearer ${secret}` }))!;
    expect(principal.kind).toBe(kind);
    expect([...principal.brandIds].sort()).toEqual(brandIds);
    expect(principal.organizationId).toBe(kind === 'organization' ? demoIds.organization : null);
  });

  it('lists the keys start-up prints and stores only their hashes and prefixes', () => {
    expect(demoKeys.map((k) => k.secret)).toEqual([
      'sk_test_harbor_org_demo',
      'sk_test_lisbon_demo',
      'sk_test_tokyo_demo',
      'sk_test_kayak_demo',
      'pk_test_lisbon_demo',
    ]);
    const stored = rows<{ secret_hash: string; prefix: string }>('SELECT secret_hash, prefix FROM api_keys ORDER BY rowid');
    expect(stored).toEqual(demoKeys.map((k) => ({ secret_hash: hashSecret(k.secret), prefix: k.secret.slice(0, 12) })));
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

  it('has spec feature flags, the core ones and one integration flag', () => {
    const flags: string[] = JSON.parse(brand().features_active);
    expect(flags).toEqual(expect.arrayContaining(['reviews', 'customQuestions', 'priceTiers', 'shoppingCart']));
    expect(flags.filter((f) => f.startsWith('integrations:'))).toEqual([integration]);
    expect(flags.filter((f) => !f.startsWith('integrations:') && !specFlags.has(f))).toEqual([]);
  });

  it('references its own cancellation and reschedule policies, and brand images stored as media', () => {
    const b = brand();
    expect(one('SELECT brand_id FROM cancellation_policies WHERE id = ?', b.cancellation_policy_id)).toEqual({ brand_id: brandId });
    expect(one('SELECT brand_id FROM reschedule_policies WHERE id = ?', b.reschedule_policy_id)).toEqual({ brand_id: brandId });
    const design = JSON.parse(b.design_element);
    expect(design.logo.uri.original).toBe(`https://media.tessera-demo.com/${slug}/logo-original.png`);
    expect(one('SELECT brand_id FROM media WHERE id = ?', design.logoId)).toEqual({ brand_id: brandId });
  });

  it('has hosts with profile pictures in both renditions', () => {
    const hosts = rows<{ profile_picture: string }>('SELECT profile_picture FROM hosts WHERE brand_id = ?', brandId);
    expect(hosts).toHaveLength(hostCount);
    for (const h of hosts) expect(Object.keys(JSON.parse(h.profile_picture).uri)).toEqual(['original', '480w']);
  });

  it('stores every picture with an original and a 480w rendition on the demo CDN', () => {
    const images = rows<{ renditions: string }>("SELECT renditions FROM media WHERE brand_id = ? AND type = 'image'", brandId);
    for (const m of images) {
      const r: Array<{ resolution: string; url: string }> = JSON.parse(m.renditions);
      expect(r.map((x) => x.resolution)).toEqual(['original', '480w']);
      expect(r[0]!.url).toMatch(new RegExp(`^https://media\\.tessera-demo\\.com/${slug}/[a-z0-9/-]+-original\\.(jpg|png)$`));
    }
  });

  it('gives every experience its zone, one cover, price tiers and a tax', () => {
    const list = rows<{ id: string; timezone_id: string }>('SELECT id, timezone_id FROM experiences WHERE brand_id = ?', brandId);
    for (const e of list) {
      expect(e.timezone_id).toBe(zone);
      expect(one("SELECT COUNT(*) AS n FROM experience_media WHERE experience_id = ? AND role = 'cover'", e.id)).toEqual({ n: 1 });
      expect(one('SELECT COUNT(*) > 0 AS ok FROM price_tiers WHERE experience_id = ?', e.id)).toEqual({ ok: 1 });
      expect(one('SELECT COUNT(*) AS n FROM taxes WHERE experience_id = ?', e.id)).toEqual({ n: 1 });
    }
  });

  it('points experience listings at their experience, with published content, media and a cover first', () => {
    const list = rows<{ id: string; kind: string; experience_id: string | null }>('SELECT * FROM listings WHERE brand_id = ?', brandId);
    for (const l of list) {
      if (l.kind === 'experience') expect(l.experience_id).not.toBeNull();
      const content = one<{ slug: string; price_per_type: string }>(
        "SELECT * FROM listing_contents WHERE listing_id = ? AND version = 'published'",
        l.id,
      );
      expect(content.slug).toMatch(/^[a-z0-9-]+$/);
      expect(content.price_per_type).toMatch(/^per /);
      expect(rows('SELECT kind FROM listing_media WHERE listing_id = ? ORDER BY position LIMIT 1', l.id)).toEqual([{ kind: 'cover' }]);
    }
  });
});

describe('catalog content', () => {
  it('prices in minor units of each currency and taxes in basis points', () => {
    const tiers = (id: string) => rows('SELECT name, price_minor AS price FROM price_tiers WHERE experience_id = ? ORDER BY position', id);
    expect(tiers(exp.tram28PhotoWalk)).toEqual([
      { name: 'Adult', price: 4500 },
      { name: 'Child', price: 2500 },
      { name: 'Senior', price: 3800 },
    ]);
    expect(tiers(exp.asakusaTeaCeremony)).toEqual([
      { name: 'Adult', price: 8000 },
      { name: 'Child', price: 4000 },
      { name: 'Senior', price: 7000 },
    ]);
    expect(tiers(exp.seaCaveKayakTour)).toEqual([
      { name: 'Adult', price: 7900 },
      { name: 'Child (6-12)', price: 5900 },
    ]);
    const tax = (id: string) => one('SELECT name, rate_basis_points AS rate FROM taxes WHERE experience_id = ?', id);
    expect(tax(exp.tram28PhotoWalk)).toEqual({ name: 'IVA', rate: 2300 });
    expect(tax(exp.tagusSunsetSail)).toEqual({ name: 'IVA (passenger transport)', rate: 600 });
    expect(tax(exp.tsukijiBreakfastWalk)).toEqual({ name: 'Consumption tax', rate: 1000 });
  });

  it('has experience, event and resource listings; events carry their dates', () => {
    const kinds = rows('SELECT DISTINCT kind FROM listings ORDER BY kind');
    expect(kinds).toEqual([{ kind: 'event' }, { kind: 'experience' }, { kind: 'resource' }]);
    const events = "SELECT id, event_start_date AS start, event_end_date AS end FROM listings WHERE kind = 'event' ORDER BY start";
    expect(rows(events)).toEqual([
      { id: lst.santosPopularesStreetParty, start: '2026-06-12', end: '2026-06-13' },
      { id: lst.sumidaFireworksCruise, start: '2026-07-25', end: '2026-07-25' },
    ]);
    expect(one('SELECT kind, experience_id FROM listings WHERE id = ?', lst.singleKayakRental)).toEqual({
      kind: 'resource',
      experience_id: null,
    });
  });

  it("orders Lisbon's featured listings by the dashboard order, the unlisted one apart", () => {
    const featured = (unlisted: number) =>
      rows<{ id: string }>(
        'SELECT id FROM listings WHERE brand_id = ? AND is_featured = 1 AND is_unlisted = ? ORDER BY display_order',
        brands.lisbon,
        unlisted,
      ).map((r) => r.id);
    expect(featured(0)).toEqual([
      lst.tagusSunsetSail,
      lst.tram28PhotoWalk,
      lst.alfamaFadoNight,
      lst.pastelDeNataWorkshop,
      lst.sintraDayTrip,
      lst.santosPopularesStreetParty,
    ]);
    expect(featured(1)).toEqual([lst.azulejoStudioVisit]);
    expect(one('SELECT is_featured FROM listings WHERE id = ?', lst.lxFactoryStreetArt)).toEqual({ is_featured: 0 });
  });

  it('has a Sintra draft that differs from the published content', () => {
    const content = rows(
      'SELECT version, title, advertised_price_minor AS price FROM listing_contents WHERE listing_id = ? ORDER BY version DESC',
      lst.sintraDayTrip,
    );
    expect(content).toEqual([
      { version: 'published', title: 'Sintra Day Trip', price: 7900 },
      { version: 'draft', title: 'Sintra and Cascais Day Trip', price: 8900 },
    ]);
  });

  it('has Portuguese text for a listing and an experience', () => {
    expect(
      one(
        `SELECT t.title FROM listing_content_translations t JOIN listing_contents c ON c.id = t.content_id
         WHERE c.listing_id = ? AND c.version = 'published' AND t.locale = 'pt'`,
        lst.tram28PhotoWalk,
      ),
    ).toEqual({ title: 'Passeio fotográfico no elétrico 28' });
    expect(one("SELECT title FROM experience_translations WHERE experience_id = ? AND locale = 'pt'", exp.tram28PhotoWalk)).toEqual({
      title: 'Passeio fotográfico no elétrico 28',
    });
  });
});

describe('reviews', () => {
  it('gives each brand its own reviews', () => {
    const perBrand = `SELECT e.brand_id AS brand, COUNT(*) AS n FROM reviews r JOIN experiences e ON e.id = r.experience_id
      GROUP BY e.brand_id ORDER BY e.brand_id`;
    expect(rows(perBrand)).toEqual([
      { brand: brands.lisbon, n: 86 },
      { brand: brands.tokyo, n: 24 },
      { brand: brands.kayak, n: 24 },
    ]);
  });

  it('has 60 reviews on the tram walk, ranked 1..60 newest first, by distinct guests of the brand, hosted by its host', () => {
    type Review = { rank: number; reviewed_at: string; experienced_date: string; host_id: string; rating: number };
    const reviews = rows<Review & { recommendability: number; reviewer_brand: string }>(
      `SELECT r.*, p.brand_id AS reviewer_brand FROM reviews r JOIN reviewers p ON p.id = r.reviewer_id
       WHERE r.experience_id = ? ORDER BY r.reviewed_at DESC`,
      exp.tram28PhotoWalk,
    );
    expect(reviews.map((r) => r.rank)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(new Set(reviews.map((r) => r.reviewed_at)).size).toBe(60);
    const host = one<{ host_id: string }>('SELECT host_id FROM experiences WHERE id = ?', exp.tram28PhotoWalk).host_id;
    for (const r of reviews) {
      expect(r.host_id).toBe(host);
      expect(r.reviewer_brand).toBe(brands.lisbon);
      expect(r.reviewed_at >= '2025-01-01' && r.reviewed_at < '2027-01-01').toBe(true);
      expect(r.experienced_date < r.reviewed_at).toBe(true);
      expect([2, 3, 4, 5]).toContain(r.rating);
      expect(r.recommendability >= 0 && r.recommendability <= 10).toBe(true);
    }
    expect(one('SELECT COUNT(DISTINCT reviewer_id) AS n FROM reviews WHERE experience_id = ?', exp.tram28PhotoWalk)).toEqual({ n: 60 });
  });
});

describe('custom questions of the sunset sail', () => {
  type Row = {
    question_id: string;
    field_type: string;
    options: string | null;
    scope: string;
    is_required: number;
    is_active: number;
    conditions: string | null;
    conditions_match_type: string | null;
  };
  const questions = () =>
    rows<Row>(
      `SELECT eq.*, q.field_type, q.options FROM experience_questions eq JOIN questions q ON q.id = eq.question_id
       WHERE eq.experience_id = ? ORDER BY eq."order"`,
      exp.tagusSunsetSail,
    );

  it('covers every field type, both scopes, required and optional, and one inactive question', () => {
    const list = questions();
    const fieldTypes = ['input', 'textarea', 'multiple_select', 'single_select', 'terms_and_conditions'];
    expect(new Set(list.map((q) => q.field_type))).toEqual(new Set(fieldTypes));
    expect(new Set(list.map((q) => q.scope))).toEqual(new Set(['purchaser', 'participant']));
    expect(new Set(list.map((q) => q.is_required))).toEqual(new Set([0, 1]));
    expect(list.filter((q) => q.is_active === 0)).toHaveLength(1);
  });

  it('shows one question only when an option of a select question on the same experience is chosen', () => {
    const list = questions();
    const conditional = list.filter((q) => q.conditions !== null);
    expect(conditional).toHaveLength(1);
    const [condition] = JSON.parse(conditional[0]!.conditions!);
    expect(conditional[0]!.conditions_match_type).toBe('any');
    expect(condition.rule).toBe('value_matches');
    const parent = list.find((q) => q.question_id === condition.conditionKey)!;
    expect(parent.field_type).toBe('single_select');
    expect(JSON.parse(parent.options!)).toContainEqual({ key: condition.conditionValue, value: 'Marriage proposal' });
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
    const bookings = rows<{ id: string; experience_id: string; brand_id: string }>(
      'SELECT id, experience_id, brand_id FROM bookings ORDER BY id',
    );
    expect(bookings).toHaveLength(4);
    let total = 0;
    for (const booking of bookings) {
      const [questions = []] = await customQuestionsByExperience({ db: portOf(db) }, [
        { id: booking.experience_id, brandId: booking.brand_id },
      ]);
      const stored = rows<{ participant_id: string | null; question: string; answer: string }>(
        'SELECT participant_id, question, answer FROM answers WHERE booking_id = ? ORDER BY position',
        booking.id,
      ).map((r) => ({ participantId: r.participant_id, question: JSON.parse(r.question), answer: JSON.parse(r.answer) }));
      const people = rows<{ id: string }>('SELECT id FROM participants WHERE booking_id = ? ORDER BY position', booking.id);
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
