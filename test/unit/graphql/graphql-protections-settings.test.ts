import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { graphqlProtections } from '../../../src/graphql/protections/settings.ts';

describe('GraphQL protection settings', () => {
  it('reads every limit from the environment, and buildApp options win over it', () => {
    const config = loadConfig({
      GRAPHQL_MAX_DEPTH: '12',
      GRAPHQL_MAX_ALIASES: '10',
      GRAPHQL_MAX_DIRECTIVES: '20',
      GRAPHQL_MAX_TOKENS: '1500',
      GRAPHQL_MAX_DOCUMENT_BYTES: '16384',
      GRAPHQL_MAX_COST: '2500',
      GRAPHQL_SECRET_KEY_MAX_COST: '250000',
      GRAPHQL_MAX_RESPONSE_BYTES: '1048576',
      GRAPHQL_INTROSPECTION: 'false',
      GRAPHQL_ROUTER_TOKEN: 'router-token-0123456789abcdef0123456789abcdef',
    });
    expect(graphqlProtections(config)).toEqual({
      maxDepth: 12,
      maxAliases: 10,
      maxDirectives: 20,
      maxTokens: 1500,
      maxDocumentBytes: 16_384,
      maxCost: 2500,
      secretKeyMaxCost: 250_000,
      maxResponseBytes: 1_048_576,
      introspection: false,
      trustedDocuments: null,
      routerToken: 'router-token-0123456789abcdef0123456789abcdef',
    });
    expect(graphqlProtections(config, { maxCost: 100, introspection: true })).toMatchObject({
      maxCost: 100,
      introspection: true,
      maxDepth: 12,
    });
  });

  it('names a bad limit', () => {
    expect(() => loadConfig({ GRAPHQL_MAX_DEPTH: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ GRAPHQL_MAX_COST: 'lots' })).toThrow(/GRAPHQL_MAX_COST: .* \(got "lots"\)/);
    expect(() => loadConfig({ GRAPHQL_MAX_RESPONSE_BYTES: '1000' })).toThrow(/GRAPHQL_MAX_RESPONSE_BYTES/);
    expect(() => loadConfig({ GRAPHQL_INTROSPECTION: 'yes' })).toThrow(/GRAPHQL_INTROSPECTION/);
    expect(() => loadConfig({ GRAPHQL_ROUTER_TOKEN: 'short' })).toThrow(/GRAPHQL_ROUTER_TOKEN: must be 32 to 256 characters/);
  });

  it('reads the trusted documents manifest at start', () => {
    const config = loadConfig({ GRAPHQL_TRUSTED_DOCUMENTS: '/nonexistent/manifest.json' });
    expect(config.GRAPHQL_TRUSTED_DOCUMENTS).toBe('/nonexistent/manifest.json');
    expect(() => graphqlProtections(config)).toThrow(ConfigError);
  });
});
