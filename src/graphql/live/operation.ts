/**
 * What both live transports do with a subscription request before and while it runs, so a document sent
 * over WebSocket or Server-Sent Events meets exactly the limits of one sent to POST /graphql: its size,
 * tokens and trusted-documents rule (protections/document-gate.ts), depth, aliases, directives and
 * introspection (protections/document-rules.ts), and its cost with these variables (protections/cost.ts).
 * Errors get the same shape and codes as over HTTP (server.ts formatError); unexpected ones are logged
 * and masked.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  createSourceEventStream,
  execute,
  getOperationAST,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { isPromise } from 'graphql/jsutils/isPromise.js';
import type { PromiseOrValue } from 'graphql/jsutils/PromiseOrValue.js';
import { LRUCache } from 'lru-cache';
import { unwrapResolverError } from '@apollo/server/errors';
import { withFreshLoaders, type GraphQLContext } from '../context.ts';
import { operationCost } from '../protections/cost.ts';
import { checkOperation } from '../protections/document-gate.ts';
import { documentRules, putRefusalsFirst } from '../protections/document-rules.ts';
import { withoutSuggestions } from '../protections/index.ts';
import { refusal } from '../protections/refusals.ts';
import type { GraphQLProtections } from '../protections/settings.ts';
import { formatError, INTERNAL_MESSAGE, isExpectedError } from '../server.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { turnedAwayBy } from '../../http/database-unavailable.ts';

/** A subscription request as both protocols carry it (graphql-ws `subscribe` payload, graphql-sse body). */
export interface LiveRequest {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
}

/** Valid subscription documents kept parsed, by their text. */
const DOCUMENTS_KEPT = 1_000;

export type Prepared = Pick<ExecutionArgs, 'document' | 'operationName' | 'variableValues'>;

/** Errors already in the shape the client sees: `format` passes them on as they are. */
const shownAsIs = new WeakSet<GraphQLError>();

/** A refusal of ours: a GraphQLError whose message and extensions are already what the client sees. */
export function refused(message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  const { http: _, ...shown } = extensions;
  const error = new GraphQLError(message, { extensions: shown });
  shownAsIs.add(error);
  return error;
}

function persistedHash(extensions: unknown): string | undefined {
  const hash = (extensions as { persistedQuery?: { sha256Hash?: unknown } } | null | undefined)?.persistedQuery?.sha256Hash;
  return typeof hash === 'string' ? hash : undefined;
}

