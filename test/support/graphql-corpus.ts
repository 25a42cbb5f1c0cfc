/**
 * A corpus of GraphQL documents as clients send them, for comparing executors: every document written
 * out whole (no `${...}` in it) in the test suite, the example clients, the booking page, the bench's
 * documents and fixtures, that is valid against the schema; and the variables to run each with, chosen
 * by the argument each variable is passed to, so the documents read real objects of the demo data.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  Kind,
  parse,
  TypeInfo,
  typeFromAST,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

const root = join(import.meta.dirname, '../..');
const places = ['test', 'examples', 'fixtures', 'bench'];

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === '__generated__') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|js)$/.test(name)) yield path;
  }
}

export interface CorpusDocument {
  /** Where it was found, relative to the repository. */
  source: string;
  text: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

/** The valid documents of one kind of operation, each once. */
export function graphqlCorpus(schema: GraphQLSchema, kind: 'query' | 'mutation' | 'subscription'): CorpusDocument[] {
  const seen = new Set<string>();
  const corpus: CorpusDocument[] = [];
  for (const place of places) {
    for (const file of sourceFiles(join(root, place))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/`([^`]*)`/g)) {
        const text = match[1]!;
        if (text.includes('${') || !/^\s*(query|mutation|subscription|\{)/.test(text)) continue;
        let document: DocumentNode;
        try {
          document = parse(text);
        } catch {
          continue;
        }
        const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
        if (operations.length !== 1 || operations[0]!.operation !== kind || validate(schema, document).length > 0) continue;
        const key = text.replace(/\s+/g, ' ').trim();
        if (seen.has(key)) continue;
        seen.add(key);
        corpus.push({ source: file.slice(root.length + 1), text, document, operation: operations[0]! });
      }
    }
  }
  return corpus;
}

/** The objects the variables name. */
export interface CorpusWorld {
  brandId: string;
  organizationId: string;
  experienceId: string;
  bookingId: string;
  cartId: string;
  waitlistId: string;
  endpointId: string;
  from: string;
  to: string;
  /** Global ids: `node(id:)` gets the first, `nodes(ids:)` all of them. */
  globalIds: string[];
  /** `_entities` representations. */
  representations: unknown[];
}

/** The value of a UUID passed to `field(arg: $variable)`. */
function uuidFor(world: CorpusWorld, field: string, arg: string): string {
  const byArgument: Record<string, string> = {
    brandId: world.brandId,
    experienceId: world.experienceId,
    cartId: world.cartId,
    bookingId: world.bookingId,
    endpointId: world.endpointId,
  };
  if (byArgument[arg]) return byArgument[arg];
  const byField: Record<string, string> = {
    booking: world.bookingId,
    organization: world.organizationId,
    waitlist: world.waitlistId,
  };
  return byField[field] ?? world.experienceId;
}

function valueFor(world: CorpusWorld, type: GraphQLInputType, field: string, arg: string): unknown {
  const nullable = getNullableType(type);
  const named = getNamedType(type);
  if (isListType(nullable)) {
    if (named.name === 'ID') return world.globalIds;
    if (named.name === '_Any') return world.representations;
    const item = valueFor(world, nullable.ofType, field, arg);
    return item === undefined ? undefined : [item];
  }
  if (isEnumType(named)) return named.getValues()[0]!.name;
  switch (named.name) {
    case 'UUID':
      return uuidFor(world, field, arg);
    case 'ID':
      return world.globalIds[0];
    case 'LocalDate':
      return arg === 'to' ? world.to : world.from;
    case 'Int':
      return 5;
    case 'Boolean':
      return true;
    case 'Locale':
      return 'pt';
    default:
      return undefined;
  }
}

/** Variables for each of the operation's variables that can be chosen; the others are left out. */
export function corpusVariables(schema: GraphQLSchema, entry: CorpusDocument, world: CorpusWorld): Record<string, unknown> {
  const usage = new Map<string, { field: string; arg: string }>();
  const typeInfo = new TypeInfo(schema);
  visit(
    entry.document,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        if (node.value.kind !== Kind.VARIABLE) return;
        const field = typeInfo.getFieldDef()?.name ?? '';
        usage.set(node.value.name.value, { field, arg: node.name.value });
      },
    }),
  );
  const variables: Record<string, unknown> = {};
  for (const definition of entry.operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    if (!type) continue;
    const { field, arg } = usage.get(name) ?? { field: '', arg: name };
    const value = valueFor(world, type, field, arg);
    if (value !== undefined) variables[name] = value;
  }
  return variables;
}
