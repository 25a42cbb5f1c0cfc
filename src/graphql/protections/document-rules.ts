/**
 * Limits that depend on the document alone, checked while Apollo validates it (a validated document is
 * cached, and so is its verdict): depth, aliases and directives through graphql-armor, introspection
 * switched off, and graphql's own limits (introspection depth, validation work) given a reason.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { GraphQLArmorRejectCallback } from '@escape.tech/graphql-armor-types';
import { type GraphQLError, type ValidationRule } from 'graphql';
import { isRefusal, refusal, type RefusalReason } from './refusals.ts';
import type { GraphQLProtections } from './settings.ts';

/** Armor reports "Syntax Error: Query depth limit of 15 exceeded, found 31."; keep the sentence, add the reason. */
function reportAs(reason: RefusalReason, limit: number): GraphQLArmorRejectCallback {
  return (context, error) => context?.reportError(refusal(reason, error.message.replace(/^Syntax Error: /, ''), limit));
}

function armorRules(p: GraphQLProtections): ValidationRule[] {
  const reject = { propagateOnRejection: false, exposeLimits: true };
  return new ApolloArmor({
    // Depth counts fields, not fragment spreads, and covers introspection too (armor skips it by default).
    maxDepth: {
      ...reject,
      n: p.maxDepth,
      ignoreIntrospection: false,
      flattenFragments: true,
      onReject: [reportAs('MAX_DEPTH', p.maxDepth)],
    },
    maxAliases: { ...reject, n: p.maxAliases, onReject: [reportAs('MAX_ALIASES', p.maxAliases)] },
    maxDirectives: { ...reject, n: p.maxDirectives, onReject: [reportAs('MAX_DIRECTIVES', p.maxDirectives)] },
    // Tokens are counted before Apollo parses (document-gate.ts); cost depends on variables (cost.ts);
    // suggestions are removed from every error, not only validation ones (server.ts).
    maxTokens: { enabled: false },
    costLimit: { enabled: false },
    blockFieldSuggestion: { enabled: false },
  }).protect().validationRules;
}

/** Our own rule rather than Apollo's, whose message tells clients how to configure Apollo Server. */
const noIntrospection: ValidationRule = (context) => ({
  Field(node) {
    if (node.name.value === '__schema' || node.name.value === '__type') {
      context.reportError(refusal('INTROSPECTION_DISABLED', 'Introspection is disabled on this server.'));
    }
  },
});

export function documentRules(p: GraphQLProtections): ValidationRule[] {
  return [...armorRules(p), ...(p.introspection ? [] : [noIntrospection])];
}

/** graphql's own limits, whose messages say little to a client: each gets a reason and a plainer sentence. */
const graphqlLimits = new Map<string, () => GraphQLError>([
  [
    'Maximum introspection depth exceeded',
    () =>
      refusal(
        'MAX_INTROSPECTION_DEPTH',
        'Introspection nests fields, inputFields, interfaces or possibleTypes three levels deep; two is the limit.',
      ),
  ],
  // The overlapping-fields check stops after a fixed amount of work (graphql 16.15): the same fields asked too often.
  [
    'Validation aborted.',
    () => refusal('MAX_VALIDATION_WORK', 'This document repeats the same fields too often to be checked; send a smaller one.'),
  ],
]);

/** Gives graphql's own limits their reason and, when a limit refused the document, keeps only the refusals (in place). */
export function putRefusalsFirst(list: GraphQLError[]): void {
  list.forEach((error, i) => {
    const replacement = graphqlLimits.get(error.message);
    if (replacement) list[i] = replacement();
  });
  const refusals = list.filter(isRefusal);
  if (refusals.length > 0) list.splice(0, list.length, ...refusals);
}

/**
 * When a limit refused the document, its refusal is the whole answer: a flood of 1,000 directives would
 * otherwise come back with a hundred "used twice" errors around it. graphql's own limits get their reason
 * here. Apollo answers with this very array, so it is edited in place.
 */
export function refusalsFirst(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async validationDidStart() {
          return async (errors?: ReadonlyArray<Error>) => {
            // Validation reports GraphQLErrors only.
            if (errors?.length) putRefusalsFirst(errors as GraphQLError[]);
          };
        },
      };
    },
  };
}
