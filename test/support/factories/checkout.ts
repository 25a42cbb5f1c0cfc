import { randomUUID } from 'node:crypto';
import type { Db } from '../../../src/db/client.ts';
import { addOns, coupons, creditCodes } from '../../../src/db/schema.ts';

export function createAddOn(db: Db, experienceId: string, overrides: Partial<typeof addOns.$inferInsert> = {}) {
  const row = { id: randomUUID(), experienceId, name: 'Photo pack', priceMinor: 1000, position: 0, ...overrides };
  db.insert(addOns).values(row).run();
  return row;
}

/** A coupon: 10 % off unless `amountOffMinor` (or another percentage) is given. */
export function createCoupon(db: Db, brandId: string, overrides: Partial<typeof coupons.$inferInsert> = {}) {
  const fixed = overrides.amountOffMinor !== undefined && overrides.amountOffMinor !== null;
  const row = {
    id: randomUUID(),
    brandId,
    code: `SAVE${randomUUID().slice(0, 6).toUpperCase()}`,
    percentOffBasisPoints: fixed ? null : 1000,
    amountOffMinor: null as number | null,
    validFrom: null as string | null,
    validUntil: null as string | null,
    active: true,
    ...overrides,
  };
  db.insert(coupons).values(row).run();
  return row;
}

export function createCreditCode(db: Db, brandId: string, overrides: Partial<typeof creditCodes.$inferInsert> = {}) {
  const row = { id: randomUUID(), brandId, code: `GIFT-${randomUUID().slice(0, 8).toUpperCase()}`, balanceMinor: 5000, ...overrides };
  db.insert(creditCodes).values(row).run();
  return row;
}
