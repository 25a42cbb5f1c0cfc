import { buildSchema, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { fromGlobalId, keyParts, toGlobalId } from '../../../src/graphql/global-ids.ts';
import { resolvers } from '../../../src/graphql/resolvers/index.ts';
import { readers } from '../../../src/graphql/resolvers/nodes.ts';
import { loadTypeDefs } from '../../../src/graphql/server.ts';

/**
 * A type added with an `id` but without its resolvers would answer the raw id, which another type may share:
 * the caches this exists for would merge two objects again, silently. The schema and the resolvers must agree.
 */
describe('global ids in the schema', () => {
  const schema = buildSchema(loadTypeDefs());
  const objects = Object.values(schema.getTypeMap()).filter((t) => isObjectType(t) && !t.name.startsWith('__'));
  const fieldResolvers = resolvers as Record<string, Record<string, unknown> | undefined>;

  it('every object type with an id answers a global one, and its raw id as uuid or key', () => {
    const missing: string[] = [];
    for (const type of objects) {
      if (!isObjectType(type)) continue;
      const fields = type.getFields();
      if (!fields.id) continue;
      if (String(fields.id.type) !== 'ID!') missing.push(`${type.name}.id is ${String(fields.id.type)}`);
      if (typeof fieldResolvers[type.name]?.id !== 'function') missing.push(`${type.name}.id has no resolver`);
      for (const raw of ['uuid', 'key'] as const) {
        if (fields[raw] && typeof fieldResolvers[type.name]?.[raw] !== 'function') missing.push(`${type.name}.${raw} has no resolver`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('node(id:) reads every type that implements Node, and only those', () => {
    const nodeTypes = schema.getPossibleTypes(schema.getType('Node') as never).map((t) => t.name);
    expect(Object.keys(readers).sort()).toEqual([...nodeTypes].sort());
  });

  it('decodes what it encodes, and nothing else', () => {
    const id = toGlobalId('Experience', '6f1c0a52-3d4e-4c1a-9b7e-0b0000000001:18be18fe-251f-5b2a-8c23-ac204fcc8c79:pt-BR');
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(fromGlobalId(id)).toEqual({
      type: 'Experience',
      key: '6f1c0a52-3d4e-4c1a-9b7e-0b0000000001:18be18fe-251f-5b2a-8c23-ac204fcc8c79:pt-BR',
    });
    for (const bad of [
      '',
      'not base64!',
      '6f1c0a52-3d4e-4c1a-9b7e-0b0000000001',
      Buffer.from('no colon').toString('base64url'),
      'A'.repeat(600),
    ]) {
      expect(fromGlobalId(bad)).toBeNull();
    }
    // Padding or another spelling of the same bytes is not an id Tessera issued.
    expect(fromGlobalId(`${id}=`)).toBeNull();
  });

  it('encodes keys outside ASCII and keys of any length as their UTF-8 bytes, each id on its own', () => {
    const keys = [
      'Vibe:pôr-do-sol',
      'Category:東京',
      `Media:${'é'.repeat(300)}`,
      `Media:${'é'.repeat(340)}`,
      `Media:${'x'.repeat(1100)}`,
      'Purchaser:😀',
    ];
    for (const typed of keys) {
      const colon = typed.indexOf(':');
      expect(toGlobalId(typed.slice(0, colon), typed.slice(colon + 1))).toBe(Buffer.from(typed).toString('base64url'));
    }
    expect(toGlobalId('Vibe', 'pôr-do-sol')).toBe('VmliZTpww7RyLWRvLXNvbA');
  });

  it('reads keys only in the grammar of their type: known languages, listing versions that exist', () => {
    const brand = '6f1c0a52-3d4e-4c1a-9b7e-0b0000000001';
    const experience = '18be18fe-251f-5b2a-8c23-ac204fcc8c79';
    expect(keyParts('Experience', `${brand}:${experience}:pt-BR`)).toEqual([brand, experience, 'pt-BR']);
    expect(keyParts('Listing', `${brand}:${experience}:draft:unlisted:ja`)).toEqual([brand, experience, 'draft', 'unlisted', 'ja']);
    for (const [type, key] of [
      ['Experience', `${brand}:${experience}:xx`],
      ['Experience', `${brand}:${experience}:forged`],
      ['Experience', `${brand}:${experience}:en:extra`],
      ['Experience', `${brand}:not-a-uuid:en`],
      ['Listing', `${brand}:${experience}:stale:listed:en`],
      ['Listing', `${brand}:${experience}:published:hidden:en`],
      ['Session', `${experience}:en`],
    ]) {
      expect(keyParts(type!, key!), key).toBeNull();
    }
    // Every type node(id:) reads has a grammar: without one, all its ids would be refused.
    const valid: Record<string, string> = {
      Experience: `${brand}:${experience}:en`,
      Listing: `${brand}:${experience}:published:listed:en`,
      Session: experience,
      Booking: experience,
      BrandSettings: brand,
      Organization: brand,
      Cart: `${brand}:${experience}`,
      Waitlist: `${brand}:${experience}`,
    };
    expect(Object.keys(valid).sort()).toEqual(Object.keys(readers).sort());
    for (const [type, key] of Object.entries(valid)) expect(keyParts(type, key), type).toEqual(key.split(':'));
  });
});
