import { issueCreditCode, listCreditCodes, updateCreditCode } from '../../domain/catalog/credit-code-writes.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const creditCodeResolvers: Resolvers = {
  Query: {
    creditCodes: (_, { brandId }, ctx) => listCreditCodes(ctx.caller(), { brandId }),
  },
  Mutation: {
    issueCreditCode: (_, { brandId, input }, ctx) => issueCreditCode(ctx.caller(), { brandId, body: input }),
    updateCreditCode: (_, { brandId, id, input, ifMatch }, ctx) =>
      updateCreditCode(ctx.caller(), { brandId, creditCodeId: id, patch: input, ifMatch, ifMatchField: 'ifMatch' }),
  },
};
