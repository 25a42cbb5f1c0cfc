/**
 * A brand's coupons through the catalogue API (secret keys only): list, read, create, and change by JSON
 * merge patch (RFC 7396) under `If-Match` (write-shape.ts; the entity tag is of the stored row). A coupon
 * takes a percentage (`percentOff`, 1 to 100 with at most two decimals) or a fixed amount in integer minor
 * units of the brand currency (`amountOffMinor`), never both; codes are unique per brand ignoring case
 * (COUPON_CODE_TAKEN). Checkout reads the same rows (pricing-rules.ts `resolveCoupon`), so a coupon
 * deactivated here is refused at the next checkout. Each write is one unit of work recording
 * `coupon.created` or `coupon.updated`.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { CouponRow } from '../checkout/store.ts';
import { recordEvent, type EventType } from '../outbox/outbox.ts';
import type { Transaction } from '../shared/database.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import { loadBrand } from './brands.ts';
import { text } from './document-fields.ts';
import type { CouponFields } from './store.ts';
import { assertIfMatch, checkWritable, etagOf, isObject, mergePatch, type JsonObject } from './write-shape.ts';

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

export interface WrittenCoupon {
  coupon: Coupon;
  /** Its entity tag (REST `ETag`, GraphQL `etag`): what `If-Match` / `ifMatch` takes. */
  etag: string;
}

export const couponEtag = (row: CouponRow): string => etagOf(row);

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
const CODE = /^[A-Z0-9][A-Z0-9_-]*$/;
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
  const code = text(document.code, 'code', { min: 1, max: 40 }).trim().toUpperCase();
  if (!CODE.test(code)) throw invalid('code', 'code takes letters, digits, - and _ only');
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

async function codeFree(tx: Transaction, brandId: string, code: string, couponId: string): Promise<void> {
  const holder = await tx.couponWrites.couponIdByCode(brandId, code);
  if (holder && holder !== couponId) {
    throw new DomainError('COUPON_CODE_TAKEN', `The brand already has a coupon with code ${code}`, { field: 'code', code });
  }
}

async function recordWrite(deps: CallerDeps, tx: Transaction, brandId: string, id: string, type: EventType): Promise<WrittenCoupon> {
  const row = await tx.couponWrites.findCouponToWrite(id);
  if (!row) throw new Error(`Coupon ${id} written but not found in its unit of work`);
  const coupon = toCoupon(row);
  await recordEvent(tx, { brandId, type, resourceId: id, payload: { ...coupon }, at: deps.now().toISOString() });
  return { coupon, etag: couponEtag(row) };
}

async function couponOfBrand(db: Pick<Transaction, 'couponWrites'>, brandId: string, couponId: string): Promise<CouponRow> {
  const row = await db.couponWrites.findCouponToWrite(couponId);
  if (!row || row.brandId !== brandId) throw notFound('Coupon', couponId);
  return row;
}

export async function listCoupons(deps: CallerDeps, input: { brandId: string }): Promise<Coupon[]> {
  const brand = await loadBrand(deps, input.brandId);
  return (await deps.db.couponWrites.listCouponsOfBrand(brand.id)).map(toCoupon);
}

export async function getCoupon(deps: CallerDeps, input: { brandId: string; couponId: string }): Promise<WrittenCoupon> {
  const brand = await loadBrand(deps, input.brandId);
  const row = await couponOfBrand(deps.db, brand.id, input.couponId);
  return { coupon: toCoupon(row), etag: couponEtag(row) };
}

export async function createCoupon(deps: CallerDeps, input: { brandId: string; body: unknown }): Promise<WrittenCoupon> {
  if (!isObject(input.body)) throw invalid('body', 'A coupon is a JSON object');
  const body = input.body;
  for (const key of Object.keys(body)) if (key !== 'id' && !FIELDS.includes(key)) throw invalid(key, `${key} is not a field of a coupon`);
  const brand = await loadBrand(deps, input.brandId);
  const fields = readCoupon(body);
  const id = randomUUID();
  return deps.db.transaction(async (tx) => {
    await codeFree(tx, brand.id, fields.code, id);
    await tx.couponWrites.insertCoupon({ id, brandId: brand.id, ...fields });
    return recordWrite(deps, tx, brand.id, id, 'coupon.created');
  });
}

export async function updateCoupon(
  deps: CallerDeps,
  input: { brandId: string; couponId: string; patch: unknown; ifMatch?: string | null; ifMatchField?: string },
): Promise<WrittenCoupon> {
  if (!isObject(input.patch)) throw invalid('body', 'A coupon patch is a JSON object (RFC 7396)');
  const patch = input.patch;
  const brand = await loadBrand(deps, input.brandId);
  return deps.db.transaction(async (tx) => {
    const row = await couponOfBrand(tx, brand.id, input.couponId);
    assertIfMatch(input.ifMatch, couponEtag(row), input.ifMatchField);
    const current = toCoupon(row) as unknown as JsonObject;
    const merged = mergePatch(current, patch) as JsonObject;
    checkWritable(merged, current, ['id']);
    const fields = readCoupon(merged);
    const changes = Object.fromEntries(
      Object.entries(fields).filter(([key, value]) => !isDeepStrictEqual(value, row[key as keyof CouponRow])),
    ) as Partial<CouponFields>;
    if (Object.keys(changes).length === 0) return { coupon: toCoupon(row), etag: couponEtag(row) };
    if (changes.code !== undefined) await codeFree(tx, brand.id, changes.code, row.id);
    await tx.couponWrites.updateCoupon(row.id, changes);
    return recordWrite(deps, tx, brand.id, row.id, 'coupon.updated');
  });
}
