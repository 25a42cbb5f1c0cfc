/**
 * What other teams' subgraphs rely on in Tessera's subgraph SDL (`_service { sdl }`): its entities and
 * each of their `@key`s, with the types of the key fields. A subgraph that extends `Booking` by `uuid`
 * stops composing when Tessera drops that key, the entity, or changes the key field's type. Two checks,
 * both against a baseline (contract/subgraph/<version>.graphql): every baseline key is still there, and
 * the newer SDL composes with a subgraph holding every baseline key, as those teams' subgraphs do
 * (@apollo/composition), so what composition alone refuses is caught too.
 */
import { composeServices } from '@apollo/composition';
import { Kind, parse, print, type DocumentNode, type ObjectTypeDefinitionNode } from 'graphql';
import type { ContractChange } from './change.ts';

/** An entity's keys (the `fields` of each resolvable `@key`) and the type of each key field. */
interface Entity {
  keys: string[];
  fieldTypes: Map<string, string>;
}

function stringArgument(node: ObjectTypeDefinitionNode['directives'], directive: number, name: string): unknown {
  const argument = node?.[directive]?.arguments?.find((a) => a.name.value === name);
  if (!argument) return undefined;
  const value = argument.value;
  return value.kind === Kind.STRING ? value.value : value.kind === Kind.BOOLEAN ? value.value : undefined;
}

/** The entities of a subgraph SDL, by type name. */
export function entitiesOf(sdl: string | DocumentNode): Map<string, Entity> {
  const document = typeof sdl === 'string' ? parse(sdl) : sdl;
  const entities = new Map<string, Entity>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
    const keys = (definition.directives ?? [])
      .map((directive, i) => ({ directive, i }))
      .filter(({ directive, i }) => directive.name.value === 'key' && stringArgument(definition.directives, i, 'resolvable') !== false)
      .map(({ i }) => String(stringArgument(definition.directives, i, 'fields')));
    if (keys.length === 0) continue;
    const fieldTypes = new Map((definition.fields ?? []).map((field) => [field.name.value, print(field.type)]));
    entities.set(definition.name.value, { keys, fieldTypes });
  }
  return entities;
}

const keyFields = (key: string) => key.split(/\s+/).filter(Boolean);

/**
 * A subgraph holding every key of `baseline` as another team's would: each entity keyed by each of its
 * keys, with a field of its own and a root field answering it, so composition needs Tessera to resolve
 * each key. Key fields of a nested selection (`a { b }`) are not used by Tessera and not modelled.
 */
export function consumerOf(baseline: Map<string, Entity>): string {
  const scalars = new Set<string>();
  const types = [...baseline].map(([name, entity]) => {
    const fields = [...new Set(entity.keys.flatMap(keyFields))].map((field) => {
      const type = entity.fieldTypes.get(field) ?? 'ID!';
      const named = type.replace(/[[\]!]/g, '');
      if (!['ID', 'String', 'Int', 'Float', 'Boolean'].includes(named)) scalars.add(named);
      return `  ${field}: ${type}`;
    });
    const keys = entity.keys.map((key) => `@key(fields: ${JSON.stringify(key)})`).join(' ');
    return `type ${name} ${keys} {\n${fields.join('\n')}\n  consumer${name}: Int\n}`;
  });
  return [
    'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])',
    ...[...scalars].map((scalar) => `scalar ${scalar}`),
    ...types,
    `type Query {\n${[...baseline.keys()].map((name) => `  consumer${name}s: [${name}]`).join('\n')}\n}`,
  ].join('\n\n');
}

/** Why subgraphs that rely on `older` would no longer compose with `newer`: BREAKING changes, none when they would. */
export function subgraphChanges(older: string, newer: string): ContractChange[] {
  const baseline = entitiesOf(older);
  const current = entitiesOf(newer);
  const changes: ContractChange[] = [];
  for (const [name, entity] of baseline) {
    const now = current.get(name);
    if (!now) {
      changes.push({ criticality: 'BREAKING', path: name, message: `Entity ${name} was removed (it has no @key any more)` });
      continue;
    }
    for (const key of entity.keys) {
      if (!now.keys.includes(key)) {
        changes.push({ criticality: 'BREAKING', path: `${name} @key(fields: "${key}")`, message: `Key "${key}" of ${name} was removed` });
        continue;
      }
      for (const field of keyFields(key)) {
        const [was, is] = [entity.fieldTypes.get(field), now.fieldTypes.get(field)];
        if (was !== is) {
          changes.push({
            criticality: 'BREAKING',
            path: `${name}.${field}`,
            message: `Key field ${name}.${field} changed from ${was} to ${is}`,
          });
        }
      }
    }
  }
  const composed = composeServices([
    { name: 'tessera', url: 'http://tessera.invalid/graphql', typeDefs: parse(newer) },
    { name: 'consumer', url: 'http://consumer.invalid/graphql', typeDefs: parse(consumerOf(baseline)) },
  ]);
  for (const error of composed.errors ?? []) {
    changes.push({
      criticality: 'BREAKING',
      path: 'composition',
      message: `A subgraph using the baseline's keys no longer composes: ${error.message}`,
    });
  }
  return changes;
}
