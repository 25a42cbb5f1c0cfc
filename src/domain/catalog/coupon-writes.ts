/**
 * A brand's coupons through the catalogue API (coded-writes.ts: secret keys only, codes unique per brand
 * ignoring case, COUPON_CODE_TAKEN, `coupon.created` / `coupon.updated`). A coupon takes a percentage
 * (`percentOff`, 1 to 100 with at most two decimals) or a fixed amount in integer minor units of the brand
 * currency (`amountOffMinor`), never both. Checkout reads the same rows (pricing-rules.ts `resolveCoupon`),
 * so a coupon deactivated here is refused at the next checkout.
 */
import type { CouponRow } from '../checkout/store.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { invalid } from '../shared/errors.ts';
import { codedWrites, codeOf, type Written } from './coded-writes.ts';
import { text } from './document-fields.ts';
import type { CouponFields } from './store.ts';
import type { JsonObject } from './write-shape.ts';

/** A coupon as the API shows it. */
export interface Coupon {
  id: string;
  /** Upper-case; checkout matches it ignoring case. */
  code: string;
  /** Percent off (1 to 100, two decimals at most), or null for a fixed amount. */
  percentOff: number | null;
  /** Fixed amount off each item, in integer minor units of the brand currency, or null for a percentage. */
  amountOffMinor: number | null;
  /** First moment it applies: `YYYY-MM-DD` (a UTC day) or an ISO 8601 instant; null for no start. */
  validFrom: string | null;
  /** When it stops: `YYYY-MM-DD` (valid through that UTC day) or an ISO 8601 instant (exclusive); null for no end. */
  validUntil: string | null;
  /** Whether checkout accepts it. */
  active: boolean;
}

export type WrittenCoupon = Written<'coupon', Coupon>;

export const toCoupon = (row: CouponRow): Coupon => ({
  id: row.id,
  code: row.code,
  percentOff: row.percentOffBasisPoints === null ? null : row.percentOffBasisPoints / 100,
  amountOffMinor: row.amountOffMinor,
  validFrom: row.validFrom,
  validUntil: row.validUntil,
  active: row.active,
});

const FIELDS = ['code', 'percentOff', 'amountOffMinor', 'validFrom', 'validUntil', 'active'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 24 * 60 * 60 * 1000;

function validity(value: unknown, field: string): { text: string | null; start: number; end: number } {
  if (value === undefined || value === null) return { text: null, start: NaN, end: NaN };
  const raw = text(value, field, { min: 1, max: 40 });
  const ms = Date.parse(DAY.test(raw) ? `${raw}T00:00:00Z` : raw);
  if ((!DAY.test(raw) && !INSTANT.test(raw)) || Number.isNaN(ms)) {
    throw invalid(field, `${field} must be a date (YYYY-MM-DD) or an ISO 8601 instant with its offset`);
  }
  return { text: raw, start: ms, end: DAY.test(raw) ? ms + DAY_MS : ms };
}

/** The fields of a coupon document (new, or merged with a patch), as the row stores them. */
function readCoupon(document: JsonObject): CouponFields {
  const code = codeOf(document);
  const { percentOff, amountOffMinor } = document;
  let percentOffBasisPoints: number | null = null;
  if (percentOff !== undefined && percentOff !== null) {
    const scaled = typeof percentOff === 'number' ? Math.round(percentOff * 100) : NaN;
    if (typeof percentOff !== 'number' || !Number.isFinite(percentOff) || Math.abs(percentOff * 100 - scaled) > 1e-6) {
      throw invalid('percentOff', 'percentOff must be a number with at most two decimals');
    }
    if (scaled < 100 || scaled > 10_000) throw invalid('percentOff', 'percentOff must be from 1 to 100');
    percentOffBasisPoints = scaled;
  }
  let amount: number | null = null;
  if (amountOffMinor !== undefined && amountOffMinor !== null) {
    if (
      typeof amountOffMinor !== 'number' ||
      !Number.isSafeInteger(amountOffMinor) ||
      amountOffMinor < 1 ||
      amountOffMinor > 1_000_000_000
    ) {
      throw invalid('amountOffMinor', 'amountOffMinor must be a whole number of minor units of the brand currency, from 1');
    }
    amount = amountOffMinor;
  }
  if (percentOffBasisPoints !== null && amount !== null) {
    throw invalid('amountOffMinor', 'A coupon takes percentOff or amountOffMinor, not both (set the other to null)');
  }
  if (percentOffBasisPoints === null && amount === null) throw invalid('percentOff', 'A coupon needs percentOff or amountOffMinor');
  const from = validity(document.validFrom, 'validFrom');
  const until = validity(document.validUntil, 'validUntil');
  if (from.text !== null && until.text !== null && until.end <= from.start) {
    throw invalid('validUntil', 'validUntil must come after validFrom');
  }
  const active = document.active === undefined ? true : document.active;
  if (typeof active !== 'boolean') throw invalid('active', 'active must be true or false');
  return { code, percentOffBasisPoints, amountOffMinor: amount, validFrom: from.text, validUntil: until.text, active };
}

const coupons = codedWrites({
  key: 'coupon',
  noun: 'coupon',
  resource: 'Coupon',
  taken: 'COUPON_CODE_TAKEN',
  created: 'coupon.created',
  updated: 'coupon.updated',
  fields: FIELDS,
  store: (db) => db.couponWrites,
  read: readCoupon,
  view: toCoupon,
});

export const listCoupons = (deps: CallerDeps, input: { brandId: string }) => coupons.list(deps, input.brandId);
export const getCoupon = (deps: CallerDeps, input: { brandId: string; couponId: string }) =>
  coupons.get(deps, input.brandId, input.couponId);
export const createCoupon = (deps: CallerDeps, input: { brandId: string; body: unknown }) =>
  coupons.create(deps, input.brandId, input.body);
export const updateCoupon = (
  deps: CallerDeps,
  input: { brandId: string; couponId: string; patch: unknown; ifMatch?: string | null; ifMatchField?: string },
) => coupons.update(deps, { ...input, id: input.couponId });
