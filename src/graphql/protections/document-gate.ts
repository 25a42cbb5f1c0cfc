/**
 * Checks on the GraphQL request itself, before Apollo parses anything: the document's size in bytes and
 * in tokens, and, in trusted documents mode, that the operation is in the manifest. They run as a Fastify
 * hook of the GraphQL route because Apollo turns an error thrown from its early hooks (requestDidStart,
 * didResolveSource, parsingDidStart) into a 500, and its later ones run after parsing and validation,
 * whose error messages would let an untrusted client probe the schema.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Lexer, Source, TokenKind } from 'graphql';
import { LRUCache } from 'lru-cache';
import { NUL_MESSAGE, nulCharacterPath } from '../../http/nul-character.ts';
import { NOT_TRUSTED, refusalExtensions, type RefusalExtensions } from './refusals.ts';
import { isRouter, ROUTER_TOKEN_HEADER } from './router.ts';
import type { GraphQLProtections } from './settings.ts';

interface RequestedOperation {
  query?: string;
  hash?: string;
  variables?: unknown;
}

interface GraphQLRefusal {
  message: string;
  extensions: RefusalExtensions;
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // Apollo answers malformed extensions itself
  }
}

/** The query and persisted-query hash of each operation, from a POST body (an array when batched) or GET parameters. */
function requestedOperations(request: FastifyRequest): RequestedOperation[] {
  const source = request.method === 'GET' ? request.query : request.body;
  const items: unknown[] = Array.isArray(source) ? source : [source];
  return items.map((item) => {
    const fields = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const extensions = parseJson(fields.extensions) as { persistedQuery?: { sha256Hash?: unknown } } | undefined;
    const hash = extensions?.persistedQuery?.sha256Hash;
    return {
      query: typeof fields.query === 'string' ? fields.query : undefined,
      hash: typeof hash === 'string' ? hash : undefined,
      variables: parseJson(fields.variables),
    };
  });
}

/**
 * Token counts of documents counted whole, by text: clients send the same few documents again and again,
 * and lexing one is most of what this gate costs them (a token object for each). Bounded by the texts'
 * length, so documents that are all different only push each other out.
 */
const tokenCounts = new LRUCache<string, number>({ maxSize: 1 << 20, sizeCalculation: (_count, query) => query.length + 64 });

/** Whether the document has more than `max` tokens; a lexical error is left for Apollo to report. */
function exceedsTokens(query: string, max: number): boolean {
  const known = tokenCounts.get(query);
  if (known !== undefined) return known > max;
  const lexer = new Lexer(new Source(query));
  let count = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) if (++count > max) return true;
  } catch {
    return false;
  }
  tokenCounts.set(query, count);
  return false;
}

/** A NUL escape (`\u0000`, `\u{0}`) in the document's string literals; an escaped backslash before it is taken for one too. */
const NUL_ESCAPE = /\\u(?:0000|\{0+\})/i;

/** NUL in a variable or in the document's literals: refused as bad input naming it (src/http/nul-character.ts). */
function nulRefusal(query: string | undefined, variables: unknown): GraphQLRefusal | null {
  const field = unstorableVariable(variables) ?? (query !== undefined && NUL_ESCAPE.test(query) ? 'query' : null);
  if (field === null) return null;
  return { message: `${field} ${NUL_MESSAGE}`, extensions: { code: 'VALIDATION_FAILED', field } };
}

/**
 * The unstorable variable's field, named as the domain's own validation errors name it, inside the
 * argument (`data.0.participants.0.firstName` for `$input`); the variable's name when it is the string.
 */
function unstorableVariable(variables: unknown): string | null {
  const path = nulCharacterPath(variables);
  if (path === null) return null;
  const [name, ...inside] = path.split('.');
  return inside.length > 0 ? inside.join('.') : name || 'variables';
}

/** `fromRouter`: the request carries the supergraph router's token (router.ts), whose own operations no manifest lists. */
export function checkOperation(
  p: GraphQLProtections,
  { query, hash, variables }: RequestedOperation,
  fromRouter = false,
): GraphQLRefusal | null {
  if (query !== undefined) {
    const bytes = Buffer.byteLength(query, 'utf8');
    if (bytes > p.maxDocumentBytes) {
      return {
        message: `The GraphQL document is ${bytes} bytes, above the limit of ${p.maxDocumentBytes}.`,
        extensions: refusalExtensions('MAX_DOCUMENT_SIZE', p.maxDocumentBytes),
      };
    }
  }
  const trusted = p.trustedDocuments;
  if (trusted && !fromRouter && (query !== undefined || hash !== undefined)) {
    const known = query !== undefined ? trusted.trusts(query) : trusted.body(hash!) !== undefined;
    if (!known)
      return { message: 'This server runs only the operations of its trusted documents manifest.', extensions: { code: NOT_TRUSTED } };
  }
  if (query !== undefined && exceedsTokens(query, p.maxTokens)) {
    return {
      message: `The GraphQL document has more than ${p.maxTokens} tokens.`,
      extensions: refusalExtensions('MAX_TOKENS', p.maxTokens),
    };
  }
  return nulRefusal(query, variables);
}

function documentGate(p: GraphQLProtections): preHandlerAsyncHookHandler {
  return async function graphqlDocumentGate(request: FastifyRequest, reply: FastifyReply) {
    const fromRouter = isRouter(request.headers[ROUTER_TOKEN_HEADER], p.routerToken);
    for (const operation of requestedOperations(request)) {
      const refused = checkOperation(p, operation, fromRouter);
      if (refused)
        return reply
          .code(400)
          .type('application/json; charset=utf-8')
          .send({ errors: [refused] });
    }
  };
}

/** Adds the gate to the GraphQL route; call before that route is registered. */
export function installDocumentGate(app: FastifyInstance, p: GraphQLProtections, path = '/graphql'): void {
  const gate = documentGate(p);
  app.addHook('onRoute', (route) => {
    if (route.url !== path) return;
    const existing = route.preHandler;
    route.preHandler = [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), gate];
  });
}