const ENDED: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * A subscription's results: each event of its watch run by `run` (graphql-js `execute`). When the watch
 * fails (a slow consumer's SLOW_CONSUMER, the database gone) or an event cannot run, one last result with
 * that error before it ends: both protocols then deliver it as the operation's errors and complete, where
 * a thrown error would be masked (graphql-ws) or cut the event stream (graphql-sse).
 *
 * A class on promise chains, where graphql-js's `mapAsyncIterator` and an async wrapper made closures for
 * each iterator and left an async function suspended in each `next()`: an idle subscriber waits in
 * `next()` for as long as it stays connected, and thousands of them each kept those.
 */
class LiveResults<T> implements AsyncGenerator<ExecutionResult> {
  private ended = false;

  constructor(
    private readonly events: AsyncIterator<T>,
    private readonly run: (event: T) => PromiseOrValue<ExecutionResult>,
  ) {}

  next(): Promise<IteratorResult<ExecutionResult>> {
    if (this.ended) return Promise.resolve(ENDED);
    return this.events.next().then(
      (event) => this.ran(event),
      (error: unknown) => this.failed(error),
    );
  }

  return(): Promise<IteratorResult<ExecutionResult>> {
    this.ended = true;
    return Promise.resolve(this.events.return?.()).then(() => ENDED);
  }

  async throw(error?: unknown): Promise<IteratorResult<ExecutionResult>> {
    await this.return();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private ran(event: IteratorResult<T>): PromiseOrValue<IteratorResult<ExecutionResult>> {
    if (event.done) {
      this.ended = true;
      return ENDED;
    }
    try {
      const result = this.run(event.value);
      if (!isPromise(result)) return { value: result, done: false };
      return result.then(
        (value) => ({ value, done: false }),
        (error: unknown) => this.failed(error),
      );
    } catch (error) {
      return this.failed(error);
    }
  }

  /** The error as the last result; the watch is ended (its listeners removed) if it was not already. */
  private failed(error: unknown): IteratorResult<ExecutionResult> {
    this.ended = true;
    this.events.return?.().catch(() => {});
    return { value: { errors: [new GraphQLError((error as Error).message, { originalError: error as Error })] }, done: false };
  }
}

export interface LiveOperations {
  /** The document ready to subscribe, or the errors refusing it (already in the client's shape). */
  prepare(request: LiveRequest): Prepared | GraphQLError[];
  /** graphql-js `subscribe`, each event executed with fresh loaders (a loader's cache must not outlive one update). */
  subscribe(args: ExecutionArgs): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult>;
  /** A result's errors as the HTTP face answers them; unexpected ones logged with the connection's id. */
  format(errors: readonly GraphQLError[], requestId: string): GraphQLFormattedError[];
  /** An error thrown while setting an operation up (a key check, the rate limit, the context), answered as `format` would. */
  thrown(error: unknown, requestId: string): GraphQLFormattedError[];
}

export function liveOperations(schema: GraphQLSchema, p: GraphQLProtections, log: FastifyBaseLogger): LiveOperations {
  const rules: ValidationRule[] = [...specifiedRules, ...documentRules(p)];
  const shown = p.introspection ? formatError : (f: GraphQLFormattedError, e: unknown) => withoutSuggestions(formatError(f, e));

  /**
   * Parsed and validated once per document text: browsers open the same subscription by the thousand, and
   * each would otherwise keep an AST of its own (tokens and locations included) for as long as it runs.
   * Only valid documents are kept, at most DOCUMENTS_KEPT, least recently used out first.
   */
  const documents = new LRUCache<string, DocumentNode>({ max: DOCUMENTS_KEPT });
  const checkedDocument = (query: string): DocumentNode | GraphQLError[] => {
    const kept = documents.get(query);
    if (kept) return kept;
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: p.maxTokens });
    } catch (error) {
      return [refused((error as Error).message, { code: 'GRAPHQL_PARSE_FAILED' })];
    }
    const invalid = validate(schema, document, rules, { maxErrors: 100 });
    if (invalid.length > 0) {
      putRefusalsFirst(invalid as GraphQLError[]);
      return invalid.map((error) => {
        // graphql-js's own rules give their errors no code, which formatError would mask as an internal
        // error: each is the client's, as Apollo's ValidationError marks it on POST /graphql.
        const json = error.toJSON();
        const formatted = shown({ ...json, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', ...json.extensions } }, error);
        return refused(formatted.message, { code: 'GRAPHQL_VALIDATION_FAILED', ...error.extensions });
      });
    }
    documents.set(query, document);
    return document;
  };

  const prepare = (request: LiveRequest): Prepared | GraphQLError[] => {
    const hash = persistedHash(request.extensions);
    const variables = request.variables ?? undefined;
    // graphql-ws requires a `query` string: an empty one with a persisted-query hash sends the hash alone.
    const sent = typeof request.query === 'string' && request.query !== '' ? request.query : undefined;
    const gate = checkOperation(p, { query: sent, hash, variables });
    if (gate) return [refused(gate.message, gate.extensions)];
    const query = sent ?? (hash === undefined ? undefined : p.trustedDocuments?.body(hash));
    if (query === undefined) return [refused('Send the subscription document as "query".', { code: 'BAD_REQUEST' })];
    if (variables !== undefined && (typeof variables !== 'object' || variables === null || Array.isArray(variables)))
      return [refused('"variables" must be an object.', { code: 'BAD_REQUEST' })];
    const checked = checkedDocument(query);
    if (Array.isArray(checked)) return checked;
    const document = checked;
    const operationName = typeof request.operationName === 'string' ? request.operationName : undefined;
    const operation = getOperationAST(document, operationName);
    if (!operation)
      return [refused('Name the operation to run ("operationName"): the document has several, or none.', { code: 'BAD_REQUEST' })];
    if (operation.operation !== 'subscription') {
      return [
        refused(
          `Only subscriptions run over a live connection; send ${operation.operation === 'query' ? 'queries' : 'mutations'} to POST /graphql.`,
          {
            code: 'BAD_REQUEST',
          },
        ),
      ];
    }
    const inputs = (variables ?? {}) as Record<string, unknown>;
    const cost = operationCost(schema, document, operation, inputs);
    if (cost !== null && cost > p.maxCost) {
      const error = refusal(
        'MAX_COST',
        `This operation costs ${cost}, above the budget of ${p.maxCost}: ask for smaller pages (first) or fewer nested objects.`,
        p.maxCost,
        { cost },
      );
      return [refused(error.message, error.extensions)];
    }
    return { document, operationName, variableValues: inputs };
  };

  const subscribe = async (args: ExecutionArgs) => {
    const stream = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in stream)) return stream;
    const context = args.contextValue as GraphQLContext;
    return new LiveResults(stream[Symbol.asyncIterator](), (payload: unknown) =>
      execute({ ...args, rootValue: payload, contextValue: withFreshLoaders(context) }),
    );
  };

  const format = (errors: readonly GraphQLError[], requestId: string): GraphQLFormattedError[] =>
    errors.map((error) => {
      if (shownAsIs.has(error)) return error.toJSON();
      // A stream that failed (endingWithErrors): the error of the watch itself, with no field of its own.
      if (!error.path && error.originalError) return thrown(error.originalError, requestId)[0]!;
      const original = unwrapResolverError(error);
      const away = turnedAwayBy(original);
      if (away) away.log(log, original as Error, { reqId: requestId, path: error.path });
      else if (!isExpectedError(error)) log.error({ err: original, reqId: requestId, path: error.path }, 'GraphQL subscription failed');
      const formatted = shown(error.toJSON(), error);
      if (formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') return formatted;
      return { ...formatted, extensions: { ...formatted.extensions, requestId } };
    });

  const thrown = (error: unknown, requestId: string): GraphQLFormattedError[] => {
    if (error instanceof DomainError) return [{ message: error.message, extensions: { ...error.details, code: error.code } }];
    const away = turnedAwayBy(error);
    if (away) {
      away.log(log, error as Error, { reqId: requestId });
      return [{ message: away.message, extensions: { code: away.code } }];
    }
    log.error({ err: error, reqId: requestId }, 'live operation failed');
    return [{ message: INTERNAL_MESSAGE, extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } }];
  };

  return { prepare, subscribe, format, thrown };
}
