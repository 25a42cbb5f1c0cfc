/**
 * The cost budget, judged for every request because it depends on the variables (page sizes), which
 * Apollo's cache of validated documents knows nothing about; each parsed operation keeps its walks by the
 * values of the variables they read (`operationCost`). The rule, in the spirit of Shopify's and GitHub's
 * public APIs:
 * - each object a field returns costs 1; scalars and enums cost nothing (objects are what resolvers load);
 * - a field with a page size (`first` or `limit`, from literals, variables or the schema's default, capped
 *   at the domain's MAX_PAGE_SIZE since larger pages are refused anyway) multiplies the cost of what each
 *   item selects: on a connection, its `edges` list counts that many times;
 * - `nodes(ids:)` counts as a page of as many items as it names ids, and a router's `_entities(representations:)`
 *   as many as it sends representations (not capped: a router sends all of a plan's references at once);
 * - a list without a page size counts what it can return (list-sizes.ts): a date range's days times the
 *   sessions a day (`Experience.sessions(from, to)`), or the list's declared bound (an experience's
 *   pictures, a booking's participants), times what each item selects;
 * - `@skip`/`@include` are honoured, fragments are costed once per context (no exponential walk).
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { Principal } from '../../domain/access/principal.ts';
import type { GraphQLProtections } from './settings.ts';
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  type VariableDefinitionNode,
} from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/shared/pagination.ts';
import { listSizes } from './list-sizes.ts';
import { refusal } from './refusals.ts';

const pageSizeArguments = new Set(['first', 'limit']);
const listArguments = new Set(['ids', 'representations']);

type Variables = Record<string, unknown>;

function fieldDefinition(schema: GraphQLSchema, parent: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === '__schema' && parent === schema.getQueryType()) return SchemaMetaFieldDef;
  if (name === '__type' && parent === schema.getQueryType()) return TypeMetaFieldDef;
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

class CostWalk {
  private readonly fragmentCosts = new Map<string, number>();
  private readonly fragments = new Map<string, FragmentDefinitionNode>();

  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
    private readonly variables: Variables,
  ) {
    for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(def.name.value, def);
  }

  /** `page`: the page size of the connection this selection belongs to, for its list fields (`edges`). */
  selectionSet(set: SelectionSetNode, parent: GraphQLNamedType, page: number | null): number {
    let total = 0;
    for (const selection of set.selections) {
      if (!this.included(selection)) continue;
      if (selection.kind === Kind.FIELD) total += this.field(selection, parent, page);
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : parent;
        total += type ? this.selectionSet(selection.selectionSet, type, page) : 0;
      } else total += this.fragment(selection.name.value, page);
    }
    return total;
  }

  private fragment(name: string, page: number | null): number {
    const key = `${name}:${page}`;
    const known = this.fragmentCosts.get(key);
    if (known !== undefined) return known;
    const def = this.fragments.get(name);
    const type = def && this.schema.getType(def.typeCondition.name.value);
    if (!def || !type) return 0;
    this.fragmentCosts.set(key, 0); // a cycle (which validation refuses anyway) adds nothing
    const cost = this.selectionSet(def.selectionSet, type, page);
    this.fragmentCosts.set(key, cost);
    return cost;
  }

  private field(node: FieldNode, parent: GraphQLNamedType, page: number | null): number {
    const def = fieldDefinition(this.schema, parent, node.name.value);
    if (!def || !node.selectionSet) return 0;
    const type = getNamedType(def.type);
    const ownPage = this.pageSize(def, node);
    if (isListType(getNullableType(def.type))) {
      return (ownPage ?? this.listSize(parent, def, node, page)) * (1 + this.selectionSet(node.selectionSet, type, null));
    }
    return 1 + this.selectionSet(node.selectionSet, type, ownPage);
  }

  /** Items of a list the client does not size: its connection's page, or what list-sizes.ts declares. */
  private listSize(parent: GraphQLNamedType, def: GraphQLField<unknown, unknown>, node: FieldNode, page: number | null): number {
    // Introspection answers the schema's own types and fields: fixed, and read from memory.
    if (parent.name.startsWith('__')) return 1;
    const size = listSizes[`${parent.name}.${def.name}`];
    // A list added without a declared size (a unit test catches it first) counts as a full page.
    if (!size || size.kind === 'listed') return MAX_PAGE_SIZE;
    if (size.kind === 'page') return page ?? MAX_PAGE_SIZE;
    if (size.kind === 'bound') return size.items;
    try {
      return size.items(getArgumentValues(def, node, this.variables));
    } catch {
      return size.items({});
    }
  }

  private pageSize(def: GraphQLField<unknown, unknown>, node: FieldNode): number | null {
    // `nodes(ids:)` and `_entities(representations:)` answer one object per item: the list is their page.
    const listed = def.args.find((a) => listArguments.has(a.name));
    if (listed) {
      let items: unknown;
      try {
        items = getArgumentValues(def, node, this.variables)[listed.name];
      } catch {
        return MAX_PAGE_SIZE;
      }
      const count = Array.isArray(items) ? items.length : 1;
      return listed.name === 'ids' ? Math.min(count, MAX_PAGE_SIZE) : count;
    }
    const arg = def.args.find((a) => pageSizeArguments.has(a.name));
    if (!arg) return null;
    let value: unknown;
    try {
      value = getArgumentValues(def, node, this.variables)[arg.name];
    } catch {
      return MAX_PAGE_SIZE;
    }
    if (typeof value !== 'number') return DEFAULT_PAGE_SIZE;
    return Math.min(Math.max(Math.trunc(value), 0), MAX_PAGE_SIZE);
  }

  private included(node: SelectionNode): boolean {
    if (getDirectiveValues(GraphQLSkipDirective, node, this.variables)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, node, this.variables)?.if !== false;
  }
}

