import { Type } from 'typebox';
import { BrandParams, IfMatchHeaders, Nullable, Uuid, errorResponses, ref } from './common.ts';

export const Coupon = Type.Object(
  {
    id: Type.String(),
    code: Type.String({ description: 'Upper-case; checkout matches it ignoring case' }),
    percentOff: Nullable(Type.Number({ description: 'Percent off (1 to 100, two decimals at most); null for a fixed amount' })),
    amountOffMinor: Nullable(
      Type.Integer({ description: 'Fixed amount off each item, in minor units of the brand currency; null for a percentage' }),
    ),
    validFrom: Nullable(
      Type.String({ description: 'First moment it applies: YYYY-MM-DD (a UTC day) or an ISO 8601 instant; null for no start' }),
    ),
    validUntil: Nullable(
      Type.String({
        description: 'When it stops: YYYY-MM-DD (valid through that UTC day) or an ISO 8601 instant (exclusive); null for no end',
      }),
    ),
    active: Type.Boolean({ description: 'Whether checkout accepts it' }),
  },
  { $id: 'Coupon', description: 'A discount code of the brand (secret keys only)' },
);

const CouponParams = Type.Object({ brandId: Uuid, couponId: Uuid });

const CouponDocument = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'A coupon as GET shows it, less `id`: `code` (letters, digits, - and _; unique per brand ignoring case), `percentOff` or ' +
      '`amountOffMinor` (integer minor units), not both; `validFrom`, `validUntil`, `active` (default true). In a PATCH, a JSON merge ' +
      'patch (RFC 7396) of it',
  },
);

const couponAnswer = (description: string) => Type.Object({ data: ref(Coupon) }, { description });

export const listCouponsSchema = {
  tags: ['Carts & Checkout'],
  operationId: 'listCoupons',
  summary: 'List the coupons of a brand',
  params: BrandParams,
  response: {
    200: Type.Object({ data: Type.Array(ref(Coupon)) }, { description: "The brand's coupons, by code" }),
    ...errorResponses(404),
  },
};

export const getCouponSchema = {
  tags: ['Carts & Checkout'],
  operationId: 'getCoupon',
  summary: 'Get a coupon',
  params: CouponParams,
  response: { 200: couponAnswer('The coupon; its version is in the `ETag` header'), ...errorResponses(404) },
};

export const createCouponSchema = {
  tags: ['Carts & Checkout'],
  operationId: 'createCoupon',
  summary: 'Create a coupon',
  description: 'Records `coupon.created`. A code the brand already has (ignoring case) is 409 COUPON_CODE_TAKEN.',
  params: BrandParams,
  body: CouponDocument,
  response: { 201: couponAnswer('The coupon; `ETag` its version, `Location` its URL'), ...errorResponses(400, 404, 409) },
};

export const updateCouponSchema = {
  tags: ['Carts & Checkout'],
  operationId: 'updateCoupon',
  summary: 'Change a coupon (JSON merge patch); `{"active": false}` deactivates it',
  description: 'Records `coupon.updated` when something changed. Checkout reads the change on its next request.',
  params: CouponParams,
  headers: IfMatchHeaders,
  body: CouponDocument,
  response: { 200: couponAnswer('The coupon after the change; `ETag` its new version'), ...errorResponses(400, 404, 409, 412) },
};
