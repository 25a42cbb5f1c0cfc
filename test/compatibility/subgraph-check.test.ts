/**
 * Other teams' subgraphs keep composing with Tessera's. The subgraph SDL `_service { sdl }` publishes is
 * compared with the newest baseline (contract/subgraph/): every entity and key there must still be there,
 * with its key fields' types, and the SDL must compose with a subgraph holding every baseline key. The
 * check must fail on deliberately breaking edits (made on a copy in memory) and let additions through.
 */
import { Kind, parse, print, visit, type ObjectTypeDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { packageVersion, readSubgraphBaseline, subgraphBaselineFor } from '../../src/cli/contract/baselines.ts';
import { currentSubgraphSdl } from '../../src/cli/contract/current.ts';
import { entitiesOf, subgraphChanges } from '../../src/cli/contract/subgraph-changes.ts';

const version = packageVersion();
const current = await currentSubgraphSdl();

/** The SDL with one object type's definition edited. */
const editType = (sdl: string, typeName: string, edit: (node: ObjectTypeDefinitionNode) => ObjectTypeDefinitionNode) =>
  print(visit(parse(sdl), { ObjectTypeDefinition: (node) => (node.name.value === typeName ? edit(node) : undefined) }));

/** The one type of a one-line SDL, to borrow its fields' types or directives. */
const sample = (source: string) => parse(source).definitions[0] as ObjectTypeDefinitionNode;

const withoutKey = (typeName: string, fields: string | null) =>
  editType(current, typeName, (node) => ({
    ...node,
    directives: node.directives?.filter(
      (d) =>
        d.name.value !== 'key' || (fields !== null && !d.arguments?.some((a) => a.value.kind === Kind.STRING && a.value.value === fields)),
    ),
  }));

const messages = (older: string, newer: string) => subgraphChanges(older, newer).map(({ path, message }) => `${path}: ${message}`);

describe(`the subgraph SDL (package.json's version ${version})`, () => {
  it('keeps every entity and key of the newest subgraph baseline, and composes with subgraphs that use them', () => {
    const baseline = subgraphBaselineFor(version);
    expect(baseline, 'contract/subgraph/ has a baseline (npm run contract:release)').toBeDefined();
    expect(messages(readSubgraphBaseline(baseline!), current), 'deprecate first, or release it (docs/supergraph.md)').toEqual([]);
  });

  it('publishes the entities and keys other teams hold', () => {
    const entities = entitiesOf(current);
    expect(Object.fromEntries([...entities].map(([name, e]) => [name, e.keys]))).toEqual({
      Booking: ['id', 'uuid'],
      BrandSettings: ['id', 'uuid'],
      Experience: ['id', 'uuid contentLanguage', 'uuid'],
      Listing: ['id'],
      Review: ['id', 'uuid'],
      Session: ['id', 'uuid'],
    });
  });
});

describe('the subgraph check', () => {
  it('finds nothing between the SDL and itself, nor when an entity or key is added', () => {
    expect(messages(current, current)).toEqual([]);
    const added = editType(current, 'Booking', (node) => ({
      ...node,
      directives: [...(node.directives ?? []), ...sample('type T @key(fields: "confirmationCode") { a: Int }').directives!],
    }));
    expect(messages(current, added)).toEqual([]);
  });

  it('fails on a removed key', () => {
    expect(messages(current, withoutKey('Booking', 'uuid'))).toEqual([
      'Booking @key(fields: "uuid"): Key "uuid" of Booking was removed',
      expect.stringMatching(/^composition: A subgraph using the baseline's keys no longer composes: /),
    ]);
  });

  it('fails on a removed entity', () => {
    const changes = messages(current, withoutKey('Review', null));
    expect(changes[0]).toBe('Review: Entity Review was removed (it has no @key any more)');
    expect(changes.slice(1).every((c) => c.startsWith('composition: '))).toBe(true);
  });

  it('fails on a key field whose type changed', () => {
    const changed = editType(current, 'Session', (node) => ({
      ...node,
      fields: node.fields?.map((f) => (f.name.value === 'uuid' ? { ...f, type: sample('type T { a: String! }').fields![0]!.type } : f)),
    }));
    expect(messages(current, changed)[0]).toBe('Session.uuid: Key field Session.uuid changed from UUID! to String!');
  });
});
