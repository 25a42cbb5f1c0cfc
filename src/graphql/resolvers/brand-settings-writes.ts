import { updateBrandSettings } from '../../domain/catalog/brand-settings-writes.ts';
import type { BrandSettingsInput, Resolvers } from '../__generated__/resolvers-types.ts';
import { namingInputFields } from './listing-writes.ts';

/** The input as the REST body (the settings' own shape) spells it; a field left out stays left out. */
function settingsPatch(input: BrandSettingsInput): Record<string, unknown> {
  const { hero, promotionExclusiveTag, validateRoomCharge, validateMemberCharge, ...patch } = input as BrandSettingsInput &
    Record<string, unknown>;
  const validation = { roomCharge: validateRoomCharge, memberCharge: validateMemberCharge };
  return {
    ...patch,
    ...(hero !== undefined ? { templateElement: { hero } } : {}),
    ...(promotionExclusiveTag !== undefined ? { promotion: { exclusiveTag: promotionExclusiveTag } } : {}),
    ...(validateRoomCharge !== undefined || validateMemberCharge !== undefined
      ? { shouldValidateComplimentaryBooking: Object.fromEntries(Object.entries(validation).filter(([, v]) => v !== undefined)) }
      : {}),
  };
}

const settingsField = (field: string) =>
  field
    .replace(/^templateElement\.hero/, 'hero')
    .replace(/^promotion\.exclusiveTag$/, 'promotionExclusiveTag')
    .replace(/^shouldValidateComplimentaryBooking\.roomCharge$/, 'validateRoomCharge')
    .replace(/^shouldValidateComplimentaryBooking\.memberCharge$/, 'validateMemberCharge');

export const brandSettingsWriteResolvers: Resolvers = {
  Mutation: {
    updateBrandSettings: async (_, { brandId, input, ifMatch }, ctx) => {
      const { settings, etag } = await namingInputFields(
        updateBrandSettings(ctx.caller(), { brandId, patch: settingsPatch(input), ifMatch, ifMatchField: 'ifMatch' }),
        settingsField,
      );
      return { brandSettings: settings, etag };
    },
  },
};