/**
 * A cost already walked for a parsed operation (Apollo reuses one per query text), with the values of the
 * variables the walk read. The walk decides only from what it reads, so any request whose values agree on
 * those variables has that cost: a page of reviews by `$first` is walked once per page size, and an
 * operation whose cost reads no variable (`experience(id: $id)`) once for every id.
 */
interface WalkedCost {
  reads: readonly string[];
  values: string;
  cost: number;
}

/** Walks kept per operation: a client varying a page size cannot grow them past this. */
const MAX_WALKS_KEPT = 16;
/** Per parsed operation: its kept walks, and every variable they read. */
const walkedCosts = new WeakMap<OperationDefinitionNode, { schema: GraphQLSchema; walks: WalkedCost[]; reads: Set<string> }>();

/**
 * The values of `names` in `variables`, as one comparable text: `[1, value]` for each given, `[0]` for each
 * absent (which an argument's default replaces, where a null does not); undefined when one cannot be written.
 */
function valuesOf(names: readonly string[], variables: Variables): string | undefined {
  try {
    return JSON.stringify(names.map((name) => (Object.hasOwn(variables, name) ? [1, variables[name]] : [0])));
  } catch {
    return undefined;
  }
}

/** `variables` noting each name read from it, as graphql-js reads them (indexing, and `hasOwnProperty`). */
function noting(variables: Variables, reads: Set<string>): Variables {
  const note = (name: string | symbol) => {
    if (typeof name === 'string') reads.add(name);
  };
  return new Proxy(variables, {
    get: (target, name) => (note(name), Reflect.get(target, name)),
    has: (target, name) => (note(name), Reflect.has(target, name)),
    getOwnPropertyDescriptor: (target, name) => (note(name), Reflect.getOwnPropertyDescriptor(target, name)),
  });
}

/** The operation's cost with these variables; null when the variables do not fit (execution refuses them). */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  inputs: Variables = {},
): number | null {
  const root = schema.getRootType(operation.operation);
  if (!root) return null;
  let known = walkedCosts.get(operation);
  if (known?.schema !== schema) walkedCosts.set(operation, (known = { schema, walks: [], reads: new Set() }));
  const definitions = operation.variableDefinitions ?? [];
  // Only the variables the kept walks read are coerced to find one: a checkout's `$input`, which no walk
  // reads, is coerced by execution alone, not twice. Execution refuses variables that do not fit.
  if (known.walks.length > 0) {
    const read = known.reads;
    const variables = coerce(schema, read.size > 0 ? definitions.filter((d) => read.has(d.variable.name.value)) : [], inputs);
    if (!variables) return null;
    for (const walk of known.walks) if (valuesOf(walk.reads, variables) === walk.values) return walk.cost;
  }
  const variables = coerce(schema, definitions, inputs);
  if (!variables) return null;
  const reads = new Set<string>();
  const cost = new CostWalk(schema, document, noting(variables, reads)).selectionSet(operation.selectionSet, root, null);
  const names = [...reads];
  const values = valuesOf(names, variables);
  if (values !== undefined && known.walks.length < MAX_WALKS_KEPT) {
    known.walks.push({ reads: names, values, cost });
    for (const name of names) known.reads.add(name);
  }
  return cost;
}

/** The variables of `definitions` coerced from `inputs`; undefined when one does not fit. */
function coerce(schema: GraphQLSchema, definitions: readonly VariableDefinitionNode[], inputs: Variables): Variables | undefined {
  if (definitions.length === 0) return {};
  const coerced = getVariableValues(schema, definitions, inputs, { maxErrors: 1 });
  return coerced.errors ? undefined : coerced.coerced;
}

/**
 * The budget of the request's caller: a secret key's is larger (a partner's server, accountable and
 * rate-limited per key) than that of the public one in every shop's page, or of a request without a key.
 */
export function costBudget(p: Pick<GraphQLProtections, 'maxCost' | 'secretKeyMaxCost'>, principal: Principal | null | undefined): number {
  return principal && principal.kind !== 'publishable' ? p.secretKeyMaxCost : p.maxCost;
}

/** Refuses, before anything runs, an operation whose cost is above the caller's budget. */
export function costLimit(p: Pick<GraphQLProtections, 'maxCost' | 'secretKeyMaxCost'>): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return;
          const maxCost = costBudget(p, (contextValue as { principal?: Principal | null }).principal);
          const cost = operationCost(schema, document, operation, request.variables);
          if (cost === null || cost <= maxCost) return;
          const shown = Math.min(cost, Number.MAX_SAFE_INTEGER);
          throw refusal(
            'MAX_COST',
            `This operation costs ${shown}, above the budget of ${maxCost}: ask for smaller pages (first) or fewer nested objects.`,
            maxCost,
            { cost: shown },
          );
        },
      };
    },
  };
}
