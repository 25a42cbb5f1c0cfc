/**
 * What changed between two GraphQL SDLs, as clients feel it: @graphql-inspector/core's `diff`, with the
 * deprecate-first path. A field, input field, enum value or argument that the older schema already marked
 * `@deprecated` may be removed: clients were told. Without that mark its removal stays BREAKING.
 */
import { type Change, ChangeType, CriticalityLevel, diff, DiffRule, type Rule } from '@graphql-inspector/core';
import { buildSchema, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import type { ContractChange } from './change.ts';

/** Inspector's rule below leaves arguments out; graphql 16 lets them be deprecated too. */
const suppressRemovalOfDeprecatedArgument: Rule = ({ changes, oldSchema }) =>
  changes.map((change) => {
    if (change.type !== ChangeType.FieldArgumentRemoved || change.criticality.level !== CriticalityLevel.Breaking) return change;
    const meta = (change as Change<typeof ChangeType.FieldArgumentRemoved>).meta;
    const type = oldSchema?.getType(meta.typeName);
    const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[meta.fieldName] : undefined;
    const argument = field?.args.find((a) => a.name === meta.removedFieldArgumentName);
    if (!argument?.deprecationReason) return change;
    return { ...change, criticality: { ...change.criticality, level: CriticalityLevel.Dangerous } };
  });

/**
 * Inspector's own rule covers fields, input fields and enum values. It also turns every TYPE_REMOVED into
 * DANGEROUS: a type is only reached through a field, an argument, an interface or a union, and each of
 * those is a change reported on its own (a field or argument still using the type is BREAKING when it
 * goes or changes type; a union member or interface implementation removed is DANGEROUS in inspector's
 * classification), so nothing breaking is lost.
 */
const deprecateFirst = [DiffRule.suppressRemovalOfDeprecatedField, suppressRemovalOfDeprecatedArgument];

export async function graphqlChanges(older: GraphQLSchema | string, newer: GraphQLSchema | string): Promise<ContractChange[]> {
  const schema = (s: GraphQLSchema | string) => (typeof s === 'string' ? buildSchema(s) : s);
  const changes = await diff(schema(older), schema(newer), deprecateFirst);
  return changes
    .filter((c) => c.criticality.level !== CriticalityLevel.NonBreaking)
    .map((c) => ({
      criticality: c.criticality.level === CriticalityLevel.Breaking ? 'BREAKING' : 'DANGEROUS',
      // A change without a path is one of the schema's root types changing: the message names it.
      path: c.path ?? c.message,
      message: c.message,
    }));
}
