import { isUnionType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { entityTypes } from '../../../src/graphql/resolvers/entities.ts';
import { buildTesseraSchema } from '../../../src/graphql/schema.ts';

/**
 * An entity without its own reference resolver would be answered as the representation the router sent,
 * fields and all, read by no domain function and so under no key's scope: every `@key` type needs one.
 */
describe('federation entities', () => {
  it('every type with a @key reads its references itself, and only those types are entities', () => {
    const schema = buildTesseraSchema();
    const entity = schema.getType('_Entity');
    if (!isUnionType(entity)) throw new Error('_Entity is not a union');
    const members = entity.getTypes();
    expect(members.map((t) => t.name).sort()).toEqual([...entityTypes].sort());
    for (const type of members) {
      const resolver = (type.extensions as { apollo?: { subgraph?: { resolveReference?: unknown } } }).apollo?.subgraph?.resolveReference;
      expect(typeof resolver, type.name).toBe('function');
    }
  });
});
