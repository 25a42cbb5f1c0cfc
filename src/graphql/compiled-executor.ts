/**
 * A compiled executor for Apollo Server (graphql-jit), plugged in through Apollo's gateway interface,
 * the one place Apollo Server 5 takes an executor. Each query is compiled once, on its first run, into a
 * function that resolves and serializes it without graphql-js's per-field interpretation; compiled
 * queries are kept per parsed document (Apollo keeps parsed documents per query text), so repeated
 * queries compile nothing. Its answers are graphql-js's, field for field, but for the one difference
 * stated below (test/unit/graphql and test/api/graphql compare the two on a corpus of documents); what
 * graphql-jit 0.8 does not do as graphql-js does runs on graphql-js, or is set right before it reaches the
 * compiled function:
 *
 * - The operation is the one the request names (`request.operationName`), as graphql-js picks it. Apollo's
 *   `operationName` is the one it found, null when the document has none of that name: a document of one
 *   operation would then run that operation, and Apollo, seeing an answer for an operation it did not
 *   resolve, would fail the request with a 500. graphql-js answers "Unknown operation named" (a 400).
 * - Mutations run on graphql-js. graphql-jit queues every root field of a mutation and runs them all even
 *   after one failed on a non-null payload (every payload of the schema is non-null): the answer is then
 *   `data: null`, and what the later fields did (an endpoint created, its signing secret shown once) is
 *   lost. graphql-js stops at the failed field, as a client reading `data: null` must be able to assume.
 *   Mutations are not the hot path.
 * - A list field whose resolver returns promises (`_entities`, one per representation) is answered with
 *   those promises settled: graphql-jit appends a rejected item's null at the end of the list instead of
 *   its own index, so `_entities` came back longer than the representations and out of order. Each item
 *   that fails becomes its Error (graphql-js and graphql-jit both answer an Error value as that item's
 *   error, at its index).
 *
 * One difference is left, stated and tested (test/unit/graphql/compiled-executor.test.ts): where a non-null
 * field fails and nulls its object, graphql-js stops running that object's fields and reports that one
 * error; graphql-jit has run the siblings and reports each field error raised (the spec's "an error must be
 * added" for each), at paths the answer does not hold. The data is the same.
 *
 * Variables are coerced by graphql-js first, so bad input gets graphql-js's own messages and Apollo
 * turns them into BAD_USER_INPUT exactly as without this executor; only valid variables reach the
 * compiled function. graphql-jit's errors are not quite graphql-js's (no `extensions` object, which
 * Apollo reads before formatting, so every one of them became INTERNAL_SERVER_ERROR): each is rebuilt
 * as a graphql-js GraphQLError with its message, locations, path and original error, so DomainError
 * codes and details reach clients exactly as without this executor.
 */
import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { mapSchema, MapperKind } from '@graphql-tools/utils';
import {
  execute,
  getNullableType,
  getOperationAST,
  GraphQLError,
  isListType,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import { inspect } from 'graphql/jsutils/inspect.js';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

type Compiled = CompiledQuery | null;

/** A graphql-js GraphQLError carrying what graphql-jit's error says. */
function asGraphQLError(error: GraphQLError): GraphQLError {
  const rebuilt = new GraphQLError(error.message, {
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: error.extensions ?? undefined,
  });
  // graphql-js derives locations from AST nodes, which graphql-jit's errors do not keep.
  if (error.locations) (rebuilt as { locations?: GraphQLError['locations'] }).locations = error.locations;
  return rebuilt;
}

async function run(query: CompiledQuery, context: unknown, variables: Record<string, unknown>): Promise<ExecutionResult> {
  const result = await query.query(undefined, context, variables);
  return result.errors ? { ...result, errors: result.errors.map(asGraphQLError) } : result;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** What graphql-js makes of a rejection that is not an Error (locatedError). */
function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(`Unexpected error value: ${inspect(reason)}`);
}

/** The list as it is when no item is a promise; otherwise each promise item settled, a rejection as its Error. */
function settledItems(list: unknown): unknown {
  if (!Array.isArray(list) || !list.some(isPromiseLike)) return list;
  return list.map((item) => (isPromiseLike(item) ? Promise.resolve(item).then(undefined, asError) : item));
}

/**
 * The schema graphql-jit compiles against: the same types and resolvers, but a list field's resolver never
 * hands it an item promise that rejects. Fields without a resolver (a property of their parent) are left
 * as they are, so graphql-jit still reads them inline; the domain's objects hold no promises.
 */
function withSettledListItems(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field) => {
      const resolve = field.resolve;
      if (!resolve || !isListType(getNullableType(field.type))) return field;
      const settled: GraphQLFieldResolver<unknown, unknown> = (source, args, context, info) => {
        const result: unknown = resolve(source, args, context, info);
        return isPromiseLike(result) ? Promise.resolve(result).then(settledItems) : settledItems(result);
      };
      return { ...field, resolve: settled };
    },
  });
}

/** The executor: compiled functions per document and operation name for queries, graphql-js for the rest. */
export function compiledExecutor(schema: GraphQLSchema): GatewayExecutor {
  const compiledSchema = withSettledListItems(schema);
  const compiled = new WeakMap<DocumentNode, Map<string, Compiled>>();
  const compiledFor = (document: DocumentNode, operationName: string | undefined): Compiled => {
    let byName = compiled.get(document);
    if (!byName) {
      byName = new Map();
      compiled.set(document, byName);
    }
    const key = operationName ?? '';
    if (!byName.has(key)) {
      const result = compileQuery(compiledSchema, document, operationName, { disablingCapturingStackErrors: true });
      byName.set(key, isCompiledQuery(result) ? result : null);
    }
    return byName.get(key)!;
  };

  return async (requestContext): Promise<ExecutionResult> => {
    const { document, request, context } = requestContext;
    const operationName = request.operationName ?? undefined;
    const variables = request.variables ?? {};
    const operation = getOperationAST(document, operationName);
    // No such operation, or several and no name: graphql-js says so, and Apollo answers it as a 400.
    if (!operation || operation.operation !== 'query') {
      return execute({ schema, document, contextValue: context, variableValues: variables, operationName });
    }
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 50 });
    if (coerced.errors) return { errors: coerced.errors };
    const query = compiledFor(document, operationName);
    if (!query) return execute({ schema, document, contextValue: context, variableValues: variables, operationName });
    return run(query, context, variables);
  };
}

/** Apollo's gateway interface serving one fixed schema with the compiled executor. */
export function compiledGateway(schema: GraphQLSchema): GatewayInterface {
  return {
    async load() {
      return { executor: compiledExecutor(schema) };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async stop() {},
  };
}
