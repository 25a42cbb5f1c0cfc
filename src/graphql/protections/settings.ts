/**
 * The GraphQL protections a server runs with: the configuration (src/config.ts), overridden by
 * `buildApp`'s `graphql` option, each falling back to its documented default (defaults.ts).
 */
import type { Config } from '../../config.ts';
import { graphqlDefaults } from './defaults.ts';
import { loadTrustedDocuments, type TrustedDocuments } from './trusted-documents.ts';

type GraphQLConfigKey =
  | 'GRAPHQL_MAX_DEPTH'
  | 'GRAPHQL_MAX_ALIASES'
  | 'GRAPHQL_MAX_DIRECTIVES'
  | 'GRAPHQL_MAX_TOKENS'
  | 'GRAPHQL_MAX_DOCUMENT_BYTES'
  | 'GRAPHQL_MAX_COST'
  | 'GRAPHQL_SECRET_KEY_MAX_COST'
  | 'GRAPHQL_MAX_RESPONSE_BYTES'
  | 'GRAPHQL_INTROSPECTION'
  | 'GRAPHQL_TRUSTED_DOCUMENTS'
  | 'GRAPHQL_ROUTER_TOKEN';

/** What the GraphQL face reads from the configuration. */
export type GraphQLConfig = Pick<Config, 'production'> & Partial<Pick<Config, GraphQLConfigKey>>;

export interface GraphQLProtections {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  maxDocumentBytes: number;
  /** Cost budget of a publishable key, or of a request without a key (cost.ts). */
  maxCost: number;
  /** Cost budget of a secret key (a brand's or an organization's). */
  secretKeyMaxCost: number;
  /** Bytes of a query's answer (response-size.ts). */
  maxResponseBytes: number;
  /** Introspection and "Did you mean ...?" suggestions: both reveal the schema, so one switch rules both. */
  introspection: boolean;
  /** When set, only these operations run (trusted documents mode). */
  trustedDocuments: TrustedDocuments | null;
  /** The supergraph router's `Tessera-Router-Token` (router.ts); null: no request is the router's. */
  routerToken: string | null;
}

/** `buildApp`'s `graphql` option: anything set here wins over the configuration (tests use it). */
export type GraphQLAppOptions = Partial<Omit<GraphQLProtections, 'trustedDocuments'>> & {
  /** Path of an Apollo persisted query manifest, as GRAPHQL_TRUSTED_DOCUMENTS. */
  trustedDocumentsFile?: string;
  /**
   * `graphql-js`: Apollo Server runs operations itself, without the compiled executor (server.ts). Only the
   * tests that compare the compiled executor's answers with graphql-js's set it.
   */
  executor?: GraphQLExecutorKind;
};

export type GraphQLExecutorKind = 'compiled' | 'graphql-js';

/** Throws a ConfigError when the trusted documents manifest cannot be used. */
export function graphqlProtections(config: GraphQLConfig, options: GraphQLAppOptions = {}): GraphQLProtections {
  const { trustedDocumentsFile, executor: _, ...overrides } = options;
  const manifest = trustedDocumentsFile ?? config.GRAPHQL_TRUSTED_DOCUMENTS;
  return {
    maxDepth: config.GRAPHQL_MAX_DEPTH ?? graphqlDefaults.maxDepth,
    maxAliases: config.GRAPHQL_MAX_ALIASES ?? graphqlDefaults.maxAliases,
    maxDirectives: config.GRAPHQL_MAX_DIRECTIVES ?? graphqlDefaults.maxDirectives,
    maxTokens: config.GRAPHQL_MAX_TOKENS ?? graphqlDefaults.maxTokens,
    maxDocumentBytes: config.GRAPHQL_MAX_DOCUMENT_BYTES ?? graphqlDefaults.maxDocumentBytes,
    maxCost: config.GRAPHQL_MAX_COST ?? graphqlDefaults.maxCost,
    secretKeyMaxCost: config.GRAPHQL_SECRET_KEY_MAX_COST ?? graphqlDefaults.secretKeyMaxCost,
    maxResponseBytes: config.GRAPHQL_MAX_RESPONSE_BYTES ?? graphqlDefaults.maxResponseBytes,
    introspection: config.GRAPHQL_INTROSPECTION ?? !config.production,
    routerToken: config.GRAPHQL_ROUTER_TOKEN ?? null,
    ...overrides,
    trustedDocuments: manifest ? loadTrustedDocuments(manifest) : null,
  };
}
