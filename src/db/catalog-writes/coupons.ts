/** The coupon writes of both engines, written once (see kit.ts); the locking read is each engine's own. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { CouponRow } from '../../domain/checkout/store.ts';
import type { CouponFields, CouponWritesStore } from '../../domain/catalog/store.ts';
import { assignments, count, insertValues, select, type StepsOf, type TableOf } from './kit.ts';

type CouponColumn = keyof CouponRow;

export interface CouponTables {
  coupons: TableOf<CouponColumn>;
}

const columns: CouponColumn[] = ['id', 'brandId', 'code', 'percentOffBasisPoints', 'amountOffMinor', 'validFrom', 'validUntil', 'active'];

export type CouponWrites = StepsOf<CouponWritesStore>;

export function couponWrites(t: CouponTables): CouponWrites {
  return {
    *findCouponToWrite(couponId) {
      const [row] = yield* select(t.coupons, columns, eq(t.coupons.id, couponId));
      return row as CouponRow | undefined;
    },

    *listCouponsOfBrand(brandId) {
      const rows = yield* select(t.coupons, columns, eq(t.coupons.brandId, brandId), sql`${asc(t.coupons.code)}, ${asc(t.coupons.id)}`);
      return rows as unknown as CouponRow[];
    },

    *couponIdByCode(brandId, upperCode) {
      const [row] = yield* select(t.coupons, ['id'], and(eq(t.coupons.brandId, brandId), eq(t.coupons.code, upperCode))!);
      return row?.id as string | undefined;
    },

    *insertCoupon(row) {
      yield* count(sql`insert into ${t.coupons} ${insertValues(t.coupons, row)}`);
    },

    *updateCoupon(couponId, fields: Partial<CouponFields>) {
      if (Object.values(fields).every((value) => value === undefined)) return;
      yield* count(sql`update ${t.coupons} set ${assignments(t.coupons, fields)} where ${eq(t.coupons.id, couponId)}`);
    },
  };
}
