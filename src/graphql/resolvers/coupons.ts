import { createCoupon, listCoupons, updateCoupon } from '../../domain/catalog/coupon-writes.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const couponResolvers: Resolvers = {
  Query: {
    coupons: (_, { brandId }, ctx) => listCoupons(ctx.caller(), { brandId }),
  },
  Mutation: {
    createCoupon: (_, { brandId, input }, ctx) => createCoupon(ctx.caller(), { brandId, body: input }),
    updateCoupon: (_, { brandId, id, input, ifMatch }, ctx) =>
      updateCoupon(ctx.caller(), { brandId, couponId: id, patch: input, ifMatch, ifMatchField: 'ifMatch' }),
  },
};
