/**
 * Everything Apollo needs to refuse abusive documents before running them. The Fastify side (size,
 * tokens, trusted documents) is document-gate.ts; limits and their defaults are in settings.ts.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLFormattedError, ParseOptions, ValidationRule } from 'graphql';
import { costLimit } from './cost.ts';
import { serviceSdlForRouterOnly } from './router.ts';
import { documentRules, refusalsFirst } from './document-rules.ts';
import type { GraphQLProtections } from './settings.ts';
import { trustedDocumentsCache } from './trusted-documents.ts';

export interface ApolloProtections {
  validationRules: ValidationRule[];
  parseOptions: ParseOptions;
  plugins: ApolloServerPlugin[];
  persistedQueries: { cache?: ReturnType<typeof trustedDocumentsCache> };
}

export function apolloProtections(p: GraphQLProtections): ApolloProtections {
  return {
    validationRules: documentRules(p),
    // The gate counts tokens first; this stops the parser too should anything reach Apollo around it.
    parseOptions: { maxTokens: p.maxTokens },
    plugins: [refusalsFirst(), costLimit(p), ...(p.introspection ? [] : [serviceSdlForRouterOnly(p.routerToken)])],
    // Automatic persisted queries stay on; in trusted mode a hash alone finds its manifest body.
    persistedQueries: p.trustedDocuments ? { cache: trustedDocumentsCache(p.trustedDocuments) } : {},
  };
}

const suggestion = /\s*Did you mean [^?]*\?/g;

/** Removes "Did you mean ...?" (field, argument, type and enum value names) from an error's message. */
export function withoutSuggestions(error: GraphQLFormattedError): GraphQLFormattedError {
  const message = error.message.replace(suggestion, '');
  return message === error.message ? error : { ...error, message };
}
