/**
 * What the demo brands sell besides places: waitlists, add-ons, coupons and credit codes. None of it
 * depends on the seeder's clock, so it is identical on every run.
 */
import type { Seeder } from '../tables.ts';
import type { BrandCatalog } from './catalog-types.ts';
import { catalogIds } from './catalog.ts';
import { demoId, type DemoBrandKey } from './ids.ts';

/** Brands whose experiences each have a waitlist (the Harbor Collection's). */
const brandsWithWaitlists: ReadonlySet<DemoBrandKey> = new Set(['lisbon', 'tokyo']);

/** A fixed creation time: waitlists are part of the catalog, not of the seeder's "today". */
const WAITLISTS_CREATED_AT = '2026-01-15T10:00:00.000Z';

/** [experience slug, add-on name, price in minor units], in display order per experience. */
const addOnSpecs: Record<DemoBrandKey, Array<[string, string, number]>> = {
  lisbon: [
    ['tagus-sunset-sail', 'Photo package', 2500],
    ['tagus-sunset-sail', 'Espumante upgrade', 1200],
    ['pastel-de-nata-workshop', 'Box of six pastéis to take home', 900],
  ],
  tokyo: [['asakusa-tea-ceremony', 'Matcha whisk and bowl gift set', 3800]],
  kayak: [['la-jolla-sea-cave-kayak-tour', 'Waterproof camera rental', 1500]],
};

interface CouponSpec {
  code: string;
  /** Basis points (1000 = 10 %). */
  percentOff?: number;
  /** Minor units of the brand's currency. */
  amountOff?: number;
  active?: boolean;
}

/** Coupon codes are stored upper-case (matched case-insensitively). */
export const demoCoupons: Record<DemoBrandKey, CouponSpec[]> = {
  lisbon: [
    { code: 'LISBON10', percentOff: 1000 },
    { code: 'WELCOME5', amountOff: 500 },
    // Switched off by the brand: shows what an expired promotion answers.
    { code: 'SUMMER25', percentOff: 2500, active: false },
  ],
  tokyo: [
    { code: 'TOKYO1000', amountOff: 1000 },
    { code: 'SAKURA15', percentOff: 1500 },
  ],
  kayak: [{ code: 'PADDLE20', percentOff: 2000 }],
};

/** Stored-value codes and their balances in minor units. */
export const demoCreditCodes: Record<DemoBrandKey, Array<[string, number]>> = {
  lisbon: [
    ['GIFT-LISBON-50', 5000],
    ['GOODWILL-LX-20', 2000],
  ],
  tokyo: [['GIFT-TOKYO-10000', 10000]],
  kayak: [],
};

export const waitlistId = (brand: DemoBrandKey, experienceSlug: string) => demoId(brand, 'waitlist', experienceSlug);

async function seedWaitlists(seed: Seeder, catalog: BrandCatalog): Promise<void> {
  if (!brandsWithWaitlists.has(catalog.brand)) return;
  const ids = catalogIds(catalog.brand);
  await seed.insert(
    'waitlists',
    catalog.experiences.map((e) => ({
      id: waitlistId(catalog.brand, e.slug),
      experienceId: ids.experience(e.slug),
      createdAt: WAITLISTS_CREATED_AT,
    })),
  );
}

async function seedAddOns(seed: Seeder, catalog: BrandCatalog): Promise<void> {
  const specs = addOnSpecs[catalog.brand];
  if (specs.length === 0) return;
  const ids = catalogIds(catalog.brand);
  await seed.insert(
    'addOns',
    specs.map(([slug, name, priceMinor], i) => ({
      id: demoId(catalog.brand, 'add-on', `${slug}/${name}`),
      experienceId: ids.experience(slug),
      name,
      priceMinor,
      position: i + 1,
    })),
  );
}

async function seedDiscounts(seed: Seeder, catalog: BrandCatalog): Promise<void> {
  const { brand, brandId } = catalog;
  await seed.insert(
    'coupons',
    demoCoupons[brand].map((c) => ({
      id: demoId(brand, 'coupon', c.code),
      brandId,
      code: c.code,
      percentOffBasisPoints: c.percentOff ?? null,
      amountOffMinor: c.amountOff ?? null,
      active: c.active ?? true,
    })),
  );
  const credits = demoCreditCodes[brand];
  if (credits.length === 0) return;
  await seed.insert(
    'creditCodes',
    credits.map(([code, balanceMinor]) => ({ id: demoId(brand, 'credit-code', code), brandId, code, balanceMinor })),
  );
}

export async function seedCommerce(seed: Seeder, catalog: BrandCatalog): Promise<void> {
  await seedWaitlists(seed, catalog);
  await seedAddOns(seed, catalog);
  await seedDiscounts(seed, catalog);
}
