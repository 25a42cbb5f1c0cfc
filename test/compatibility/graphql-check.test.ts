/**
 * The GraphQL compatibility check itself: it must fail on a deliberately breaking edit of the schema
 * Tessera serves (made on a copy in memory) and let what the baseline deprecated go. The edits pick their
 * targets from the current schema, so they keep working as the schema changes.
 */
import {
  buildSchema,
  isNonNullType,
  isObjectType,
  Kind,
  parse,
  print,
  visit,
  type FieldDefinitionNode,
  type GraphQLField,
  type InputValueDefinitionNode,
  type ObjectTypeDefinitionNode,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { currentGraphQLSdl } from '../../src/cli/contract/current.ts';
import { graphqlChanges } from '../../src/cli/contract/graphql-changes.ts';

const sdl = currentGraphQLSdl();
const schema = buildSchema(sdl);
const query = schema.getQueryType()!;
const queryFields = Object.values(query.getFields());

/** The SDL with one object type's fields edited. */
function editFields(typeName: string, edit: (fields: readonly FieldDefinitionNode[]) => FieldDefinitionNode[]): string {
  return print(
    visit(parse(sdl), {
      ObjectTypeDefinition: (node: ObjectTypeDefinitionNode) =>
        node.name.value === typeName ? { ...node, fields: edit(node.fields ?? []) } : undefined,
    }),
  );
}

/** A field or argument of a one-line SDL, to borrow its type or directives. */
const sample = (source: string) => (parse(source).definitions[0] as ObjectTypeDefinitionNode).fields![0]!;
const deprecated = sample('type T { f(a: Int @deprecated(reason: "Use b")): Int @deprecated(reason: "Use g") }');
const deprecate = (typeName: string, fieldName: string) =>
  editFields(typeName, (fields) =>
    fields.map((f) => (f.name.value === fieldName ? { ...f, directives: [...(f.directives ?? []), ...deprecated.directives!] } : f)),
  );
/** The SDL with one argument of a Query field edited (undefined: removed). */
const editArgument = (
  source: string,
  fieldName: string,
  argumentName: string,
  edit: (a: InputValueDefinitionNode) => InputValueDefinitionNode | undefined,
) =>
  print(
    visit(parse(source), {
      ObjectTypeDefinition: (node: ObjectTypeDefinitionNode) =>
        node.name.value !== 'Query'
          ? undefined
          : {
              ...node,
              fields: node.fields?.map((f) =>
                f.name.value !== fieldName
                  ? f
                  : { ...f, arguments: f.arguments?.flatMap((a) => (a.name.value === argumentName ? (edit(a) ?? []) : [a])) },
              ),
            },
    }),
  );
const remove = (source: string, typeName: string, fieldName: string) =>
  print(
    visit(parse(source), {
      ObjectTypeDefinition: (node: ObjectTypeDefinitionNode) =>
        node.name.value === typeName ? { ...node, fields: node.fields?.filter((f) => f.name.value !== fieldName) } : undefined,
    }),
  );

const breaking = async (older: string, newer: string) =>
  (await graphqlChanges(older, newer)).filter((c) => c.criticality === 'BREAKING').map(({ path, message }) => ({ path, message }));

describe('the GraphQL check', () => {
  it('finds nothing between the served schema and itself', async () => {
    expect(await graphqlChanges(sdl, sdl)).toEqual([]);
  });

  it('fails on a removed field', async () => {
    const field = queryFields[0]!.name;
    expect(await breaking(sdl, remove(sdl, 'Query', field))).toEqual([
      { path: `Query.${field}`, message: `Field '${field}' was removed from object type 'Query'` },
    ]);
  });

  it('fails on an argument whose type changed', async () => {
    const field = queryFields.find((f) => f.args.length > 0)!;
    const argument = field.args[0]!;
    const other = String(argument.type) === 'Int!' ? 'String!' : 'Int!';
    const edited = editArgument(sdl, field.name, argument.name, (a) => ({
      ...a,
      type: sample(`type T { f(a: ${other}): Int }`).arguments![0]!.type,
    }));
    expect(await breaking(sdl, edited)).toEqual([
      {
        path: `Query.${field.name}.${argument.name}`,
        message: `Type for argument '${argument.name}' on field 'Query.${field.name}' changed from '${String(argument.type)}' to '${other}'`,
      },
    ]);
  });

  it('fails on an output field made nullable', async () => {
    const [typeName, field] = nonNullOutputField();
    const edited = editFields(typeName, (fields) =>
      fields.map((f) => (f.name.value === field.name && f.type.kind === Kind.NON_NULL_TYPE ? { ...f, type: f.type.type } : f)),
    );
    expect(await breaking(sdl, edited)).toEqual([
      {
        path: `${typeName}.${field.name}`,
        message: `Field '${typeName}.${field.name}' changed type from '${String(field.type)}' to '${String(field.type).slice(0, -1)}'`,
      },
    ]);
  });

  it('lets a field the baseline deprecated go, as DANGEROUS', async () => {
    const field = queryFields[0]!.name;
    const baseline = deprecate('Query', field);
    expect(await graphqlChanges(baseline, remove(baseline, 'Query', field))).toEqual([
      {
        criticality: 'DANGEROUS',
        path: `Query.${field}`,
        message: `Field '${field}' (deprecated) was removed from object type 'Query'`,
      },
    ]);
  });

  it('lets an argument the baseline deprecated go, and holds one that was not', async () => {
    const field = queryFields.find((f) => f.args.some((a) => !isNonNullType(a.type)))!;
    const argument = field.args.find((a) => !isNonNullType(a.type))!.name;
    const withoutArgument = (source: string) => editArgument(source, field.name, argument, () => undefined);
    const baseline = editArgument(sdl, field.name, argument, (a) => ({
      ...a,
      directives: [...(a.directives ?? []), ...deprecated.arguments![0]!.directives!],
    }));
    const removal = {
      path: `Query.${field.name}.${argument}`,
      message: `Argument '${argument}: ${String(field.args.find((a) => a.name === argument)!.type)}' was removed from field 'Query.${field.name}'`,
    };
    expect(await graphqlChanges(baseline, withoutArgument(baseline))).toEqual([{ criticality: 'DANGEROUS', ...removal }]);
    expect(await breaking(sdl, withoutArgument(sdl))).toEqual([removal]);
  });
});

/** The first non-null field of an object type (not a root type): the kind of field a client relies on. */
function nonNullOutputField(): [string, GraphQLField<unknown, unknown>] {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || type === query || type === schema.getMutationType()) continue;
    const field = Object.values(type.getFields()).find((f) => isNonNullType(f.type));
    if (field) return [type.name, field];
  }
  throw new Error('The schema has no non-null output field');
}
