import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { checkOperation } from '../../../src/graphql/protections/document-gate.ts';
import { graphqlProtections } from '../../../src/graphql/protections/settings.ts';

const defaults = graphqlProtections(loadConfig({}));
const withMaxTokens = (max: number) => ({ ...defaults, maxTokens: max });

describe('the document gate', () => {
  // `{ a b c d e }`: 7 tokens; a document seen once is not lexed again, its count kept whole.
  const query = '{ a b c d e }';

  it('counts a document seen before against each limit as the first time', () => {
    expect(checkOperation(withMaxTokens(7), { query })).toBeNull();
    expect(checkOperation(withMaxTokens(6), { query })?.extensions).toMatchObject({ reason: 'MAX_TOKENS', limit: 6 });
    expect(checkOperation(withMaxTokens(7), { query })).toBeNull();
    expect(checkOperation(withMaxTokens(100), { query: `${query} ` })).toBeNull();
    expect(checkOperation(withMaxTokens(6), { query: `${query} ` })?.extensions).toMatchObject({ reason: 'MAX_TOKENS' });
  });

  it('leaves a document it cannot lex to Apollo, every time', () => {
    expect(checkOperation(withMaxTokens(3), { query: '{ a "unterminated' })).toBeNull();
    expect(checkOperation(withMaxTokens(3), { query: '{ a "unterminated' })).toBeNull();
  });
});
