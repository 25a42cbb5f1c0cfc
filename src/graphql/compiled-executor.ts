/**
 * A compiled executor for Apollo Server (graphql-jit), plugged in through Apollo's gateway interface,
 * the one place Apollo Server 5 takes an executor. Each operation is compiled once, on its first run,
 * into a function that resolves and serializes it without graphql-js's per-field interpretation;
 * compiled operations are kept per parsed document (Apollo keeps parsed documents per query text), so
 * repeated queries compile nothing. What the compiler does not support runs on graphql-js, as before.
 *
 * Variables are coerced by graphql-js first, so bad input gets graphql-js's own messages and Apollo
 * turns them into BAD_USER_INPUT exactly as without this executor; only valid variables reach the
 * compiled function. graphql-jit's errors are not quite graphql-js's (no `extensions` object, which
 * Apollo reads before formatting, so every one of them became INTERNAL_SERVER_ERROR): each is rebuilt
 * as a graphql-js GraphQLError with its message, locations, path and original error, so DomainError
 * codes and details reach clients exactly as without this executor.
 */
import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { execute, getOperationAST, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
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

/** The executor: compiled functions per document and operation name, graphql-js where none compiles. */
export function compiledExecutor(schema: GraphQLSchema): GatewayExecutor {
  const compiled = new WeakMap<DocumentNode, Map<string, Compiled>>();
  const compiledFor = (document: DocumentNode, operationName: string | null): Compiled => {
    let byName = compiled.get(document);
    if (!byName) {
      byName = new Map();
      compiled.set(document, byName);
    }
    const key = operationName ?? '';
    if (!byName.has(key)) {
      const result = compileQuery(schema, document, operationName ?? undefined, { disablingCapturingStackErrors: true });
      byName.set(key, isCompiledQuery(result) ? result : null);
    }
    return byName.get(key)!;
  };

  return async (requestContext): Promise<ExecutionResult> => {
    const { document, operationName, request, context } = requestContext;
    const variables = request.variables ?? {};
    const operation = getOperationAST(document, operationName);
    const coerced = operation ? getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 50 }) : null;
    if (coerced?.errors) return { errors: coerced.errors };
    const query = operation ? compiledFor(document, operationName) : null;
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
