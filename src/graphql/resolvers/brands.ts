import { getBrandSettings, getCancellationPolicy, getReschedulePolicy } from '../../domain/catalog/brands.ts';
import { enumValues } from '../enums.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const brandResolvers: Resolvers = {
  Query: {
    brandSettings: (_, { brandId }, ctx) => getBrandSettings(ctx.caller(), { brandId }),
  },
  BrandSettings: {
    cancellationPolicy: (settings, _, ctx) =>
      settings.cancellationPolicy !== undefined ? settings.cancellationPolicy : getCancellationPolicy(ctx, settings.cancellationPolicyId),
    reschedulePolicy: (settings, _, ctx) =>
      settings.reschedulePolicy !== undefined ? settings.reschedulePolicy : getReschedulePolicy(ctx, settings.reschedulePolicyId),
  },
  PaymentPlatform: enumValues.PaymentPlatform,
  ProductLine: enumValues.ProductLine,
};
